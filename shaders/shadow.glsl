// The sun's shadow, compiled into the lit shaders (scene and room, both stages) right after their
// #version line; Renderer::create names this file. The shadow pass drew the depth of the bodies
// and meshes as the sun sees them into uShadowMap; a point deeper than that depth is hidden from
// the sun. no_shadow.glsl is the same interface with shadows off.

uniform vec3 uSunDir; // unit, toward the sun

#ifdef KZ_VERTEX_SHADER
uniform mat4 uLightViewProj;     // world to the sun's clip space (orthographic: w = 1)
uniform float uShadowTexelWorld; // one shadow-map texel, in metres

// Where the point `world` with unit normal `n` looks the shadow map up: texture coordinates and
// depth in [0, 1]. Normal offset (Holbein, "Normal Offset Shadows", 2011): from a point pushed
// off the surface, on its side toward the sun, by about a texel (more where the sun grazes it), so
// a surface does not shadow itself (acne) while a contact shadow stays at the contact (no
// peter-panning). Per vertex: the mapping is affine, so interpolating it is exact.
vec3 shadowCoord(vec3 world, vec3 n) {
    float facing = dot(n, uSunDir);
    vec3 towardSun = facing < 0.0 ? -n : n;
    vec3 p = world + towardSun * uShadowTexelWorld * (0.5 + 1.5 * (1.0 - abs(facing)));
    return (uLightViewProj * vec4(p, 1.0)).xyz * 0.5 + 0.5;
}
#endif

#ifdef KZ_FRAGMENT_SHADER
uniform sampler2DShadow uShadowMap; // GL_LEQUAL comparison, linear: each lookup is a 2x2 PCF
uniform float uShadowStrength;      // the share of the light a full shadow takes away

// How much of the sun a point with unit normal `n` and shadow-map coordinate `coord`
// (shadowCoord) loses to shadow, from 0 to 1. Outside the map the border's depth 1 means lit.
float sunShadow(vec3 coord, vec3 n) {
    float facing = dot(n, uSunDir);
    if (facing <= 0.0) return 0.0; // a face the sun does not light is not darkened further
    // One hardware-filtered comparison: the share of the 2x2 texels around `coord` that are lit.
    float lit = texture(uShadowMap, coord);
    // Faded in over the first degrees of facing, so a body's terminator has no hard edge.
    return (1.0 - lit) * smoothstep(0.0, 0.2, facing);
}
#endif
