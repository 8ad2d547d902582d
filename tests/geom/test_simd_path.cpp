// The SIMD paths of MeshBvh's ray queries (simd_path.hpp): naming, KOLIZE_SIMD's checks, and every
// path the machine has giving bit-identical hits, equal to brute force, on meshes made to stress
// the leaf filter's rounding (needles and slivers far from the origin, rays aimed exactly at their
// vertices and edges). The whole MeshBvh suite also runs once per path (ctest's
// test_mesh_bvh.<path> entries, KOLIZE_SIMD set).
#include "geom/geom.hpp"
#include "geom/simd_path.hpp"
#include "support/ray_test_support.hpp"
#include "support/thin_triangles.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace kz;
using kz::raytest::str;

/// Restores the active path (and KOLIZE_SIMD) after a test that changes them.
class SimdPathTest : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = activeSimdPath();
        if (const char* value = std::getenv("KOLIZE_SIMD")) savedEnv_ = value;
    }
    void TearDown() override {
        useSimdPath(saved_);
        if (savedEnv_) {
            setenv("KOLIZE_SIMD", savedEnv_->c_str(), 1);
        } else {
            unsetenv("KOLIZE_SIMD");
        }
    }

private:
    SimdPath saved_ = SimdPath::Sse2;
    std::optional<std::string> savedEnv_;
};

TEST(SimdPath, NamesParseBackAndUnknownNamesDoNot) {
    for (SimdPath p : {SimdPath::Sse2, SimdPath::Avx2, SimdPath::Avx512})
        EXPECT_EQ(parseSimdPath(simdPathName(p)), p);
    EXPECT_EQ(simdPathName(SimdPath::Avx512), "avx512");
    EXPECT_FALSE(parseSimdPath("AVX2"));
    EXPECT_FALSE(parseSimdPath(""));
    EXPECT_FALSE(parseSimdPath("avx2 "));
}

TEST(SimdPath, Sse2IsAlwaysSupportedAndListedFirst) {
    const std::vector<SimdPath> paths = supportedSimdPaths();
    ASSERT_FALSE(paths.empty());
    EXPECT_EQ(paths.front(), SimdPath::Sse2);
    for (SimdPath p : paths)
        EXPECT_TRUE(simdPathSupported(p));
}

TEST(SimdPath, KolizeSimdChoosesTheActivePathWhenSet) {
    // Under ctest's per-path entries, KOLIZE_SIMD names the path this process must run.
    const char* value = std::getenv("KOLIZE_SIMD");
    if (value == nullptr || *value == '\0') GTEST_SKIP() << "KOLIZE_SIMD is not set";
    const auto path = parseSimdPath(value);
    ASSERT_TRUE(path) << value;
    if (!simdPathSupported(*path)) GTEST_SKIP() << value << " is not supported here";
    EXPECT_EQ(activeSimdPath(), *path);
}

TEST_F(SimdPathTest, UseSimdPathSwitchesOnlyToSupportedPaths) {
    for (SimdPath p : {SimdPath::Sse2, SimdPath::Avx2, SimdPath::Avx512}) {
        const SimdPath before = activeSimdPath();
        EXPECT_EQ(useSimdPath(p), simdPathSupported(p)) << simdPathName(p);
        EXPECT_EQ(activeSimdPath(), simdPathSupported(p) ? p : before) << simdPathName(p);
    }
}

TEST_F(SimdPathTest, EnvironmentErrorsAreOneLineAndNameTheValue) {
    unsetenv("KOLIZE_SIMD");
    EXPECT_EQ(simdPathEnvironmentError(), "");
    setenv("KOLIZE_SIMD", "", 1);
    EXPECT_EQ(simdPathEnvironmentError(), "");
    setenv("KOLIZE_SIMD", "sse2", 1);
    EXPECT_EQ(simdPathEnvironmentError(), "");
    setenv("KOLIZE_SIMD", "avx9", 1);
    EXPECT_EQ(simdPathEnvironmentError(), "KOLIZE_SIMD=avx9 is not a SIMD path (use sse2, avx2 or avx512)");
    setenv("KOLIZE_SIMD", "bad\nvalue", 1);
    EXPECT_EQ(simdPathEnvironmentError(),
              "KOLIZE_SIMD=bad\\x0avalue is not a SIMD path (use sse2, avx2 or avx512)");
    for (SimdPath p : {SimdPath::Avx2, SimdPath::Avx512}) {
        setenv("KOLIZE_SIMD", std::string(simdPathName(p)).c_str(), 1);
        const std::string error = simdPathEnvironmentError();
        if (simdPathSupported(p)) {
            EXPECT_EQ(error, "");
        } else {
            EXPECT_NE(error.find("cannot run it"), std::string::npos) << error;
        }
    }
}

// =============================================================================================
// Every path: the same hits, equal to brute force

struct Soup {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;
    Triangle triangle(std::size_t i) const {
        return {vertices[indices[3 * i]], vertices[indices[3 * i + 1]], vertices[indices[3 * i + 2]]};
    }
    std::size_t count() const { return indices.size() / 3; }
};

/// Needles and slivers (tests/support/thin_triangles.hpp), each moved by `offset`, two of every
/// five sharing an edge with the one before (so shared edges are aimed at too).
Soup thinSoup(std::mt19937& rng, std::size_t n, glm::vec3 offset, float scale = 1.0f) {
    Soup soup;
    for (std::size_t i = 0; i < n; ++i) {
        const auto kind = i % 2 == 0 ? thintest::ThinKind::Needle : thintest::ThinKind::Sliver;
        const Triangle c = thintest::randomThinCase(rng, kind).tri;
        const Triangle t{c.a * scale, c.b * scale, c.c * scale};
        const auto base = static_cast<std::uint32_t>(soup.vertices.size());
        if (i % 5 >= 3 && i > 0) {
            // Share the previous triangle's first edge, with a new third vertex.
            const std::uint32_t a = soup.indices[soup.indices.size() - 3];
            const std::uint32_t b = soup.indices[soup.indices.size() - 2];
            soup.vertices.push_back(t.c + offset);
            soup.indices.insert(soup.indices.end(), {b, a, base});
            continue;
        }
        soup.vertices.insert(soup.vertices.end(), {t.a + offset, t.b + offset, t.c + offset});
        soup.indices.insert(soup.indices.end(), {base, base + 1, base + 2});
    }
    return soup;
}

/// The brute-force nearest hit: every triangle by raycastBarycentric, nearest t, lower index.
std::optional<std::pair<std::uint32_t, TriangleHit>> bruteNearest(const Soup& soup, const Ray& ray) {
    std::optional<std::pair<std::uint32_t, TriangleHit>> best;
    for (std::size_t i = 0; i < soup.count(); ++i) {
        const auto hit = raycastBarycentric(ray, soup.triangle(i));
        if (hit && (!best || hit->t < best->second.t)) best = std::pair{static_cast<std::uint32_t>(i), *hit};
    }
    return best;
}

/// A ray from a random point toward a vertex of a random triangle, a point on one of its edges,
/// or its centroid: exactly where the leaf filter's rounding matters.
Ray aimedRay(std::mt19937& rng, const Soup& soup, glm::vec3 centre, float spread = 600.0f) {
    std::uniform_int_distribution<std::size_t> pickTriangle(0, soup.count() - 1);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const Triangle t = soup.triangle(pickTriangle(rng));
    glm::vec3 target;
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:
        target = t.a;
        break;
    case 1:
        target = t.b + unit(rng) * (t.c - t.b);
        break;
    case 2:
        target = t.c + unit(rng) * (t.a - t.c);
        break;
    case 3:
        target = t.a + unit(rng) * (t.b - t.a);
        break;
    default:
        target = (t.a + t.b + t.c) / 3.0f;
        break;
    }
    const glm::vec3 from = centre + spread * glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f);
    return {from, target - from};
}

void expectEveryPathMatchesBruteForce(glm::vec3 offset, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const Soup soup = thinSoup(rng, 400, offset);
    const MeshBvh bvh = MeshBvh::build(soup.vertices, soup.indices);
    const std::vector<SimdPath> paths = supportedSimdPaths();
    int hits = 0;
    for (int i = 0; i < 3000; ++i) {
        const Ray ray = aimedRay(rng, soup, offset);
        const auto expected = bruteNearest(soup, ray);
        hits += expected ? 1 : 0;
        std::vector<MeshHit> firstAll;
        for (SimdPath p : paths) {
            ASSERT_TRUE(useSimdPath(p));
            const std::string what = std::string(simdPathName(p)) + ", seed " + std::to_string(seed) +
                                     ", case " + std::to_string(i) + ", " + str(ray);
            const auto got = bvh.raycast(ray);
            ASSERT_EQ(got.has_value(), expected.has_value()) << what;
            if (got) {
                EXPECT_EQ(got->triangle, expected->first) << what;
                EXPECT_EQ(got->t, expected->second.t) << what;
                EXPECT_EQ(got->u, expected->second.u) << what;
                EXPECT_EQ(got->v, expected->second.v) << what;
                EXPECT_EQ(got->normal, expected->second.normal) << what;
            }
            const std::vector<MeshHit> all = bvh.raycastAll(ray);
            if (p == paths.front()) {
                firstAll = all;
                continue;
            }
            ASSERT_EQ(all.size(), firstAll.size()) << what;
            for (std::size_t k = 0; k < all.size(); ++k) {
                EXPECT_EQ(all[k].triangle, firstAll[k].triangle) << what;
                EXPECT_EQ(all[k].t, firstAll[k].t) << what;
            }
        }
    }
    EXPECT_GT(hits, 1500); // the aim is good: most rays hit
}

TEST_F(SimdPathTest, EveryPathFindsTheBruteForceHitOnThinTrianglesNearTheOrigin) {
    expectEveryPathMatchesBruteForce(glm::vec3(0.0f), raytest::kSeed + 701u);
}

TEST_F(SimdPathTest, EveryPathFindsTheBruteForceHitOnThinTrianglesFarFromTheOrigin) {
    expectEveryPathMatchesBruteForce(glm::vec3(3.0e4f, -1.5e4f, 7.0e3f), raytest::kSeed + 702u);
}

/// Every path's raycastAll lists exactly the triangles that raycastBarycentric hits, in order of
/// t then index: the leaf filter (float edge functions with an error bound) drops no triangle the
/// exact test accepts, even for rays aimed at vertices and shared edges, where the edge functions
/// are zero or within rounding of it; at scales from 1e-9 to 1e6 (at 1e9 raycastBarycentric finds
/// 23 hits in all over 1,500 of these rays, at 1e15 and 1e-14 none, so they would test little).
void expectEveryPathListsEveryBruteForceHit(float scale, glm::vec3 offset, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const Soup soup = thinSoup(rng, 300, offset, scale);
    const MeshBvh bvh = MeshBvh::build(soup.vertices, soup.indices);
    int listed = 0;
    for (int i = 0; i < 1500; ++i) {
        const Ray ray = aimedRay(rng, soup, offset, 600.0f * scale);
        std::vector<std::pair<float, std::uint32_t>> expected;
        for (std::size_t k = 0; k < soup.count(); ++k)
            if (const auto hit = raycastBarycentric(ray, soup.triangle(k)))
                expected.emplace_back(hit->t, static_cast<std::uint32_t>(k));
        std::sort(expected.begin(), expected.end());
        listed += static_cast<int>(expected.size());
        for (SimdPath p : supportedSimdPaths()) {
            ASSERT_TRUE(useSimdPath(p));
            const std::vector<MeshHit> all = bvh.raycastAll(ray);
            const std::string what = std::string(simdPathName(p)) + ", scale " + std::to_string(scale) +
                                     ", case " + std::to_string(i) + ", " + str(ray);
            ASSERT_EQ(all.size(), expected.size()) << what;
            for (std::size_t k = 0; k < all.size(); ++k) {
                EXPECT_EQ(all[k].t, expected[k].first) << what;
                EXPECT_EQ(all[k].triangle, expected[k].second) << what;
            }
        }
    }
    EXPECT_GT(listed, 1500) << "scale " << scale; // the aim is good: most rays hit something
}

TEST_F(SimdPathTest, EveryPathListsEveryBruteForceHitAtEveryScale) {
    std::uint32_t seed = raytest::kSeed + 703u;
    for (const float scale : {1e-9f, 1e-5f, 1e-2f, 1.0f, 1e3f, 1e6f})
        expectEveryPathListsEveryBruteForceHit(scale, glm::vec3(0.0f), seed++);
}

TEST_F(SimdPathTest, EveryPathListsEveryBruteForceHitFarFromTheOrigin) {
    expectEveryPathListsEveryBruteForceHit(1.0f, glm::vec3(3.0e4f, -1.5e4f, 7.0e3f), raytest::kSeed + 710u);
    expectEveryPathListsEveryBruteForceHit(1e-3f, glm::vec3(-20.0f, 5.0f, 11.0f), raytest::kSeed + 711u);
}

} // namespace
