#version 330 core
// Blinn-Phong: ambient, a key light near the camera (a headlight offset up and to the side, so its
// highlight does not sit on every body's centre) and a dim fill light from the other side; then
// the sun's shadow (shadow.glsl) darkens what other bodies and meshes hide from the sun.

in vec3 vWorldPos;
in vec3 vNormal;
in vec3 vShadowCoord;
in vec4 vColor;

uniform vec3 uEye;
uniform vec3 uKeyDir;  // unit, toward the light
uniform vec3 uFillDir; // unit, toward the light

out vec4 fragColor;

void main() {
    // Bodies are closed and drawn with back faces culled; obstacles are drawn from both sides, lit
    // on the side that faces the camera.
    vec3 n = normalize(gl_FrontFacing ? vNormal : -vNormal);
    vec3 v = normalize(uEye - vWorldPos);
    float key = max(dot(n, uKeyDir), 0.0);
    float fill = max(dot(n, uFillDir), 0.0);
    vec3 h = normalize(uKeyDir + v);
    float specular = key > 0.0 ? pow(max(dot(n, h), 0.0), 48.0) : 0.0;
    vec3 albedo = vColor.rgb;
    vec3 color = albedo * (0.16 + 0.72 * key + 0.28 * fill) + vec3(0.35) * specular;
    color *= 1.0 - uShadowStrength * sunShadow(vShadowCoord, n);
    fragColor = vec4(color, vColor.a);
}
