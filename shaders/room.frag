#version 330 core
// Walls: softly lit, with a faint 1 m grid so distances and depth read, and the shadows the
// bodies and meshes cast from the sun (shadow.glsl).

in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vShadowCoord;

uniform vec3 uKeyDir;
uniform vec3 uFillDir;
uniform vec3 uWallColor;
uniform vec3 uGridColor;

out vec4 fragColor;

void main() {
    vec3 n = normalize(vNormal);
    float light = 0.45 + 0.35 * abs(dot(n, uKeyDir)) + 0.2 * max(dot(n, uFillDir), 0.0);
    vec3 color = uWallColor * light;

    // Distance to the nearest grid line in pixels, per axis; the axis along the normal does not
    // vary across the wall and is left out (its fwidth is 0).
    vec3 width = max(fwidth(vWorldPos), vec3(1e-5));
    vec3 toLine = abs(fract(vWorldPos - 0.5) - 0.5) / width;
    toLine += step(0.9, abs(n)) * 1e6;
    float grid = 1.0 - clamp(min(min(toLine.x, toLine.y), toLine.z) - 0.5, 0.0, 1.0);
    // Fade the grid out where its cells shrink to a few pixels (far away, grazing angles), where
    // it would only alias.
    vec3 inPlane = width * (1.0 - step(0.9, abs(n)));
    grid *= 1.0 - smoothstep(0.1, 0.3, max(max(inPlane.x, inPlane.y), inPlane.z));
    vec3 shaded = mix(color, uGridColor, 0.4 * grid);
    fragColor = vec4(shaded * (1.0 - uShadowStrength * sunShadow(vShadowCoord, n)), 1.0);
}
