// The sun's shadow switched off: what the lit shaders are compiled with instead of shadow.glsl
// while shadows are off, so that they cost nothing then (a software rasteriser such as llvmpipe
// runs both sides of a branch, so a uniform switch would not save the lookups).

#ifdef KZ_VERTEX_SHADER
vec3 shadowCoord(vec3 world, vec3 n) {
    return vec3(0.0);
}
#endif

#ifdef KZ_FRAGMENT_SHADER
uniform float uShadowStrength; // unused: nothing is shadowed

float sunShadow(vec3 coord, vec3 n) {
    return 0.0;
}
#endif
