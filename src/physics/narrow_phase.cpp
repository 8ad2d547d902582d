// The narrow phase: the touching points of a body with another body, a wall or an obstacle's
// triangles. Every query grows the body by the contact margin (a gap under it counts as
// touching) and takes the margin back off the depths (contactGrown, contactBodies).
//
// Obstacles are static like walls. A body's partners among an obstacle's triangles are the ones
// its bounding sphere can reach (the BVH queried in the mesh's frame); each touching triangle
// gives its own manifold, deepest first, and a point that lies on a deeper triangle's contact is
// dropped, so shared edges of a flat region give no ghost bumps.
#include "narrow_phase.hpp"

#include "free_flight.hpp"
#include "geom/closest.hpp"
#include "geom/contact_convex.hpp"
#include "world_impl.hpp"

#include <algorithm>

namespace kz {
namespace {

/// Body a's sphere grown by the margin.
Sphere grownSphere(const Body& a, float margin) {
    return {a.position, a.radius + margin};
}

/// Body a's box grown by the margin on every side.
Obb grownObb(const Body& a, float margin) {
    Obb grown = obbOf(a);
    grown.half += glm::vec3(margin);
    return grown;
}

/// The contact of a grown shape with its margin taken back off the depths, in place.
void takeOffMargin(std::optional<Manifold>& m, float margin) {
    if (!m) return;
    m->depth -= margin;
    for (int i = 0; i < m->count; ++i)
        m->points[i].depth -= margin;
}

/// Body a, grown by the margin, against a static shape (a wall's plane or a triangle): the
/// sphere or the box query by a's shape, with the margin taken back off.
template <auto sphereQuery, auto boxQuery, class Static>
std::optional<Manifold> contactGrown(const Body& a, const Static& shape, float margin) {
    std::optional<Manifold> m = a.shape == ShapeType::Sphere ? sphereQuery(grownSphere(a, margin), shape)
                                                             : boxQuery(grownObb(a, margin), shape);
    takeOffMargin(m, margin);
    return m;
}

/// Whether the bounding spheres of two bodies come within the contact margin.
bool boundsTouch(const Body& a, const Body& b) {
    const float reach = boundingRadius(a) + boundingRadius(b) + kMargin;
    const glm::vec3 d = a.position - b.position;
    return glm::dot(d, d) <= reach * reach;
}

} // namespace

std::optional<Manifold> contactBodies(const Body& a, const Body& b, float margin) {
    // Capsules, cylinders and hulls (and the spheres and boxes they meet): GJK's speculative
    // manifold within the margin, or EPA's.
    if (isConvexShape(a.shape) || isConvexShape(b.shape))
        return contactConvexConvex(convexOf(a), convexOf(b), margin);
    std::optional<Manifold> m;
    if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
        m = contactSphereSphere(grownSphere(a, margin), sphereOf(b));
    } else if (a.shape == ShapeType::Sphere) {
        m = contactSphereObb(grownSphere(a, margin), obbOf(b));
    } else if (b.shape == ShapeType::Sphere) {
        // Computed as (sphere B, box A): flip to "from B toward A", and move the points from A's
        // surface onto B's.
        m = contactSphereObb(grownSphere(b, margin), obbOf(a));
        if (m) m->normal = -m->normal;
        if (m) {
            for (int i = 0; i < m->count; ++i)
                m->points[i].position -= m->normal * m->points[i].depth;
        }
    } else {
        m = contactObbObb(grownObb(a, margin), obbOf(b));
    }
    takeOffMargin(m, margin);
    return m;
}

std::optional<Manifold> contactBodyPlane(const Body& a, const Plane& wall, float margin) {
    if (isConvexShape(a.shape)) return contactConvexPlane(convexOf(a), wall, margin);
    return contactGrown<contactSpherePlane, contactObbPlane>(a, wall, margin);
}

std::optional<Manifold> contactBodyTriangle(const Body& a, const Triangle& t, float margin) {
    if (isConvexShape(a.shape)) return contactConvexConvex(convexOf(a), triangleShape(t), margin);
    return contactGrown<contactSphereTriangle, contactObbTriangle>(a, t, margin);
}

PosedHull triangleShape(const Triangle& t) {
    // One flat hull per thread, rewritten for each triangle: no allocation after the first.
    thread_local ConvexHull scratch;
    triangleHull(t.a, t.b, t.c, scratch);
    return {&scratch, glm::vec3(0.0f), glm::mat3(1.0f)};
}

std::optional<Manifold> World::contactOf(int a, Partner partner) const {
    // Bounding spheres first: most candidates are not touching, and this is far cheaper.
    const Body& body = bodies_[a];
    if (partner.isBody()) {
        const Body& other = bodies_[partner.index];
        if (!boundsTouch(body, other)) return std::nullopt;
        return contactBodies(body, other, kMargin);
    }
    const Plane& wall = room_.planes[partner.index];
    if (signedDistance(wall, body.position) > boundingRadius(body) + kMargin) return std::nullopt;
    return contactBodyPlane(body, wall, kMargin);
}

void World::trianglesNear(const Body& a, int obstacle, float reach, std::vector<Triangle>& out,
                          std::vector<std::uint32_t>* ids) const {
    out.clear();
    if (ids) ids->clear();
    const Obstacle& o = obstacles_[obstacle];
    const glm::vec3 r(boundingRadius(a) + reach);
    o.mesh->bvh.forEachTriangleOverlapping(
        o.localBox({a.position - r, a.position + r}), [&](std::uint32_t id, const Triangle& t) {
            out.push_back({o.toWorld(t.a), o.toWorld(t.b), o.toWorld(t.c)});
            if (ids) ids->push_back(id);
        });
}

namespace {

/// Drops the points of each manifold (sorted deepest first) that lie on a deeper triangle
/// already kept: a ball rolling over the shared edge of two triangles of a flat face touches the
/// edge of the second triangle too, and that "internal edge" contact would push it sideways (a
/// ghost bump). Returns how many manifolds are left, at the front of `contacts`.
std::size_t dropInternalEdgePoints(std::vector<PairManifold>& contacts, float onSurface) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        Manifold& mf = contacts[k].manifold;
        int count = 0;
        for (int i = 0; i < mf.count; ++i) {
            bool covered = false;
            for (std::size_t j = 0; j < kept && !covered; ++j) {
                const glm::vec3 d =
                    mf.points[i].position - closestPtPointTriangle(mf.points[i].position, contacts[j].placed);
                covered = glm::dot(d, d) <= onSurface * onSurface;
            }
            if (!covered) mf.points[count++] = mf.points[i];
        }
        if (count == 0) continue;
        mf.count = count;
        mf.depth = mf.points[0].depth;
        for (int i = 1; i < count; ++i)
            mf.depth = std::max(mf.depth, mf.points[i].depth);
        contacts[kept++] = contacts[k];
    }
    return kept;
}

} // namespace

void World::obstacleContactsOf(int a, int obstacle, float margin, std::vector<PairManifold>& out,
                               WorkerScratch& scratch) const {
    // One manifold per triangle the body (grown by the margin) touches, deepest first, without
    // the points on a deeper triangle's contact.
    out.clear();
    const Body& body = bodies_[a];
    std::vector<Triangle>& near = scratch.nearTriangles;
    std::vector<std::uint32_t>& ids = scratch.nearIds;
    trianglesNear(body, obstacle, margin, near, &ids);
    for (std::size_t k = 0; k < near.size(); ++k) {
        if (const auto manifold = contactBodyTriangle(body, near[k], margin))
            out.push_back({*manifold, ids[k], near[k]});
    }
    std::sort(out.begin(), out.end(), [](const PairManifold& x, const PairManifold& y) {
        return x.manifold.depth > y.manifold.depth ||
               (x.manifold.depth == y.manifold.depth && x.triangle < y.triangle);
    });
    const float onSurface = 1e-5f * (1.0f + glm::length(body.position)) + 1e-4f * margin;
    const std::size_t kept = dropInternalEdgePoints(out, onSurface);
    out.resize(std::min<std::size_t>(kept, kMaxObstacleManifolds));
}

void World::pairManifolds(int candidate, WorkerScratch& scratch, std::vector<PairManifold>& out) const {
    const Candidate& c = impl_->candidates[candidate];
    if (c.partner.isObstacle()) {
        obstacleContactsOf(c.a, c.partner.index, kMargin, out, scratch);
        return;
    }
    out.clear();
    if (const auto single = contactOf(c.a, c.partner)) out.push_back({*single, 0, {}});
}

} // namespace kz
