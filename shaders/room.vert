#version 330 core
// The room's walls (world-space triangles, each vertex with its wall's inward normal).

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out vec3 vShadowCoord; // shadowCoord (shadow.glsl)

void main() {
    vWorldPos = aPosition;
    vNormal = aNormal;
    vShadowCoord = shadowCoord(aPosition, aNormal);
    gl_Position = uViewProj * vec4(aPosition, 1.0);
}
