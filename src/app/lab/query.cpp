#include "app/lab/query.hpp"

#include "geom/closest.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"
#include "geom/raycast.hpp"
#include "geom/sweep.hpp"

#include <cmath>

namespace kz {
namespace {

constexpr const char* kRayControls =
    "drag the yellow origin or the orange end of the ray; drag the shape, right-drag to turn it";
constexpr const char* kPairControls =
    "drag A into B; right-drag or shift-drag turns a shape; right-drag on empty space orbits";

const LabShape& shapeA(const LabScene& scene) {
    return scene.shapes.at(0);
}
const LabShape& shapeB(const LabScene& scene) {
    return scene.shapes.at(scene.shapes.size() > 1 ? 1 : 0);
}

// ------------------------------------------------------------------ rays: hit or miss, t

LabResult rayResult(const std::optional<RayHit>& hit) {
    LabResult result;
    result.isHit = true;
    result.positive = hit.has_value();
    result.rayHit = hit;
    if (hit) result.numbers.push_back({"t", hit->t});
    return result;
}

LabResult runRaySphere(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labSphere(shapeA(scene)), 1.0f));
}

LabResult runRayBox(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labObb(shapeA(scene)), 1.0f));
}

LabResult runRayPlane(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labPlane(shapeA(scene)), 1.0f));
}

LabResult runRayTriangle(const LabScene& scene) {
    const Ray ray = labRay(scene);
    const auto hit = raycastBarycentric(ray, labTriangle(shapeA(scene)), 1.0f);
    if (!hit) return rayResult(std::nullopt);
    LabResult result = rayResult(RayHit{hit->t, ray.origin + hit->t * ray.dir, hit->normal});
    result.numbers.push_back({"u", hit->u});
    result.numbers.push_back({"v", hit->v});
    return result;
}

LabResult runRayMesh(const LabScene& scene) {
    const auto obstacle = labObstacle(shapeA(scene));
    const auto hit = obstacle ? raycast(labRay(scene), *obstacle, 1.0f) : std::nullopt;
    if (!hit) return rayResult(std::nullopt);
    LabResult result = rayResult(RayHit{hit->t, hit->point, hit->normal});
    result.meshTriangle = hit->triangle;
    result.numbers.push_back({"triangle", static_cast<float>(hit->triangle)});
    return result;
}

// ------------------------------------------------------------------ pairs: overlap, depth or distance

/// An overlap's manifold and depth, or the gap's number (and closest points when known).
LabResult pairResult(const std::optional<Manifold>& manifold) {
    LabResult result;
    result.positive = manifold.has_value();
    result.manifold = manifold;
    if (manifold) result.numbers.push_back({"depth", manifold->depth});
    return result;
}

/// Apart: the exact distance between the closest points a (on A) and b (on B).
void addGap(LabResult& result, const glm::vec3& a, const glm::vec3& b) {
    result.closest = std::pair{a, b};
    result.numbers.push_back({"distance", glm::distance(a, b)});
}

/// The point of sphere `s` nearest an outside point p.
glm::vec3 towardOf(const Sphere& s, const glm::vec3& p) {
    const glm::vec3 toward = p - s.center;
    const float length = glm::length(toward);
    return length > 0.0f ? s.center + toward * (s.radius / length) : s.center;
}

/// Sphere A against B: the contact, else the gap between A and B's point nearest A's centre.
LabResult sphereResult(const Sphere& a, const std::optional<Manifold>& contact, const glm::vec3& nearestOfB) {
    LabResult result = pairResult(contact);
    if (!result.positive) addGap(result, towardOf(a, nearestOfB), nearestOfB);
    return result;
}

LabResult runSphereSphere(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene)), b = labSphere(shapeB(scene));
    return sphereResult(a, contactSphereSphere(a, b), towardOf(b, a.center));
}

LabResult runSphereBox(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Obb b = labObb(shapeB(scene));
    return sphereResult(a, contactSphereObb(a, b), closestPtPointObb(a.center, b));
}

/// Box A against B: the contact, else only their separation over the separating axes (a lower
/// bound of their distance; no closest points).
LabResult separatedResult(const std::optional<Manifold>& contact, float separation) {
    LabResult result = pairResult(contact);
    if (!result.positive) result.numbers.push_back({"separation", separation});
    return result;
}

LabResult runBoxBox(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene)), b = labObb(shapeB(scene));
    return separatedResult(contactObbObb(a, b), separationObbObb(a, b));
}

/// The seed's test: the box's 8 corners not all on one side (testObbPlane's projected radius);
/// the contact is then its corners behind the plane.
LabResult runBoxPlane(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene));
    const Plane b = labPlane(shapeB(scene));
    LabResult result = pairResult(testObbPlane(a, b) ? contactObbPlane(a, b) : std::nullopt);
    if (result.positive) return result;
    // Apart: the corner nearest the plane, on the centre's side, and its foot on the plane.
    const float side = signedDistance(b, a.center) >= 0.0f ? 1.0f : -1.0f;
    glm::vec3 corner = a.center;
    for (int i = 0; i < 3; ++i) {
        const float along = glm::dot(a.axes[i], b.normal) >= 0.0f ? 1.0f : -1.0f;
        corner -= side * along * a.half[i] * a.axes[i];
    }
    addGap(result, corner, corner - signedDistance(b, corner) * b.normal);
    return result;
}

LabResult runSphereTriangle(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    return sphereResult(a, contactSphereTriangle(a, b), closestPtPointTriangle(a.center, b));
}

LabResult runBoxTriangle(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    return separatedResult(contactObbTriangle(a, b), separationObbTriangle(a, b));
}

// ------------------------------------------------------------------ the sweep and the segments

/// The sphere flies from its centre to the end handle (t = 1); where it first touches the triangle.
LabResult runSweepSphereTriangle(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    const glm::vec3 motion = scene.handles.empty() ? glm::vec3(0.0f) : scene.handles[0].position - a.center;
    LabResult result;
    result.isHit = true;
    const auto t = sweepSphereTriangle(a, motion, b, 1.0f);
    if (!t) return result;
    result.positive = true;
    const glm::vec3 centre = a.center + *t * motion;
    const glm::vec3 touch = closestPtPointTriangle(centre, b);
    const glm::vec3 out = centre - touch;
    const float length = glm::length(out);
    result.impactCentre = centre;
    result.rayHit = RayHit{*t, touch, length > 0.0f ? out / length : glm::vec3(0.0f, 1.0f, 0.0f)};
    result.numbers.push_back({"t", *t});
    return result;
}

LabResult runSegmentSegment(const LabScene& scene) {
    LabResult result;
    if (scene.handles.size() < 4) return result;
    const auto& h = scene.handles;
    const auto closest =
        closestPtLinePieces(asSegment(h[0].position, h[1].position), asSegment(h[2].position, h[3].position));
    if (!closest) return result;
    const float distance = std::sqrt(closest->sqDist);
    result.positive = distance <= kLabSegmentTouch;
    result.closest = std::pair{closest->p1, closest->p2};
    result.numbers = {{"distance", distance}, {"s", closest->s}, {"t", closest->t}};
    return result;
}

constexpr LabQueryInfo kInfo[kLabQueryCount] = {
    {"Aiming from the camera (seed 1): R(t) = P + t D, t >= 0, D not unit; the ray hits when the centre's "
     "squared distance to it is at most r^2.",
     kRayControls, runRaySphere},
    {"Mouse picking (seed 5): the ray moved into the box's frame, then three slabs; the latest entry "
     "before the earliest exit is the hit, and the nearest box wins.",
     kRayControls, runRayBox},
    {"Where the bullet hits the wall (seed 3): the plane ax + by + cz + d = 0 meets P + t D at "
     "t = -(n.P + d) / (n.D); parallel rays miss.",
     kRayControls, runRayPlane},
    {"Line against polygon (seed 2): the line meets the polygon's plane, then the point is tested inside "
     "the edges (watertight: no ray slips between two triangles).",
     kRayControls, runRayTriangle},
    {"Precise mesh picking (seed 4): boxes first, then the triangles, to the triangle: a ray through the "
     "ring's hole misses, though the ring's box would stop it.",
     kRayControls, runRayMesh},
    {"Bouncing balls (seed 3): two spheres meet when the distance between their centres is at most "
     "r1 + r2; the depth is what is left.",
     kPairControls, runSphereSphere},
    {"Sphere against box (seed 3): the box's point closest to the centre (clamped in the box's frame) "
     "lies within r.",
     kPairControls, runSphereBox},
    {"Boxes (seed 3, 5): two oriented boxes are apart when one of 15 axes separates them; else the axis "
     "of least penetration gives the contact.",
     kPairControls, runBoxBox},
    {"The demo's walls (seed 3): a box meets a plane when its 8 turned corners do not all lie in one "
     "half-space.",
     kPairControls, runBoxPlane},
    {"Walking a camera through a level (seed 2): the sphere against the polygon's plane, then its edges; "
     "push out along the normal by r - distance.",
     kPairControls, runSphereTriangle},
    {"Boxes on meshes: the triangle's normal, the box's 3 faces and the 9 edge products are the "
     "separating axes (Akenine-Moller).",
     kPairControls, runBoxTriangle},
    {"No tunnelling (seed 2 warns fast movers pass through): the first time the moving sphere touches the "
     "triangle's face, an edge or a corner.",
     "drag the sphere or its orange end (t = 1); drag or turn the triangle", runSweepSphereTriangle},
    {"Two rays (seed 3): coplanar, not parallel, and where; in 3-D the closest points of two segments, "
     "their distance and parameters s, t in [0, 1].",
     "drag the four ends of the two segments", runSegmentSegment},
};

} // namespace

std::optional<float> LabResult::number(const std::string& key) const {
    for (const LabNumber& n : numbers) {
        if (n.key == key) return n.value;
    }
    return std::nullopt;
}

const LabQueryInfo& labQueryInfo(LabQuery query) {
    const int i = static_cast<int>(query);
    return kInfo[i >= 0 && i < kLabQueryCount ? i : static_cast<int>(LabQuery::BoxBox)];
}

LabResult runLabQuery(const LabScene& scene) {
    LabResult result = labQueryInfo(scene.query).run(scene);
    result.trace = traceLabQuery(scene);
    // A number that is not finite (degenerate input) is left out, never shown or logged.
    std::erase_if(result.numbers, [](const LabNumber& n) { return !std::isfinite(n.value); });
    return result;
}

void logLabResult(EventLog& events, std::uint64_t frame, const char* query, const LabResult& result) {
    events.lab(frame, query, result.verdictKey(), result.positive, result.numbers);
}

} // namespace kz
