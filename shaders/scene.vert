#version 330 core
// Lit bodies and obstacles: a mesh (the unit sphere or cube, or an obstacle's flat-shaded mesh)
// instanced with a model matrix and a colour each.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 aModel; // locations 2-5: rotation times scale, then the centre
layout(location = 6) in vec4 aColor;

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out vec3 vShadowCoord; // shadowCoord (shadow.glsl)
out vec4 vColor;

void main() {
    vec4 world = aModel * vec4(aPosition, 1.0);
    // Normals go through the inverse transpose of M = R S, which is R S^-1 = M S^-2: divide by
    // the squared column lengths (the squared scales) instead of inverting a matrix per vertex.
    mat3 m = mat3(aModel);
    vec3 scale2 = vec3(dot(m[0], m[0]), dot(m[1], m[1]), dot(m[2], m[2]));
    vNormal = m * (aNormal / scale2);
    vWorldPos = world.xyz;
    vShadowCoord = shadowCoord(world.xyz, normalize(vNormal));
    vColor = aColor;
    gl_Position = uViewProj * world;
}
