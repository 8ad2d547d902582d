// MeshBvh: scenarios from the contract in mesh_bvh.hpp (a unit cube, a grid, icospheres), then
// property tests against brute force over all triangles with raycastBarycentric on a bumpy
// sphere of 20,480 triangles: random rays, and rays aimed exactly at shared edges and vertices;
// last, the trees of three fixed meshes pinned by their hashes (MeshBvhGolden).
#include "geom/geom.hpp"
#include "support/golden.hpp"
#include "support/ray_test_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace kz;
using namespace kz::raytest;
using kz::raytest::str;

// =============================================================================================
// Meshes

struct Mesh {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;

    std::size_t triangleCount() const { return indices.size() / 3; }
    Triangle triangle(std::size_t i) const {
        return {vertices[indices[3 * i]], vertices[indices[3 * i + 1]], vertices[indices[3 * i + 2]]};
    }
    void add(std::uint32_t a, std::uint32_t b, std::uint32_t c) { indices.insert(indices.end(), {a, b, c}); }
    MeshBvh bvh() const { return MeshBvh::build(vertices, indices); }
};

/// The unit cube [0, 1]^3, 12 triangles, two a face; each face's triangles are consecutive, in
/// the order -x, +x, -y, +y, -z, +z.
Mesh unitCube() {
    Mesh m;
    for (int i = 0; i < 8; ++i) // bit 0, 1, 2: x, y, z
        m.vertices.emplace_back(static_cast<float>(i & 1), static_cast<float>((i >> 1) & 1),
                                static_cast<float>((i >> 2) & 1));
    const std::uint32_t faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                       {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (const auto& f : faces) {
        m.add(f[0], f[1], f[2]);
        m.add(f[0], f[2], f[3]);
    }
    return m;
}

/// An n x n grid of unit squares in the plane z = 0, corners at integer (x, y) in [0, n].
Mesh grid(std::uint32_t n) {
    Mesh m;
    for (std::uint32_t y = 0; y <= n; ++y)
        for (std::uint32_t x = 0; x <= n; ++x)
            m.vertices.emplace_back(static_cast<float>(x), static_cast<float>(y), 0.0f);
    for (std::uint32_t y = 0; y < n; ++y) {
        for (std::uint32_t x = 0; x < n; ++x) {
            const std::uint32_t v = y * (n + 1) + x;
            m.add(v, v + 1, v + n + 2);
            m.add(v, v + n + 2, v + n + 1);
        }
    }
    return m;
}

/// A unit icosphere: the icosahedron with each triangle split in four `levels` times, vertices
/// shared (watertight), 20 * 4^levels triangles.
Mesh icosphere(int levels) {
    Mesh m;
    const float p = (1.0f + std::sqrt(5.0f)) / 2.0f;
    const glm::vec3 base[12] = {{-1, p, 0},  {1, p, 0},  {-1, -p, 0}, {1, -p, 0}, {0, -1, p},  {0, 1, p},
                                {0, -1, -p}, {0, 1, -p}, {p, 0, -1},  {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
    for (const auto& v : base)
        m.vertices.push_back(glm::normalize(v));
    m.indices = {0, 11, 5,  0, 5,  1, 0, 1, 7, 0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                 4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3,  9,  4, 3,  4,  2, 3, 2, 6, 3,
                 6, 8,  3,  8, 9,  4, 9, 5, 2, 4, 11, 6,  2, 10, 8,  6, 7, 9, 8, 1};
    for (int level = 0; level < levels; ++level) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
        const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
            const auto key = std::minmax(a, b);
            const auto [it, inserted] =
                midpoints.try_emplace(key, static_cast<std::uint32_t>(m.vertices.size()));
            if (inserted) m.vertices.push_back(glm::normalize(m.vertices[a] + m.vertices[b]));
            return it->second;
        };
        std::vector<std::uint32_t> next;
        for (std::size_t t = 0; t < m.indices.size(); t += 3) {
            const std::uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
            const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        m.indices = std::move(next);
    }
    return m;
}

/// The icosphere with every vertex moved radially by a smooth bump: watertight, not convex.
Mesh bumpySphere(int levels) {
    Mesh m = icosphere(levels);
    for (auto& v : m.vertices) {
        const float bump =
            0.12f * std::sin(5.0f * v.x + 1.0f) * std::sin(4.0f * v.y + 2.0f) * std::sin(6.0f * v.z + 0.5f);
        v *= 1.0f + bump;
    }
    return m;
}

// =============================================================================================
// Brute force: raycastBarycentric on every triangle, the nearest wins, the lower index on a tie.

struct BruteHit {
    TriangleHit hit;
    std::uint32_t triangle;
};

/// Brute force over all triangles, in index order. A bounding-sphere filter with a wide margin
/// for float rounding skips triangles whose sphere the ray's line passes far from: first for
/// fixed chunks of 64 consecutive triangles, then per triangle. Every other triangle is tested
/// exactly. (Nothing is shared with the BVH: no boxes, no slab test, no build, no ordering.)
class BruteForce {
public:
    explicit BruteForce(const Mesh& mesh) {
        for (std::size_t i = 0; i < mesh.triangleCount(); ++i) {
            const Triangle t = mesh.triangle(i);
            triangles_.push_back(t);
            const glm::vec3 c = (t.a + t.b + t.c) / 3.0f;
            const float r = std::max({glm::length(t.a - c), glm::length(t.b - c), glm::length(t.c - c)});
            spheres_.push_back({c, r * 1.01f + 1e-6f});
        }
        for (std::size_t first = 0; first < spheres_.size(); first += kChunk) {
            const std::size_t last = std::min(spheres_.size(), first + kChunk);
            glm::dvec3 centre(0.0);
            for (std::size_t i = first; i < last; ++i)
                centre += toD(spheres_[i].center);
            centre /= static_cast<double>(last - first);
            double radius = 0.0;
            for (std::size_t i = first; i < last; ++i)
                radius = std::max(radius, glm::length(toD(spheres_[i].center) - centre) + spheres_[i].radius);
            chunks_.push_back({glm::vec3(centre), static_cast<float>(radius * 1.01 + 1e-6)});
        }
    }

    std::optional<BruteHit> nearest(const Ray& ray, float tMax) const {
        std::optional<BruteHit> best;
        const bool finiteRay = isFinite(ray.origin) && isFinite(ray.dir);
        for (std::size_t chunk = 0; chunk < chunks_.size(); ++chunk) {
            if (finiteRay && farFrom(ray, chunks_[chunk])) continue;
            const std::size_t first = chunk * kChunk, last = std::min(triangles_.size(), first + kChunk);
            for (std::size_t i = first; i < last; ++i) {
                if (finiteRay && farFrom(ray, spheres_[i])) continue;
                const auto hit = raycastBarycentric(ray, triangles_[i], tMax);
                if (hit && (!best || hit->t < best->hit.t))
                    best = BruteHit{*hit, static_cast<std::uint32_t>(i)};
            }
        }
        return best;
    }

private:
    static constexpr std::size_t kChunk = 64;

    /// Is the sphere's centre farther from the ray's line than its radius (with a slack of
    /// 1e-4 |centre - origin|, far beyond float rounding)?
    static bool farFrom(const Ray& ray, const Sphere& s) {
        const glm::dvec3 w = toD(s.center) - toD(ray.origin), d = toD(ray.dir);
        const double b = glm::dot(w, d);
        const double distSq = glm::dot(w, w) - b * b / glm::dot(d, d);
        const double reach = static_cast<double>(s.radius) + 1e-4 * glm::length(w);
        return distSq > reach * reach;
    }

    std::vector<Triangle> triangles_;
    std::vector<Sphere> spheres_;
    std::vector<Sphere> chunks_;
};

std::string str(const std::optional<MeshHit>& h) {
    if (!h) return "no hit";
    return "MeshHit{t " + str(h->t) + ", point " + str(h->point) + ", normal " + str(h->normal) +
           ", triangle " + std::to_string(h->triangle) + ", u " + str(h->u) + ", v " + str(h->v) + "}";
}
std::string str(const std::optional<BruteHit>& h) {
    if (!h) return "no hit";
    return "brute{t " + str(h->hit.t) + ", triangle " + std::to_string(h->triangle) + "}";
}

/// A mesh hit must be a well-formed surface hit whose point is also the barycentric point.
::testing::AssertionResult isWellFormedMeshHit(const MeshHit& h, const Ray& ray, float tMax,
                                               const Mesh& mesh) {
    auto r = isWellFormedSurfaceHit(RayHit{h.t, h.point, h.normal}, ray, tMax);
    if (!r) return r << " (" << str(std::optional<MeshHit>(h)) << ")";
    if (h.triangle >= mesh.triangleCount())
        return ::testing::AssertionFailure() << "triangle index out of range: " << h.triangle;
    if (!(h.u >= 0.0f && h.v >= 0.0f && h.u + h.v <= 1.0f + 1e-5f))
        return ::testing::AssertionFailure()
               << "barycentrics out of range in " << str(std::optional<MeshHit>(h));
    const Triangle t = mesh.triangle(h.triangle);
    const glm::vec3 p = t.a + h.u * (t.b - t.a) + h.v * (t.c - t.a);
    const double scale = 1.0 + glm::length(toD(t.a)) + glm::length(toD(ray.origin));
    return near(p, h.point, 1e-5 * scale);
}

// =============================================================================================
// Scenarios: the unit cube

TEST(MeshBvh, UnitCubeIsHitFromEachOfItsSixSides) {
    const Mesh cube = unitCube();
    const MeshBvh bvh = cube.bvh();
    for (int axis = 0; axis < 3; ++axis) {
        for (const float side : {-1.0f, 1.0f}) {
            // From 2 units outside the face, straight at the point (0.3, 0.6) of the face.
            glm::vec3 origin(0.3f, 0.6f, 0.3f);
            origin[(axis + 1) % 3] = 0.6f;
            origin[axis] = side < 0.0f ? -2.0f : 3.0f;
            glm::vec3 dir(0.0f);
            dir[axis] = -side;
            const Ray ray{origin, dir};
            SCOPED_TRACE(str(ray));
            const auto hit = bvh.raycast(ray);
            ASSERT_TRUE(hit);
            EXPECT_TRUE(isWellFormedMeshHit(*hit, ray, kInf, cube));
            EXPECT_FLOAT_EQ(hit->t, 2.0f);
            glm::vec3 normal(0.0f);
            normal[axis] = side;
            EXPECT_TRUE(near(hit->normal, normal, 1e-6));
            // Faces are listed -x, +x, -y, +y, -z, +z, two triangles each.
            EXPECT_EQ(hit->triangle / 2, static_cast<std::uint32_t>(2 * axis + (side > 0.0f ? 1 : 0)));
        }
    }
}

TEST(MeshBvh, RayStartingInsideTheCubeHitsTheFarWallWithTheNormalFacingTheOrigin) {
    const Mesh cube = unitCube();
    const MeshBvh bvh = cube.bvh();
    const Ray ray{{0.25f, 0.4f, 0.7f}, {1.0f, 0.0f, 0.0f}};
    const auto hit = bvh.raycast(ray);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(isWellFormedMeshHit(*hit, ray, kInf, cube));
    EXPECT_FLOAT_EQ(hit->t, 0.75f);
    EXPECT_TRUE(near(hit->normal, {-1.0f, 0.0f, 0.0f}, 1e-6)) << "a surface, not a solid: faces the origin";
    EXPECT_EQ(hit->triangle / 2, 1u);
}

TEST(MeshBvh, RayStartingOnAFaceHitsItAtZero) {
    const Mesh cube = unitCube();
    const Ray ray{{0.25f, 0.4f, 1.0f}, {0.0f, 0.0f, -1.0f}};
    const auto hit = cube.bvh().raycast(ray);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, 0.0f);
    EXPECT_EQ(hit->triangle / 2, 5u);
    EXPECT_TRUE(near(hit->normal, {0.0f, 0.0f, 1.0f}, 1e-6));
}

TEST(MeshBvh, RayPointingAwayFromTheCubeMisses) {
    const Ray ray{{-1.0f, 0.5f, 0.5f}, {-1.0f, 0.0f, 0.0f}};
    EXPECT_FALSE(unitCube().bvh().raycast(ray));
    EXPECT_TRUE(unitCube().bvh().raycastAll(ray).empty());
}

TEST(MeshBvh, RaycastAllReturnsBothCrossingsOfTheCubeSortedByT) {
    const Mesh cube = unitCube();
    const Ray ray{{-1.0f, 0.3f, 0.6f}, {1.0f, 0.0f, 0.0f}};
    const auto hits = cube.bvh().raycastAll(ray);
    ASSERT_EQ(hits.size(), 2u);
    EXPECT_FLOAT_EQ(hits[0].t, 1.0f);
    EXPECT_FLOAT_EQ(hits[1].t, 2.0f);
    EXPECT_EQ(hits[0].triangle / 2, 0u);
    EXPECT_EQ(hits[1].triangle / 2, 1u);
    EXPECT_TRUE(near(hits[0].normal, {-1.0f, 0.0f, 0.0f}, 1e-6));
    EXPECT_TRUE(near(hits[1].normal, {-1.0f, 0.0f, 0.0f}, 1e-6)) << "both normals face the origin";
}

TEST(MeshBvh, TMaxCutsOffFartherHitsAndTouchingTMaxCounts) {
    const MeshBvh bvh = unitCube().bvh();
    const Ray ray{{-1.0f, 0.3f, 0.6f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_EQ(bvh.raycastAll(ray, 1.5f).size(), 1u);
    EXPECT_TRUE(bvh.raycastAll(ray, 0.5f).empty());
    EXPECT_FALSE(bvh.raycast(ray, 0.5f));
    ASSERT_TRUE(bvh.raycast(ray, 1.0f));
    EXPECT_EQ(bvh.raycast(ray, 1.0f)->t, 1.0f);
    EXPECT_EQ(bvh.raycastAll(ray, 2.0f).size(), 2u);
    EXPECT_FALSE(bvh.raycast(ray, 0.0f));
}

TEST(MeshBvh, NonUnitDirectionScalesT) {
    const MeshBvh bvh = unitCube().bvh();
    for (const float scale : {0.25f, 1.0f, 4.0f, 1000.0f}) {
        const Ray ray{{-1.0f, 0.3f, 0.6f}, {scale, 0.0f, 0.0f}};
        const auto hit = bvh.raycast(ray);
        ASSERT_TRUE(hit) << scale;
        EXPECT_FLOAT_EQ(hit->t, 1.0f / scale);
        EXPECT_TRUE(near(hit->point, {0.0f, 0.3f, 0.6f}, 1e-6));
        const auto all = bvh.raycastAll(ray);
        ASSERT_EQ(all.size(), 2u);
        EXPECT_FLOAT_EQ(all[1].t, 2.0f / scale);
    }
}

TEST(MeshBvh, RaysThroughTheCubesEdgesAndCornersHit) {
    const Mesh cube = unitCube();
    const MeshBvh bvh = cube.bvh();
    struct Case {
        Ray ray;
        float t;
    };
    const Case cases[] = {
        {{{-1.0f, -1.0f, 0.3f}, {1.0f, 1.0f, 0.0f}}, 1.0f},  // at the edge x = y = 0
        {{{2.0f, 0.5f, 2.0f}, {-1.0f, 0.0f, -1.0f}}, 1.0f},  // at the edge x = z = 1
        {{{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}}, 1.0f}, // at the corner (0, 0, 0)
        {{{2.0f, 3.0f, -1.0f}, {-1.0f, -2.0f, 1.0f}}, 1.0f}, // at the corner (1, 1, 0)
        {{{0.5f, 0.5f, -2.0f}, {0.0f, 0.0f, 1.0f}}, 2.0f},   // the diagonal shared by -z's triangles
        {{{-1.0f, 0.25f, 0.25f}, {1.0f, 0.0f, 0.0f}}, 1.0f}, // the diagonal of the -x face
        {{{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}}, 1.0f},    // from inside, at the corner (1, 1, 1)
        {{{0.5f, 0.5f, 0.5f}, {0.0f, 0.0f, -1.0f}}, 0.5f},   // from inside, the -z diagonal
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(str(c.ray));
        const auto hit = bvh.raycast(c.ray);
        ASSERT_TRUE(hit) << "slipped through";
        EXPECT_TRUE(isWellFormedMeshHit(*hit, c.ray, kInf, cube));
        EXPECT_FLOAT_EQ(hit->t, c.t);
    }
}

TEST(MeshBvh, TiesOnASharedEdgeReturnTheLowerTriangleIndex) {
    // The unit square as two triangles sharing the diagonal (1, 0) - (0, 1), in both orders.
    const std::vector<glm::vec3> vertices{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const std::vector<std::uint32_t> orders[] = {{0, 1, 3, 1, 2, 3}, {1, 2, 3, 0, 1, 3}};
    const Ray ray{{0.5f, 0.5f, 2.0f}, {0.0f, 0.0f, -1.0f}};
    for (const auto& indices : orders) {
        const MeshBvh bvh = MeshBvh::build(vertices, indices);
        const auto all = bvh.raycastAll(ray);
        ASSERT_EQ(all.size(), 2u) << "both triangles are hit at the edge";
        ASSERT_EQ(all[0].t, all[1].t);
        EXPECT_EQ(all[0].triangle, 0u);
        EXPECT_EQ(all[1].triangle, 1u);
        const auto hit = bvh.raycast(ray);
        ASSERT_TRUE(hit);
        EXPECT_EQ(hit->triangle, 0u);
        EXPECT_EQ(hit->t, 2.0f);
    }
}

TEST(MeshBvh, DuplicateNeedlesFarFromTheOriginTieToTheLowestIndex) {
    // Found by fuzz_obj: five copies of a needle (1 wide at one end, 875 long) and a ray from 600
    // away aimed at its long edge. The float test accepted the ray with a hit point 1.8 units off
    // the needle, outside its box, so the traversal culled the box of triangles 0 and 1 and
    // answered triangle 2. The ray in fact passes 3e-5 outside that edge: a miss for all five.
    const std::vector<glm::vec3> vertices{{1, 1, 0}, {0, 1, 0}, {875, 0, -0.5f}};
    const std::vector<std::uint32_t> indices{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    const MeshBvh bvh = MeshBvh::build(vertices, indices);
    const glm::vec3 origin{-202.46225f, 429.64978f, -418.436493f};
    EXPECT_FALSE(bvh.raycast({origin, {640.46228f, -429.14978f, 418.186493f}}));
    // The same ray aimed inside the needle (weights 0.2, 0.3, 0.5) hits all five at one t, and
    // the tie goes to the lowest index, its point on the needle.
    const glm::vec3 inside = 0.2f * vertices[0] + 0.3f * vertices[1] + 0.5f * vertices[2];
    const Ray ray{origin, inside - origin};
    const auto hit = bvh.raycast(ray);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->triangle, 0u);
    EXPECT_NEAR(hit->t, 1.0f, 1e-6f);
    EXPECT_TRUE(near(hit->point, inside, 1e-3f)) << str(hit->point);
    const auto all = bvh.raycastAll(ray);
    ASSERT_EQ(all.size(), 5u);
    for (std::uint32_t i = 0; i < 5; ++i) {
        EXPECT_EQ(all[i].triangle, i);
        EXPECT_EQ(all[i].t, hit->t);
    }
}

// =============================================================================================
// Scenarios: watertight meshes never let a ray through a shared edge or vertex

TEST(MeshBvh, RaysThroughEveryGridVertexAndEdgeHit) {
    // Integer coordinates: the targets lie exactly on the edges and vertices, and the
    // axis-aligned rays' origins lie exactly on the planes of the tree's boxes.
    const std::uint32_t n = 24;
    const Mesh g = grid(n);
    const MeshBvh bvh = g.bvh();
    const glm::vec3 slants[] = {
        {0, 0, -1}, {0.5f, 0, -1}, {0, -0.25f, -1}, {0.375f, 0.625f, -1}, {-3, 1, -1}};
    int rays = 0;
    for (std::uint32_t y2 = 0; y2 <= 2 * n; ++y2) {
        for (std::uint32_t x2 = 0; x2 <= 2 * n; ++x2) {
            if (x2 % 2 == 1 && y2 % 2 == 1) continue; // square centres: below
            const glm::vec3 target(static_cast<float>(x2) * 0.5f, static_cast<float>(y2) * 0.5f, 0.0f);
            for (const glm::vec3& slant : slants) {
                for (const float side : {1.0f, -1.0f}) {
                    const glm::vec3 dir(slant.x, slant.y, slant.z * side);
                    const Ray ray{target - 2.0f * dir, dir};
                    const auto hit = bvh.raycast(ray);
                    ++rays;
                    ASSERT_TRUE(hit) << "slipped through at " << str(target) << ", " << str(ray);
                    EXPECT_EQ(hit->t, 2.0f);
                }
            }
        }
    }
    // Square centres lie on the shared diagonals.
    for (std::uint32_t y = 0; y < n; ++y) {
        for (std::uint32_t x = 0; x < n; ++x) {
            const Ray ray{{static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f, 1.0f}, {0, 0, -1}};
            ASSERT_TRUE(bvh.raycast(ray)) << str(ray);
        }
    }
    EXPECT_GT(rays, 18000);
}

TEST(MeshBvh, RaysThroughAnIcospheresVerticesAndEdgeMidpointsAlwaysHit) {
    const Mesh sphere = icosphere(3); // 1280 triangles
    const MeshBvh bvh = sphere.bvh();
    std::vector<glm::vec3> targets(sphere.vertices);
    for (std::size_t t = 0; t < sphere.triangleCount(); ++t) {
        const Triangle tri = sphere.triangle(t);
        targets.push_back((tri.a + tri.b) * 0.5f);
    }
    Random rng(kSeed + 200u);
    for (const glm::vec3& target : targets) {
        // From outside, within 45 degrees of the outward normal; and from the centre.
        const glm::dvec3 out = glm::normalize(toD(target));
        glm::dvec3 offset;
        do {
            offset = rng.unitVector();
        } while (glm::dot(offset, out) < std::sqrt(0.5));
        const glm::vec3 origin = glm::vec3(toD(target) + 3.0 * offset);
        for (const Ray& ray : {Ray{origin, target - origin}, Ray{{0, 0, 0}, target}}) {
            const auto hit = bvh.raycast(ray);
            ASSERT_TRUE(hit) << "slipped through at " << str(target) << ", " << str(ray);
            EXPECT_TRUE(isWellFormedMeshHit(*hit, ray, kInf, sphere));
            EXPECT_NEAR(hit->t, 1.0f, 1e-3f);
        }
    }
}

TEST(MeshBvh, RaycastAllReturnsTwoCrossingsOfAClosedConvexMeshSortedByT) {
    const Mesh sphere = icosphere(4);
    const MeshBvh bvh = sphere.bvh();
    Random rng(kSeed + 201u);
    for (int i = 0; i < 2000; ++i) {
        const glm::vec3 origin = glm::vec3(rng.unitVector() * 3.0);
        const glm::vec3 aim = glm::vec3(rng.inBall(0.8));
        const Ray ray{origin, rng.scaledDir(glm::normalize(toD(aim - origin)))};
        const auto all = bvh.raycastAll(ray);
        // Generic rays cross two distinct triangles; a shared edge could list a crossing twice.
        ASSERT_GE(all.size(), 2u) << "seed " << kSeed + 201u << ", case " << i << ": " << str(ray);
        EXPECT_TRUE(std::is_sorted(all.begin(), all.end(),
                                   [](const MeshHit& a, const MeshHit& b) { return a.t < b.t; }));
        EXPECT_LT(all.front().t, all.back().t);
        const auto nearest = bvh.raycast(ray);
        ASSERT_TRUE(nearest);
        EXPECT_EQ(nearest->t, all.front().t);
        EXPECT_EQ(nearest->triangle, all.front().triangle);
        for (const MeshHit& h : all)
            EXPECT_TRUE(isWellFormedMeshHit(h, ray, kInf, sphere));
    }
}

// =============================================================================================
// Scenarios: degenerate and malformed input, invalid rays, bounds

TEST(MeshBvh, DegenerateTrianglesAreSkipped) {
    const float nan = kNaN;
    const std::vector<glm::vec3> vertices{{0, 0, 0}, {1, 0, 0},   {0, 1, 0},    {2, 0, 0},
                                          {3, 0, 0}, {nan, 0, 0}, {0, kInf, 0}, {5, 5, 5}};
    const std::vector<std::uint32_t> indices{
        0, 3, 4, // collinear: zero area
        1, 1, 2, // a repeated vertex
        0, 1, 5, // a NaN vertex
        0, 1, 6, // an infinite vertex
        0, 1, 2, // the only real triangle: number 4
    };
    const MeshBvh bvh = MeshBvh::build(vertices, indices);
    const Ray down{{0.25f, 0.25f, 1.0f}, {0, 0, -1}};
    const auto hit = bvh.raycast(down);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->triangle, 4u);
    EXPECT_EQ(bvh.raycastAll(down).size(), 1u);
    // A ray along the collinear triangle's line, and one through where the NaN one would be.
    EXPECT_FALSE(bvh.raycast(Ray{{2.5f, 0.0f, 1.0f}, {0, 0, -1}}));
    EXPECT_FALSE(bvh.raycast(Ray{{2.5f, -1.0f, 0.0f}, {0, 1, 0}}));
    // Bounds hold only the real triangle (not the unused (5, 5, 5), nor the degenerate ones).
    EXPECT_EQ(bvh.bounds().min, glm::vec3(0, 0, 0));
    EXPECT_EQ(bvh.bounds().max, glm::vec3(1, 1, 0));
}

TEST(MeshBvh, OnlyDegenerateTrianglesMakeAnEmptyTree) {
    const std::vector<glm::vec3> vertices{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
    const std::vector<std::uint32_t> indices{0, 1, 2, 2, 2, 2};
    const MeshBvh bvh = MeshBvh::build(vertices, indices);
    EXPECT_FALSE(bvh.raycast(Ray{{-1, -1, -1}, {1, 1, 1}}));
    EXPECT_FALSE(isValid(bvh.bounds()));
}

TEST(MeshBvh, AnIndexOutOfRangeIsRejectedWithAMessageNamingIt) {
    std::vector<glm::vec3> vertices(12, glm::vec3(0.0f));
    for (std::size_t i = 0; i < vertices.size(); ++i)
        vertices[i] = glm::vec3(static_cast<float>(i), static_cast<float>(i * i % 5), 0.0f);
    std::vector<std::uint32_t> indices{0, 1, 2, 3, 4, 5, 6, 40, 8};
    std::string error;
    EXPECT_FALSE(MeshBvh::tryBuild(vertices, indices, error));
    EXPECT_EQ(error, "index 7 of triangle 2 is 40, but there are 12 vertices");
    try {
        (void)MeshBvh::build(vertices, indices);
        ADD_FAILURE() << "build did not throw";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), error);
    }
    indices[7] = 12; // one past the end
    EXPECT_FALSE(MeshBvh::tryBuild(vertices, indices, error));
    EXPECT_EQ(error, "index 7 of triangle 2 is 12, but there are 12 vertices");
    indices[7] = 11;
    EXPECT_TRUE(MeshBvh::tryBuild(vertices, indices, error));
    EXPECT_EQ(error, "") << "cleared on success";
}

TEST(MeshBvh, AnIndexCountThatIsNotAMultipleOfThreeIsRejected) {
    const std::vector<glm::vec3> vertices(12, glm::vec3(0.0f));
    const std::vector<std::uint32_t> indices{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::string error;
    EXPECT_FALSE(MeshBvh::tryBuild(vertices, indices, error));
    EXPECT_EQ(error, "indices count 10 is not a multiple of 3");
    EXPECT_THROW((void)MeshBvh::build(vertices, indices), std::invalid_argument);
}

TEST(MeshBvh, AnEmptyMeshIsValidNeverHitAndHasEmptyBounds) {
    const MeshBvh bvh = MeshBvh::build({}, {});
    const Ray ray{{-1, 0, 0}, {1, 0, 0}};
    EXPECT_FALSE(bvh.raycast(ray));
    EXPECT_TRUE(bvh.raycastAll(ray).empty());
    EXPECT_FALSE(isValid(bvh.bounds()));
    EXPECT_GT(bvh.bounds().min.x, bvh.bounds().max.x);
    EXPECT_FALSE(raycast(ray, bvh.bounds())) << "no ray hits the empty bounds";
    // Vertices without indices are an empty mesh too.
    const std::vector<glm::vec3> vertices{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    EXPECT_FALSE(MeshBvh::build(vertices, {}).raycast(ray));
}

TEST(MeshBvh, InvalidRaysAndTMaxMissWithoutNaN) {
    const MeshBvh bvh = unitCube().bvh();
    const glm::vec3 o{-1.0f, 0.3f, 0.6f}, d{1.0f, 0.0f, 0.0f};
    const Ray bad[] = {{{kNaN, 0.3f, 0.6f}, d}, {o, {kNaN, 0, 0}}, {{-kInf, 0.3f, 0.6f}, d},
                       {o, {kInf, 0, 0}},       {o, {0, 0, 0}},    {o, {1e-30f, 0, 0}}};
    for (const Ray& ray : bad) {
        SCOPED_TRACE(str(ray));
        EXPECT_FALSE(bvh.raycast(ray));
        EXPECT_TRUE(bvh.raycastAll(ray).empty());
    }
    for (const float tMax : {-1.0f, kNaN, -kInf}) {
        EXPECT_FALSE(bvh.raycast(Ray{o, d}, tMax));
        EXPECT_TRUE(bvh.raycastAll(Ray{o, d}, tMax).empty());
    }
}

TEST(MeshBvh, BoundsCoverTheMesh) {
    EXPECT_EQ(unitCube().bvh().bounds().min, glm::vec3(0.0f));
    EXPECT_EQ(unitCube().bvh().bounds().max, glm::vec3(1.0f));
    const Mesh sphere = bumpySphere(3);
    glm::vec3 lo(kInf), hi(-kInf);
    for (const auto& v : sphere.vertices) {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
    const Aabb b = sphere.bvh().bounds();
    EXPECT_EQ(b.min, lo);
    EXPECT_EQ(b.max, hi);
}

TEST(MeshBvh, AMeshFarFromTheOriginIsHitExactlyLikeBruteForce) {
    Mesh sphere = bumpySphere(3);
    for (auto& v : sphere.vertices)
        v = v * 0.01f + glm::vec3(1000.0f, -2000.0f, 500.0f);
    const MeshBvh bvh = sphere.bvh();
    const BruteForce brute(sphere);
    Random rng(kSeed + 202u);
    int hits = 0;
    for (int i = 0; i < 5000; ++i) {
        const glm::dvec3 centre(1000.0, -2000.0, 500.0);
        const glm::vec3 origin = glm::vec3(centre + rng.unitVector() * 0.05);
        // Half at random points near the mesh, half exactly at its vertices and edge midpoints.
        const Triangle tri = sphere.triangle(static_cast<std::size_t>(rng.integer(0, 1279)));
        const glm::vec3 aim = rng.chance(0.5)   ? glm::vec3(centre + rng.inBall(0.012))
                              : rng.chance(0.5) ? tri.a
                                                : (tri.a + tri.b) * 0.5f;
        const Ray ray{origin, aim - origin};
        const auto got = bvh.raycast(ray);
        const auto ref = brute.nearest(ray, kInf);
        ASSERT_EQ(got.has_value(), ref.has_value()) << "case " << i << " " << str(ray);
        if (got) {
            ++hits;
            EXPECT_EQ(got->triangle, ref->triangle);
            EXPECT_EQ(got->t, ref->hit.t);
        }
    }
    EXPECT_GT(hits, 1000);
}

TEST(MeshBvh, TrianglesAtTheLimitsOfFloatAreHitToTheBitLikeTheTriangleTest) {
    // The leaves test the triangles the build kept (isValid) with the checks such a triangle
    // always passes skipped: single triangles from subnormal-area specks and needles to huge
    // ones far out, and wild coordinates (infinite, NaN, huge, tiny), against raycastBarycentric.
    const std::uint32_t seed = kSeed + 203u;
    Random rng(seed);
    int valid = 0, invalid = 0, hits = 0;
    for (int i = 0; i < 20000; ++i) {
        Triangle tri{};
        if (rng.chance(0.2)) {
            tri = {{rng.wild(), rng.wild(), rng.wild()},
                   {rng.wild(), rng.wild(), rng.wild()},
                   {rng.wild(), rng.wild(), rng.wild()}};
        } else {
            const glm::dvec3 centre = rng.inBox(1.0) * rng.logUniform(1e-6, 1e6);
            const double size = rng.logUniform(1e-12, 1e12);
            const glm::dvec3 a = rng.unitVector(), b = rng.unitVector();
            // A needle a tenth of the time: the third vertex close to the first edge's line.
            const glm::dvec3 c = rng.chance(0.1)
                                     ? 0.5 * (a + b) + rng.unitVector() * rng.logUniform(1e-7, 1e-3)
                                     : rng.unitVector();
            tri = {glm::vec3(centre + size * a), glm::vec3(centre + size * b), glm::vec3(centre + size * c)};
        }
        (isValid(tri) ? valid : invalid) += 1;
        const Mesh mesh{{tri.a, tri.b, tri.c}, {0, 1, 2}};
        const MeshBvh bvh = mesh.bvh();
        const glm::vec3 aim = rng.chance(0.6)   ? (tri.a + tri.b + tri.c) / 3.0f
                              : rng.chance(0.5) ? tri.b
                                                : (tri.b + tri.c) * 0.5f;
        const double reach = std::max(1e-30, static_cast<double>(glm::length(tri.b - tri.a)));
        const glm::vec3 origin = glm::vec3(toD(aim) + rng.unitVector() * reach * rng.logUniform(0.01, 100.0));
        const Ray ray{origin, aim - origin};
        if (!isFinite(ray.origin) || !isFinite(ray.dir)) continue;
        const auto got = bvh.raycast(ray);
        const auto want = raycastBarycentric(ray, tri);
        ASSERT_EQ(got.has_value(), want.has_value()) << "seed " << seed << " case " << i << ": " << str(ray);
        if (!got) continue;
        ++hits;
        EXPECT_EQ(got->t, want->t) << "case " << i;
        EXPECT_EQ(got->u, want->u) << "case " << i;
        EXPECT_EQ(got->v, want->v) << "case " << i;
        EXPECT_EQ(got->normal, want->normal) << "case " << i;
    }
    EXPECT_GT(valid, 12000);
    EXPECT_GT(invalid, 1000);
    EXPECT_GT(hits, 8000);
}

// =============================================================================================
// Property tests: the BVH against brute force on a bumpy sphere of 20,480 triangles

struct PropertyMesh {
    explicit PropertyMesh(int levels) : mesh(bumpySphere(levels)), bvh(mesh.bvh()), brute(mesh) {}
    Mesh mesh;
    MeshBvh bvh;
    BruteForce brute;
};
const PropertyMesh& propertyMesh() {
    static const PropertyMesh m(5);
    return m;
}

/// Compares the BVH's nearest hit with brute force: same hit or miss, same triangle (brute
/// force also keeps the lowest index on a tie, so even ties must agree), t within 1e-5.
/// `refHit` is set when brute force hits.
std::optional<std::string> compareWithBruteForce(const PropertyMesh& pm, const Ray& ray, float tMax,
                                                 bool& refHit) {
    const auto got = pm.bvh.raycast(ray, tMax);
    const auto ref = pm.brute.nearest(ray, tMax);
    refHit = ref.has_value();
    if (got.has_value() != ref.has_value() ||
        (got && (got->triangle != ref->triangle || !tAgrees(got->t, ref->hit.t, 1e-5)))) {
        return str(ray) + " tMax " + str(tMax) + ": got " + str(got) + ", " + str(ref);
    }
    if (got) {
        if (auto ok = isWellFormedMeshHit(*got, ray, tMax, pm.mesh); !ok)
            return str(ray) + ": " + ok.message();
        if (got->u != ref->hit.u || got->v != ref->hit.v || got->normal != ref->hit.normal)
            return str(ray) + ": barycentrics or normal differ from the triangle test's";
    }
    return std::nullopt;
}

/// A random ray for the property tests (the mesh lies within about 1.2 of the origin) and its
/// tMax: from a sphere around the mesh toward a point near it, from inside, or with zero
/// direction components.
Ray randomPropertyRay(Random& rng, float& tMax) {
    Ray ray{};
    const int kind = rng.integer(0, 9);
    if (kind <= 5) { // from a sphere around the mesh toward a point near it
        const glm::dvec3 origin = rng.unitVector() * rng.uniform(1.3, 4.0);
        const glm::dvec3 aim = rng.inBall(1.2);
        ray = {glm::vec3(origin), rng.scaledDir(glm::normalize(aim - origin))};
    } else if (kind <= 7) { // from inside: hits the far wall
        ray = {glm::vec3(rng.inBall(0.6)), rng.scaledDir(rng.unitVector())};
    } else { // axis-aligned or in a coordinate plane: zero direction components
        glm::vec3 dir = glm::vec3(rng.unitVector());
        dir[rng.integer(0, 2)] = 0.0f;
        if (kind == 9) dir[rng.integer(0, 2)] = 0.0f;
        if (glm::dot(dir, dir) == 0.0f) dir.x = 1.0f;
        ray = {glm::vec3(rng.inBox(1.5)), dir};
    }
    tMax = rng.chance(0.7) ? kInf : rng.uniformF(0.0, 3.0 / glm::length(toD(ray.dir)));
    return ray;
}

void expectRandomRaysAgree(const PropertyMesh& pm, std::uint32_t seed, int cases) {
    Random rng(seed);
    CaseStats stats(seed);
    for (int i = 0; i < cases && stats.failures < CaseStats::kMaxReported; ++i) {
        float tMax = 0.0f;
        const Ray ray = randomPropertyRay(rng, tMax);
        ++stats.compared;
        bool refHit = false;
        if (const auto failure = compareWithBruteForce(pm, ray, tMax, refHit)) stats.fail(i, *failure);
        stats.hits += refHit ? 1 : 0;
    }
    stats.expectMostlyCompared(cases, true);
}

TEST(MeshBvhProperty, RandomRaysAgreeWithBruteForce) {
    const PropertyMesh& pm = propertyMesh();
    ASSERT_EQ(pm.mesh.triangleCount(), 20480u);
    expectRandomRaysAgree(pm, kSeed + 210u, 200000);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr int kMillionOrFewer = 100000; // the sanitizers slow brute force about 20x
#else
constexpr int kMillionOrFewer = 1000000;
#endif

TEST(MeshBvhProperty, AMillionRandomRaysOnASmallerMeshAgreeWithBruteForce) {
    // Millions of rays against brute force in all: this million on 1,280 triangles (where brute
    // force is cheap), 200,000 on 20,480 above, and the edge- and vertex-aimed ones below.
    const PropertyMesh pm(3);
    ASSERT_EQ(pm.mesh.triangleCount(), 1280u);
    expectRandomRaysAgree(pm, kSeed + 211u, kMillionOrFewer);
}

TEST(MeshBvhProperty, RaysAimedAtSharedEdgesAndVerticesNeverSlipThrough) {
    const PropertyMesh& pm = propertyMesh();
    const Mesh& mesh = pm.mesh;
    const std::uint32_t seed = kSeed + 220u;
    Random rng(seed);
    CaseStats stats(seed);
    const int cases = 60000;
    for (int i = 0; i < cases && stats.failures < CaseStats::kMaxReported; ++i) {
        // A vertex, or the midpoint of an edge, of a random triangle.
        const Triangle tri = mesh.triangle(static_cast<std::size_t>(rng.integer(0, 20479)));
        const glm::vec3 target = rng.chance(0.5) ? tri.a : (tri.a + tri.b) * 0.5f;
        Ray ray{};
        if (rng.chance(0.75)) {
            // From outside, within 45 degrees of the local normal, so the ray crosses the
            // surface at the target rather than grazing it.
            const glm::dvec3 normal = glm::normalize(glm::cross(toD(tri.b - tri.a), toD(tri.c - tri.a)));
            glm::dvec3 offset;
            do {
                offset = rng.unitVector();
            } while (glm::dot(offset, normal) < std::sqrt(0.5));
            const glm::vec3 origin = glm::vec3(toD(target) + rng.uniform(0.5, 3.0) * offset);
            ray = {origin, target - origin};
        } else {
            ray = {glm::vec3(rng.inBall(0.05)), target}; // from near the centre, outward
        }
        ++stats.compared;
        const auto hit = pm.bvh.raycast(ray);
        if (!hit) {
            stats.fail(i, "slipped through at " + str(target) + ": " + str(ray));
            continue;
        }
        ++stats.hits;
        bool refHit = false;
        if (const auto failure = compareWithBruteForce(pm, ray, kInf, refHit)) stats.fail(i, *failure);
    }
    stats.expectMostlyCompared(cases);
    EXPECT_EQ(stats.hits, cases);
}

// =============================================================================================
// Property tests: the tree's own triangle test, tree shapes, and the build's fallbacks

/// The hit raycastBarycentric gives, as MeshBvh::raycast reports it for a mesh of this one
/// triangle (no hit when origin + t dir overflows).
std::optional<TriangleHit> expectedSingleHit(const Ray& ray, const Triangle& tri, float tMax) {
    const auto hit = raycastBarycentric(ray, tri, tMax);
    if (hit && !isFinite(ray.origin + hit->t * ray.dir)) return std::nullopt;
    return hit;
}

TEST(MeshBvhProperty, SingleTriangleHitsAreBitIdenticalToRaycastBarycentric) {
    // The tree tests triangles with the ray's shear constants computed once per ray; every
    // value must still be exactly raycastBarycentric's.
    const std::uint32_t seed = kSeed + 230u;
    Random rng(seed);
    CaseStats stats(seed);
    const int cases = 100000;
    for (int i = 0; i < cases && stats.failures < CaseStats::kMaxReported; ++i) {
        const double size = rng.logUniform(1e-3, 1e3);
        const glm::dvec3 centre = rng.chance(0.3) ? rng.inBox(1e4) : rng.inBox(2.0);
        Triangle tri{glm::vec3(centre + rng.inBox(size)), glm::vec3(centre + rng.inBox(size)),
                     glm::vec3(centre + rng.inBox(size))};
        if (rng.chance(0.1))
            tri.c = tri.a + (tri.b - tri.a) * rng.uniformF(0.0, 1.0) + rng.inBoxF(size * 1e-5);
        if (rng.chance(0.03)) tri.b = rng.wildVec();

        // Aim at a vertex, an edge midpoint, a point inside, or anywhere near.
        const double wa = rng.uniform(0.0, 1.0), wb = rng.uniform(0.0, 1.0 - wa);
        const glm::vec3 inside = glm::vec3(toD(tri.a) * (1.0 - wa - wb) + toD(tri.b) * wa + toD(tri.c) * wb);
        const int aim = rng.integer(0, 3);
        const glm::vec3 target = aim == 0   ? tri.a
                                 : aim == 1 ? (tri.a + tri.b) * 0.5f
                                 : aim == 2 ? inside
                                            : glm::vec3(centre + rng.inBox(2.0 * size));
        Ray ray{glm::vec3(toD(target) + rng.unitVector() * rng.logUniform(1e-3, 10.0) * size), {}};
        ray.dir = target - ray.origin;
        switch (rng.integer(0, 9)) {
        case 0: // nearly in the triangle's plane
            ray.dir = (tri.b - tri.a) + glm::cross(tri.b - tri.a, tri.c - tri.a) * rng.uniformF(-1e-6, 1e-6);
            break;
        case 1: // zero direction components
            ray.dir[rng.integer(0, 2)] = 0.0f;
            break;
        case 2:
            ray = {rng.mixedVec(10.0), rng.mixedVec(1.0)};
            break;
        default:
            ray.dir *= static_cast<float>(rng.logUniform(0.01, 100.0));
        }
        const float tMax = rng.chance(0.1) ? rng.wildTMax() : rng.tMax(1.0);

        const std::vector<glm::vec3> vertices{tri.a, tri.b, tri.c};
        const std::vector<std::uint32_t> indices{0, 1, 2};
        const MeshBvh bvh = MeshBvh::build(vertices, indices);
        const auto got = bvh.raycast(ray, tMax);
        const auto ref = expectedSingleHit(ray, tri, tMax);
        ++stats.compared;
        stats.hits += ref.has_value() ? 1 : 0;
        const auto all = bvh.raycastAll(ray, tMax);
        if (got.has_value() != ref.has_value() || all.size() != (ref ? 1u : 0u)) {
            stats.fail(i, str(tri) + ", " + str(ray) + " tMax " + str(tMax) + ": got " + str(got) +
                              ", expected " + str(ref) + " (raycastAll: " + std::to_string(all.size()) +
                              " hits)");
            continue;
        }
        if (!got) continue;
        for (const MeshHit& h : {*got, all.front()}) {
            if (h.t != ref->t || h.u != ref->u || h.v != ref->v || h.normal != ref->normal || h.triangle != 0)
                stats.fail(i, str(tri) + ", " + str(ray) + ": got " + str(got) + ", expected " + str(ref));
        }
    }
    stats.expectMostlyCompared(cases);
    // About 21%: a ray aimed at a vertex or an edge midpoint passes it within the rounding of its
    // float origin and direction, on either side.
    EXPECT_GT(stats.hits, cases / 5);
}

/// Every triangle hit with raycastBarycentric, sorted by t then index: raycastAll's contract.
std::vector<BruteHit> bruteAll(const Mesh& mesh, const Ray& ray, float tMax) {
    std::vector<BruteHit> hits;
    for (std::size_t i = 0; i < mesh.triangleCount(); ++i) {
        const auto hit = raycastBarycentric(ray, mesh.triangle(i), tMax);
        if (hit && isFinite(ray.origin + hit->t * ray.dir))
            hits.push_back({*hit, static_cast<std::uint32_t>(i)});
    }
    std::sort(hits.begin(), hits.end(), [](const BruteHit& a, const BruteHit& b) {
        return a.hit.t < b.hit.t || (a.hit.t == b.hit.t && a.triangle < b.triangle);
    });
    return hits;
}

/// Checks raycast and raycastAll for one ray against loops over all the mesh's triangles.
void expectRayAgreesWithLoops(const Mesh& mesh, const MeshBvh& bvh, const Ray& ray, float tMax,
                              const std::string& what) {
    SCOPED_TRACE(what + ": " + str(ray) + " tMax " + str(tMax));
    const auto all = bruteAll(mesh, ray, tMax);
    const auto got = bvh.raycast(ray, tMax);
    ASSERT_EQ(got.has_value(), !all.empty());
    if (got) {
        ASSERT_EQ(got->triangle, all.front().triangle);
        ASSERT_EQ(got->t, all.front().hit.t);
    }
    const auto gotAll = bvh.raycastAll(ray, tMax);
    ASSERT_EQ(gotAll.size(), all.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        ASSERT_EQ(gotAll[k].triangle, all[k].triangle);
        ASSERT_EQ(gotAll[k].t, all[k].hit.t);
    }
}

/// Checks raycast, raycastAll and forEachTriangleOverlapping on `mesh` against loops over all its
/// triangles, for `rays` random rays and 20 boxes around `centre` (within `size`).
void expectAgreesWithLoops(const Mesh& mesh, const MeshBvh& bvh, Random& rng, int rays,
                           const glm::dvec3& centre, double size, const std::string& what) {
    for (int r = 0; r < rays; ++r) {
        const glm::dvec3 origin = centre + rng.unitVector() * size * rng.uniform(0.2, 2.0);
        glm::dvec3 aim = centre + rng.inBox(size);
        if (rng.chance(0.5)) { // at a vertex or an edge midpoint
            const Triangle tri = mesh.triangle(
                static_cast<std::size_t>(rng.integer(0, static_cast<int>(mesh.triangleCount()) - 1)));
            aim = toD(rng.chance(0.5) ? tri.b : (tri.b + tri.c) * 0.5f);
        }
        const Ray ray{glm::vec3(origin), glm::vec3(aim - origin)};
        expectRayAgreesWithLoops(mesh, bvh, ray, rng.tMax(1.0), what + ", ray " + std::to_string(r));
        if (::testing::Test::HasFatalFailure()) return;
    }
    for (int b = 0; b < 20; ++b) {
        const glm::vec3 lo(centre + rng.inBox(size));
        const glm::vec3 hi = lo + glm::vec3(rng.uniformF(0.0, 0.6 * size), rng.uniformF(0.0, 0.6 * size),
                                            rng.uniformF(0.0, 0.6 * size));
        const Aabb box{lo, hi};
        std::vector<std::uint32_t> expected, got;
        for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
            const Triangle tri = mesh.triangle(t);
            if (!isValid(tri)) continue;
            const glm::vec3 tlo = glm::min(tri.a, glm::min(tri.b, tri.c));
            const glm::vec3 thi = glm::max(tri.a, glm::max(tri.b, tri.c));
            if (glm::all(glm::lessThanEqual(tlo, box.max)) && glm::all(glm::greaterThanEqual(thi, box.min)))
                expected.push_back(static_cast<std::uint32_t>(t));
        }
        bvh.forEachTriangleOverlapping(box, [&](std::uint32_t id, const Triangle&) { got.push_back(id); });
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, expected) << what << ", box " << b;
    }
}

/// A soup of `n` random triangles in [-1, 1]^3, some sharing vertices.
Mesh randomSoup(Random& rng, std::size_t n) {
    Mesh m;
    for (std::size_t t = 0; t < n; ++t) {
        const glm::dvec3 c = rng.inBox(1.0);
        const double size = rng.logUniform(0.01, 0.8);
        for (int k = 0; k < 3; ++k) {
            if (!m.vertices.empty() && rng.chance(0.2)) {
                m.indices.push_back(
                    static_cast<std::uint32_t>(rng.integer(0, static_cast<int>(m.vertices.size()) - 1)));
            } else {
                m.indices.push_back(static_cast<std::uint32_t>(m.vertices.size()));
                m.vertices.emplace_back(c + rng.inBox(size));
            }
        }
    }
    return m;
}

TEST(MeshBvhProperty, MeshesOfEverySizeFromOneTo40TrianglesAgreeWithLoops) {
    // Small trees: a single leaf (up to 4 triangles), then nodes with some slots empty.
    const std::uint32_t seed = kSeed + 240u;
    Random rng(seed);
    for (std::size_t n = 1; n <= 40; ++n) {
        for (int copy = 0; copy < 5; ++copy) {
            const Mesh mesh = randomSoup(rng, n);
            const MeshBvh bvh = mesh.bvh();
            const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(n) +
                                     " triangles, copy " + std::to_string(copy);
            std::size_t kept = 0; // shared vertices can make a degenerate triangle
            for (std::size_t t = 0; t < n; ++t)
                kept += isValid(mesh.triangle(t)) ? 1 : 0;
            ASSERT_EQ(bvh.triangleCount(), kept) << what;
            if (kept == 0) continue;
            // The read-back binary tree: a full binary tree (2 leaves - 1 nodes) whose root box is
            // the mesh's bounds; up to 4 triangles (one block) always make a single leaf, and no
            // leaf holds more than kMaxLeafTriangles.
            const int depth = bvh.depth();
            const auto boxes = bvh.nodeBoxes(depth);
            constexpr std::size_t kMax = MeshBvh::kMaxLeafTriangles;
            EXPECT_EQ(boxes.size() % 2, 1u) << what;
            EXPECT_GE(boxes.size(), 2 * ((kept + kMax - 1) / kMax) - 1) << what;
            EXPECT_EQ(bvh.nodeBoxes(depth + 5).size(), boxes.size()) << what;
            EXPECT_EQ(boxes.front().min, bvh.bounds().min) << what;
            EXPECT_EQ(boxes.front().max, bvh.bounds().max) << what;
            if (kept <= 4) {
                EXPECT_EQ(depth, 1) << what;
            }
            if (kept > kMax) {
                EXPECT_GT(depth, 1) << what;
            }
            expectAgreesWithLoops(mesh, bvh, rng, 60, glm::dvec3(0.0), 1.0, what);
            if (HasFatalFailure()) return;
        }
    }
}

TEST(MeshBvhProperty, TrianglesSharingOneCentroidAreSplitAtTheMedianAndStillFound) {
    // Every triangle's bounds are the cube [-s, s]^3, so all centroids are the origin: the SAH
    // has nothing to bin and the build splits at the median down to leaves of at most
    // kMaxLeafTriangles (32) triangles over at most kMaxLeafVertices (32) distinct vertices:
    // 300, 150, 75, 37 or 38, 18 or 19 (each triangle has vertices of its own: 54 or more), then
    // leaves of 9 or 10 (30 vertices at most).
    const std::uint32_t seed = kSeed + 250u;
    Random rng(seed);
    Mesh mesh;
    for (std::uint32_t t = 0; t < 300; ++t) {
        const float s = static_cast<float>(rng.logUniform(0.1, 2.0));
        const glm::vec3 c(rng.uniformF(-1.0, 1.0) * s, rng.uniformF(-1.0, 1.0) * s, s);
        mesh.vertices.insert(mesh.vertices.end(), {glm::vec3(-s, -s, -s), glm::vec3(s, s, -s), c});
        mesh.add(3 * t, 3 * t + 1, 3 * t + 2);
    }
    const MeshBvh bvh = mesh.bvh();
    static_assert(MeshBvh::kMaxLeafTriangles == 32 && MeshBvh::kMaxLeafVertices == 32,
                  "the levels below assume leaves of up to 32 triangles and 32 vertices");
    EXPECT_EQ(bvh.depth(), 6);
    expectAgreesWithLoops(mesh, bvh, rng, 2000, glm::dvec3(0.0), 2.0, "seed " + std::to_string(seed));
}

TEST(MeshBvhProperty, ATriangleSoupOfAGridTakesNoMoreMemoryThanTheGridAndIsSearchedExactly) {
    // A leaf keeps each distinct vertex once, vertices being the same when their coordinates are
    // bit for bit, whatever their indices: a grid given as a soup (every triangle with copies of
    // its own three vertices, as an STL file gives it) makes the same tree in the same memory as
    // the indexed grid. Some copies of the grid lines' zero coordinates are -0, a vertex of its
    // own: the soup with signed zeros takes more memory, and every version is searched exactly.
    const std::uint32_t seed = kSeed + 257u;
    Random rng(seed);
    // grid(40), 3,200 triangles, moved by -20 (exactly): the lines x = 0 and y = 0 cross its middle.
    Mesh indexed = grid(40);
    for (glm::vec3& v : indexed.vertices)
        v -= glm::vec3(20.0f, 20.0f, 0.0f);
    Mesh soup, signedSoup;
    for (std::size_t t = 0; t < indexed.triangleCount(); ++t) {
        const Triangle tri = indexed.triangle(t);
        const auto base = static_cast<std::uint32_t>(soup.vertices.size());
        soup.vertices.insert(soup.vertices.end(), {tri.a, tri.b, tri.c});
        soup.add(base, base + 1, base + 2);
        Triangle s = tri;
        if (t % 2 == 1)
            for (glm::vec3* p : {&s.a, &s.b, &s.c})
                for (int axis = 0; axis < 3; ++axis)
                    if ((*p)[axis] == 0.0f) (*p)[axis] = -0.0f;
        signedSoup.vertices.insert(signedSoup.vertices.end(), {s.a, s.b, s.c});
        signedSoup.add(base, base + 1, base + 2);
    }
    const MeshBvh gridBvh = indexed.bvh(), soupBvh = soup.bvh(), signedBvh = signedSoup.bvh();
    EXPECT_EQ(soupBvh.memoryBytes(), gridBvh.memoryBytes());
    EXPECT_GT(signedBvh.memoryBytes(), gridBvh.memoryBytes());
    EXPECT_LT(gridBvh.memoryBytes(), 40 * indexed.triangleCount()); // about 30 bytes a triangle
    expectAgreesWithLoops(indexed, gridBvh, rng, 1500, glm::dvec3(0.0), 20.0,
                          "grid, seed " + std::to_string(seed));
    expectAgreesWithLoops(soup, soupBvh, rng, 1500, glm::dvec3(0.0), 20.0,
                          "soup, seed " + std::to_string(seed));
    expectAgreesWithLoops(signedSoup, signedBvh, rng, 1500, glm::dvec3(0.0), 20.0,
                          "signed soup, seed " + std::to_string(seed));
}

TEST(MeshBvhProperty, CrossingNeedlesMakeLeavesOfSeveralBlocksThatRaysStillSearchExactly) {
    // 400 needles, each 2 units long and 0.002 wide, through the unit cube in every direction:
    // every split cuts through boxes that overlap, so the SAH finds leaves of several blocks
    // cheaper (as on bench_mesh's needles), fewer than one-block leaves would need.
    const std::uint32_t seed = kSeed + 255u;
    Random rng(seed);
    Mesh mesh;
    for (std::uint32_t t = 0; t < 400; ++t) {
        const glm::dvec3 c = rng.inBox(0.5);
        const glm::dvec3 axis = rng.unitVector();
        const glm::dvec3 side = glm::normalize(glm::cross(axis, rng.unitVector())) * 0.001;
        mesh.vertices.insert(mesh.vertices.end(),
                             {glm::vec3(c - axis), glm::vec3(c + axis + side), glm::vec3(c + axis - side)});
        mesh.add(3 * t, 3 * t + 1, 3 * t + 2);
    }
    const MeshBvh bvh = mesh.bvh();
    ASSERT_EQ(bvh.triangleCount(), 400u);
    const std::size_t leaves = (bvh.nodeBoxes(1000).size() + 1) / 2; // a full binary tree
    EXPECT_LT(leaves, 400u / 4) << "seed " << seed;
    EXPECT_GE(leaves, 400u / MeshBvh::kMaxLeafTriangles) << "seed " << seed;
    expectAgreesWithLoops(mesh, bvh, rng, 2000, glm::dvec3(0.0), 1.0, "seed " + std::to_string(seed));
}

TEST(MeshBvhProperty, AGeometricSequenceOfTrianglesBuildsADeepTreeThatRaysStillTraverse) {
    // Copies of one triangle scaled by 1.5 from one to the next, from 1e-9 to 1e19 units: binned
    // SAH can only split a few of the largest off at a time, so the tree is far deeper than a
    // balanced one (about 6 levels). Rays at every scale must still find exactly what loops find.
    const std::uint32_t seed = kSeed + 260u;
    Random rng(seed);
    Mesh mesh;
    for (double scale = 1e-9; scale < 1e19; scale *= 1.5) {
        const auto s = static_cast<float>(scale);
        const Triangle tri{{s, 0.0f, 0.0f}, {1.3f * s, 0.3f * s, 0.0f}, {s, 0.2f * s, 0.3f * s}};
        if (!isValid(tri)) continue;
        const auto first = static_cast<std::uint32_t>(mesh.vertices.size());
        mesh.vertices.insert(mesh.vertices.end(), {tri.a, tri.b, tri.c});
        mesh.add(first, first + 1, first + 2);
    }
    const MeshBvh bvh = mesh.bvh();
    ASSERT_GT(mesh.triangleCount(), 90u);
    EXPECT_EQ(bvh.triangleCount(), mesh.triangleCount());
    EXPECT_GE(bvh.depth(), 20);
    EXPECT_LE(bvh.depth(), 96);
    for (int i = 0; i < 3000; ++i) {
        // From near a random triangle, at its scale, at a vertex, an edge midpoint or inside.
        const Triangle tri = mesh.triangle(
            static_cast<std::size_t>(rng.integer(0, static_cast<int>(mesh.triangleCount()) - 1)));
        const double size = glm::length(toD(tri.b - tri.a));
        const int kind = rng.integer(0, 2);
        const glm::vec3 aim = kind == 0   ? tri.c
                              : kind == 1 ? (tri.a + tri.b) * 0.5f
                                          : (tri.a + tri.b + tri.c) / 3.0f;
        const glm::vec3 origin = glm::vec3(toD(aim) + rng.unitVector() * size * rng.uniform(0.5, 5.0));
        expectRayAgreesWithLoops(mesh, bvh, Ray{origin, aim - origin}, rng.tMax(1.0),
                                 "seed " + std::to_string(seed) + ", ray " + std::to_string(i));
        if (HasFatalFailure()) return;
    }
}

// =============================================================================================
// Box queries and debug boxes

TEST(MeshBvhBoxQuery, VisitsExactlyTheTrianglesWhoseBoundsOverlapTheBox) {
    const PropertyMesh& pm = propertyMesh();
    Random rng(kSeed + 400u);
    for (int i = 0; i < 300; ++i) {
        const glm::vec3 centre(rng.inBox(1.4));
        const glm::vec3 half(static_cast<float>(rng.uniform(0.0, 0.4)),
                             static_cast<float>(rng.uniform(0.0, 0.4)),
                             static_cast<float>(rng.uniform(0.0, 0.4)));
        const Aabb box{centre - half, centre + half};
        std::vector<std::uint32_t> expected;
        for (std::size_t t = 0; t < pm.mesh.triangleCount(); ++t) {
            const Triangle tri = pm.mesh.triangle(t);
            const glm::vec3 lo = glm::min(tri.a, glm::min(tri.b, tri.c));
            const glm::vec3 hi = glm::max(tri.a, glm::max(tri.b, tri.c));
            if (glm::all(glm::lessThanEqual(lo, box.max)) && glm::all(glm::greaterThanEqual(hi, box.min)))
                expected.push_back(static_cast<std::uint32_t>(t));
        }
        std::vector<std::uint32_t> got;
        pm.bvh.forEachTriangleOverlapping(box, [&](std::uint32_t id, const Triangle& tri) {
            got.push_back(id);
            const Triangle input = pm.mesh.triangle(id);
            EXPECT_TRUE(tri.a == input.a && tri.b == input.b && tri.c == input.c) << "triangle " << id;
        });
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, expected) << "box " << str(box.min) << " .. " << str(box.max) << " (seed "
                                 << kSeed + 400u << ", case " << i << ")";
    }
}

TEST(MeshBvhBoxQuery, InvalidOrFarBoxesVisitNothing) {
    const PropertyMesh& pm = propertyMesh();
    int visited = 0;
    const auto count = [&](std::uint32_t, const Triangle&) { ++visited; };
    pm.bvh.forEachTriangleOverlapping({glm::vec3(5.0f), glm::vec3(6.0f)}, count);
    pm.bvh.forEachTriangleOverlapping({glm::vec3(1.0f), glm::vec3(-1.0f)}, count); // min > max
    pm.bvh.forEachTriangleOverlapping({glm::vec3(NAN), glm::vec3(1.0f)}, count);
    MeshBvh::build({}, {}).forEachTriangleOverlapping({glm::vec3(-1.0f), glm::vec3(1.0f)}, count);
    EXPECT_EQ(visited, 0);
}

TEST(MeshBvhNodeBoxes, DepthZeroIsTheRootBoundsAndDeeperLevelsNestInsideTheirParents) {
    const PropertyMesh& pm = propertyMesh();
    const auto root = pm.bvh.nodeBoxes(0);
    ASSERT_EQ(root.size(), 1u);
    const Aabb bounds = pm.bvh.bounds();
    EXPECT_TRUE(glm::all(glm::lessThanEqual(root[0].min, bounds.min)) &&
                glm::all(glm::greaterThanEqual(root[0].max, bounds.max)));
    const int depth = pm.bvh.depth();
    // 20,480 triangles, at most 32 a leaf: at least ceil(log2(20,480 / 32)) + 1 = 11 levels.
    static_assert(MeshBvh::kMaxLeafTriangles == 32, "the bounds below assume leaves of up to 32");
    EXPECT_GE(depth, 11);
    EXPECT_LT(depth, 64);
    std::size_t previous = 1;
    for (int level = 1; level < 5; ++level) {
        const auto boxes = pm.bvh.nodeBoxes(level);
        EXPECT_EQ(boxes.size(), previous + (std::size_t{1} << level)) << "level " << level;
        previous = boxes.size();
        for (const Aabb& b : boxes)
            EXPECT_TRUE(glm::all(glm::lessThanEqual(root[0].min, b.min)) &&
                        glm::all(glm::greaterThanEqual(root[0].max, b.max)));
    }
    const std::size_t all = pm.bvh.nodeBoxes(1000).size(); // a full binary tree: 2 leaves - 1 nodes
    EXPECT_EQ(all % 2, 1u);
    EXPECT_GE(all, 2 * (pm.mesh.triangleCount() / MeshBvh::kMaxLeafTriangles) - 1);
    EXPECT_TRUE(pm.bvh.nodeBoxes(-1).empty());
    EXPECT_TRUE(MeshBvh::build({}, {}).nodeBoxes(3).empty());
    EXPECT_EQ(MeshBvh::build({}, {}).depth(), 0);
}

// =============================================================================================
// The builder's output, pinned

/// The tree MeshBvh::build makes of `mesh`, hashed: its memory, its depth, every node's box of the
/// binary tree it was collapsed from, and the traversal of 512 rays through it (each event's kind,
/// child, place in memory, depth, t, box and tested triangles in their order in the leaf), which
/// follow the 8-wide nodes' slots, the children's order and the leaves' layout.
std::string treeFingerprint(const Mesh& mesh, std::uint32_t seed) {
    const MeshBvh bvh = mesh.bvh();
    using kz::test::fnv1a;
    std::uint64_t hash = kz::test::kFnvOffset;
    const std::size_t memory = bvh.memoryBytes();
    const int depth = bvh.depth();
    fnv1a(hash, &memory, sizeof memory);
    fnv1a(hash, &depth, sizeof depth);
    const std::vector<Aabb> boxes = bvh.nodeBoxes(1000);
    fnv1a(hash, boxes.data(), boxes.size() * sizeof(Aabb));
    const glm::vec3 center = 0.5f * (bvh.bounds().min + bvh.bounds().max);
    const glm::vec3 half = 0.5f * (bvh.bounds().max - bvh.bounds().min) + glm::vec3(0.5f);
    Random rng(seed);
    for (int i = 0; i < 512; ++i) { // from around the mesh's box to points inside it
        const glm::vec3 origin = center + half * rng.inBoxF(2.0);
        const glm::vec3 target = center + half * rng.inBoxF(0.8);
        const MeshRayTrace trace = bvh.explainRaycast(Ray{origin, target - origin}, 10.0f);
        for (const BvhEvent& e : trace.events) {
            fnv1a(hash, &e.kind, sizeof e.kind);
            fnv1a(hash, &e.leaf, sizeof e.leaf);
            fnv1a(hash, &e.index, sizeof e.index);
            fnv1a(hash, &e.depth, sizeof e.depth);
            fnv1a(hash, &e.t, sizeof e.t);
            fnv1a(hash, &e.box, sizeof e.box);
            fnv1a(hash, e.triangles.data(), e.triangleCount * sizeof e.triangles[0]);
        }
    }
    return kz::test::hex16(hash);
}

TEST(MeshBvhGolden, FixedMeshesBuildExactlyTheirRecordedTrees) {
    // The results of a query never depend on the tree, but its speed, its traces and the lab's
    // pictures do: a change to the builder meant to keep its trees (a faster binning or
    // partition, say) keeps these hashes, and one meant to change them records the new ones and
    // says why in its commit.
    const std::map<std::string, std::string> golden = {
        {"bumpy sphere", "67b8d9cd44872943"},
        {"grid", "1d953bd49e74c635"},
        {"soup", "138fa7d1b2361759"},
    };
    Random rng(kSeed + 512u);
    kz::test::expectGolden(golden, "bumpy sphere", treeFingerprint(bumpySphere(4), kSeed + 513u));
    kz::test::expectGolden(golden, "grid", treeFingerprint(grid(48), kSeed + 514u));
    kz::test::expectGolden(golden, "soup", treeFingerprint(randomSoup(rng, 4000), kSeed + 515u));
}

} // namespace
