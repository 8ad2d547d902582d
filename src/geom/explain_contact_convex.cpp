// The contact manifold's trace: contactConvexSteps, the fast path's own code
// (contact_convex_steps.hpp), run after explainEpa (penetrationConvexConvex's answer, bit for bit)
// with a recorder.
#include "explain_contact_convex.hpp"

#include "contact_convex_steps.hpp"

namespace kz {
namespace {

std::vector<glm::dvec3> facePoints(const detail::SupportingFace& f) {
    if (f.count < 2) return {};
    return {f.points.begin(), f.points.begin() + f.count};
}

/// Fills a ContactConvexTrace from contactConvexSteps' hooks.
struct ContactConvexRecorder {
    ContactConvexTrace& trace;
    const detail::SupportingFace* faceA = nullptr;
    const detail::SupportingFace* faceB = nullptr;

    void faces(const detail::SupportingFace& fa, const detail::SupportingFace& fb) {
        trace.faceA = facePoints(fa);
        trace.faceB = facePoints(fb);
        trace.normal = glm::dvec3(trace.epa.result.normal);
    }
    void reference(const detail::ReferencePlane& plane, const glm::dvec3& normal, bool snapped) {
        trace.hasReference = true;
        trace.referenceIsB = plane.isB;
        trace.referenceOrigin = plane.origin;
        trace.referenceNormal = plane.normal;
        trace.normal = normal;
        trace.snapped = snapped;
    }
    void clipped(const glm::dvec3& side, double offset, const glm::dvec3* polygon, int n) {
        trace.clips.push_back({side, offset, std::vector<glm::dvec3>(polygon, polygon + std::max(n, 0))});
    }
    void kept(const ContactPoint* points, int n) { trace.kept.assign(points, points + n); }
    void witness(bool only) { (only ? trace.witnessOnly : trace.witnessAdded) = true; }
};

} // namespace

ContactConvexTrace explainContactConvexConvex(const ConvexShape& a, const ConvexShape& b) {
    ContactConvexTrace trace;
    trace.epa = explainEpa(a, b);
    ContactConvexRecorder recorder{trace};
    trace.result = detail::contactConvexSteps(a, b, trace.epa.result, recorder);
    return trace;
}

} // namespace kz
