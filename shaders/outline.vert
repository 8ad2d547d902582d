#version 330 core
// The selected body's outline: its mesh grown by uGrow about the centre and pushed a few pixels
// outward on screen, drawn with front faces culled so only a rim shows around the silhouette.

layout(location = 0) in vec3 aPosition;

uniform mat4 uViewProj;
uniform mat4 uModel;
uniform float uGrow;      // e.g. 1.06
uniform float uPixels;    // extra screen-space width
uniform vec2 uViewport;   // framebuffer size in pixels

void main() {
    vec4 clip = uViewProj * (uModel * vec4(aPosition * uGrow, 1.0));
    // Push along the direction from the centre (shared by a cube corner's three faces, so the rim
    // has no gaps at the corners).
    vec4 clipDir = uViewProj * vec4(mat3(uModel) * aPosition, 0.0);
    float len = length(clipDir.xy);
    if (len > 1e-6) {
        clip.xy += clipDir.xy / len * (2.0 * uPixels / uViewport) * clip.w;
    }
    gl_Position = clip;
}
