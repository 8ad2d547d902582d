#version 330 core

uniform vec4 uColor;

out vec4 fragColor;

void main() {
    fragColor = uColor;
}
