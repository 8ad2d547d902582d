// The trace of contactConvexConvex (contact_convex.hpp) for the lab and `kolize explain`: EPA's
// run (explain_epa.hpp), then the two supporting faces, the reference face, the incident face
// clipped side by side, the points kept behind the reference plane, and EPA's witness point when
// it joined. explainContactConvexConvex runs contactConvexConvex's own code
// (contact_convex_steps.hpp) with a recorder, so its manifold is the fast query's, bit for bit.
// Coordinates are world, in double as the query computes them. Traces allocate; nothing throws.
#pragma once

#include "contact_convex.hpp"
#include "explain_epa.hpp"

#include <optional>
#include <vector>

namespace kz {

/// One side plane of the reference face and the incident face after it.
struct ContactClipStep {
    /// The plane holds a side of the reference face and the normal (for a segment: its end,
    /// square to the segment); not unit, pointing out of the reference face's side.
    glm::dvec3 planeNormal;
    double offset;                   ///< The plane: dot(planeNormal, x) = offset; beyond is cut.
    std::vector<glm::dvec3> polygon; ///< The incident face left after this plane (may be empty).
};

/// How contactConvexConvex built its manifold.
struct ContactConvexTrace {
    EpaTrace epa; ///< The penetration first: its result gives the normal, the depth, the witness.
    /// A's supporting face toward B (along -normal): a polygon (3 or more corners, in loop order),
    /// a segment (2), or empty when A offers a point (a sphere, a capsule not lying flat...).
    std::vector<glm::dvec3> faceA;
    std::vector<glm::dvec3> faceB; ///< B's supporting face toward A (along normal), likewise.
    /// The faces made a reference and an incident face (false: a point, crossing segments, a
    /// reference plane along the normal; the manifold is then EPA's witness point).
    bool hasReference = false;
    bool referenceIsB = false;          ///< The reference face is B's (else A's).
    glm::dvec3 referenceOrigin{0.0};    ///< A point of the reference plane.
    glm::dvec3 referenceNormal{0.0};    ///< Its unit normal, out of the reference shape.
    bool snapped = false;               ///< The normal became the reference face's own.
    glm::dvec3 normal{0.0};             ///< The normal the clipping used (from B toward A).
    std::vector<ContactClipStep> clips; ///< One per side plane used, in order.
    std::vector<ContactPoint> kept;     ///< Behind the reference plane: on B's face, depths.
    bool witnessAdded = false;          ///< EPA's witness joined shallower face points.
    bool witnessOnly = false;           ///< The faces gave no point: EPA's witness alone.
    std::optional<Manifold> result;     ///< contactConvexConvex(a, b), bit for bit.
};

/// contactConvexConvex(a, b) with its steps.
ContactConvexTrace explainContactConvexConvex(const ConvexShape& a, const ConvexShape& b);

} // namespace kz
