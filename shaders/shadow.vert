#version 330 core
// The shadow pass: bodies and meshes (instanced like scene.vert) seen from the sun, depth only.

layout(location = 0) in vec3 aPosition;
layout(location = 2) in mat4 aModel; // locations 2-5: rotation times scale, then the centre

uniform mat4 uLightViewProj; // world to the sun's clip space (orthographic, fitted to the room)

void main() {
    gl_Position = uLightViewProj * (aModel * vec4(aPosition, 1.0));
}
