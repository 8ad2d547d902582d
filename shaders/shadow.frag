#version 330 core
// The shadow pass writes depth only (its framebuffer has no colour buffer).

void main() {
}
