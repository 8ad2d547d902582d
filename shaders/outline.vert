#version 330 core
// The selected object's outline, drawn with front faces culled so only a rim of its back faces
// shows around the silhouette. A body: its unit mesh grown by uGrow about the centre and pushed a
// few pixels outward on screen, away from the centre. An obstacle (uAlongNormal): its welded hull
// pushed a few pixels along each vertex's smooth normal, which works for any shape, concave too.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uViewProj;
uniform mat4 uModel;
uniform mat3 uNormalMatrix; // local to world normals (obstacles)
uniform bool uAlongNormal;  // push along aNormal instead of away from the centre
uniform float uGrow;        // e.g. 1.06 (1 for obstacles)
uniform float uPixels;      // extra screen-space width
uniform vec2 uViewport;     // framebuffer size in pixels

void main() {
    vec4 clip = uViewProj * (uModel * vec4(aPosition * uGrow, 1.0));
    vec2 push;
    if (uAlongNormal) {
        // The normal's direction on screen at this vertex: d/ds of (clip + s clipDir).xy / w.
        vec4 clipDir = uViewProj * vec4(uNormalMatrix * aNormal, 0.0);
        push = clipDir.xy * clip.w - clip.xy * clipDir.w;
    } else {
        // Along the direction from the centre (shared by a cube corner's three faces, so the rim
        // has no gaps at the corners).
        push = (uViewProj * vec4(mat3(uModel) * aPosition, 0.0)).xy;
    }
    float len = length(push);
    if (len > 1e-6) {
        clip.xy += push / len * (2.0 * uPixels / uViewport) * clip.w;
    }
    gl_Position = clip;
}
