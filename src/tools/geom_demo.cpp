// Worked examples of the Kolize geometry core, printed to stdout.
#include "geom/geom.hpp"

#include <cstdio>
#include <optional>

namespace {

void print(const char* label, const glm::vec3& v) {
    std::printf("%s(%.4g, %.4g, %.4g)", label, v.x, v.y, v.z);
}

void printHit(const char* what, const std::optional<kz::RayHit>& hit) {
    std::printf("  %-44s ", what);
    if (!hit) {
        std::printf("miss\n");
        return;
    }
    std::printf("t = %.4g  ", hit->t);
    print("point ", hit->point);
    print("  normal ", hit->normal);
    std::printf("\n");
}

} // namespace

int main() {
    using glm::vec3;
    std::printf("Kolize geometry core: worked examples\n\n");

    std::printf("Ray vs sphere (centre (0,0,10), radius 2):\n");
    const kz::Sphere sphere{vec3(0, 0, 10), 2.0f};
    printHit("from the origin along +z", kz::raycast(kz::Ray{vec3(0), vec3(0, 0, 1)}, sphere));
    printHit("same ray, dir of length 2 (t halves)", kz::raycast(kz::Ray{vec3(0), vec3(0, 0, 2)}, sphere));
    printHit("grazing at x = 2", kz::raycast(kz::Ray{vec3(2, 0, 0), vec3(0, 0, 1)}, sphere));
    printHit("sphere behind the origin", kz::raycast(kz::Ray{vec3(0), vec3(0, 0, -1)}, sphere));
    printHit("starting inside (t = 0, normal = -dir)",
             kz::raycast(kz::Ray{vec3(0, 0, 10), vec3(1, 0, 0)}, sphere));

    std::printf("\nRay vs boxes:\n");
    const kz::Aabb box{vec3(-1), vec3(1)};
    printHit("AABB [-1,1]^3 from (-5,0.5,0) along +x",
             kz::raycast(kz::Ray{vec3(-5, 0.5f, 0), vec3(1, 0, 0)}, box));
    const glm::mat3 rotated = glm::mat3(glm::vec3(0.70710678f, 0.70710678f, 0),
                                        glm::vec3(-0.70710678f, 0.70710678f, 0), glm::vec3(0, 0, 1));
    const kz::Obb obb{vec3(0), vec3(1), rotated};
    printHit("same cube turned 45 deg about z", kz::raycast(kz::Ray{vec3(-5, 0, 0), vec3(1, 0, 0)}, obb));

    std::printf("\nRay vs triangle (0,0,0) (4,0,0) (0,4,0):\n");
    const kz::Triangle tri{vec3(0), vec3(4, 0, 0), vec3(0, 4, 0)};
    printHit("from above, through (1,1)", kz::raycast(kz::Ray{vec3(1, 1, 5), vec3(0, 0, -1)}, tri));
    printHit("from below (two-sided: normal faces -z)",
             kz::raycast(kz::Ray{vec3(1, 1, -5), vec3(0, 0, 1)}, tri));
    printHit("through the edge x + y = 4", kz::raycast(kz::Ray{vec3(2, 2, 5), vec3(0, 0, -1)}, tri));
    printHit("outside, through (3,3)", kz::raycast(kz::Ray{vec3(3, 3, 5), vec3(0, 0, -1)}, tri));

    std::printf("\nReflection o = d - 2(d.n)n:\n");
    const vec3 d(1, -1, 0), n(0, 1, 0);
    std::printf("  ");
    print("d = ", d);
    print(" off the floor n = ", n);
    print(" -> ", kz::reflect(d, n));
    std::printf("\n");

    std::printf("\nTwo rays:\n");
    const auto printPair = [](const char* what, const kz::Ray& first, const kz::Ray& second) {
        const auto result = kz::intersectRays(first, second, 1e-4f);
        std::printf("  %-44s ", what);
        if (!result) {
            std::printf("invalid\n");
            return;
        }
        const char* kind = result->kind == kz::RayPairKind::Intersecting ? "intersecting"
                           : result->kind == kz::RayPairKind::Parallel   ? "parallel"
                                                                         : "skew";
        std::printf("%s, distance %.4g", kind, result->distance);
        if (result->kind == kz::RayPairKind::Intersecting) print(" at ", result->point);
        std::printf("\n");
    };
    printPair("(0,0,0)+t(1,1,0) and (4,0,0)+t(-1,1,0)", {vec3(0), vec3(1, 1, 0)},
              {vec3(4, 0, 0), vec3(-1, 1, 0)});
    printPair("(0,0,0)+t(1,0,0) and (0,1,0)+t(1,0,0)", {vec3(0), vec3(1, 0, 0)},
              {vec3(0, 1, 0), vec3(1, 0, 0)});
    printPair("(0,0,0)+t(1,0,0) and (0,1,1)+t(0,0,1)", {vec3(0), vec3(1, 0, 0)},
              {vec3(0, 1, 1), vec3(0, 0, 1)});
    printPair("lines cross behind: (1,0,0)+t(1,0,0), y-axis", {vec3(1, 0, 0), vec3(1, 0, 0)},
              {vec3(0, -2, 0), vec3(0, 1, 0)});
    return 0;
}
