// Shared helpers for the raycast test suites (test_ray_*.cpp, test_mesh_bvh.cpp, test_sweep.cpp):
// hit validation, printing and random case generation. The double-precision reference solutions
// live in each test file.
#pragma once

#include "geom/geom.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <ostream>
#include <random>
#include <span>
#include <sstream>
#include <string>

// GoogleTest prints glm vectors through these (found by argument-dependent lookup).
namespace glm {
inline void PrintTo(const vec3& v, std::ostream* os) {
    *os << std::setprecision(9) << "(" << v.x << ", " << v.y << ", " << v.z << ")";
}
} // namespace glm

namespace kz::raytest {

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Base seed of the property tests (each adds its own offset; printed with each failing case).
inline constexpr std::uint32_t kSeed = 0x4b6f6c31u;
/// Random cases per property test.
inline constexpr int kCases = 100000;

inline std::string str(const glm::vec3& v) {
    std::ostringstream os;
    glm::PrintTo(v, &os);
    return os.str();
}
inline std::string str(float x) {
    std::ostringstream os;
    os << std::setprecision(9) << x;
    return os.str();
}
inline std::string str(const Ray& r) {
    return "Ray{origin " + str(r.origin) + ", dir " + str(r.dir) + "}";
}
inline std::string str(const RayHit& h) {
    return "RayHit{t " + str(h.t) + ", point " + str(h.point) + ", normal " + str(h.normal) + "}";
}
inline std::string str(const std::optional<RayHit>& h) {
    return h ? str(*h) : std::string("no hit");
}

inline std::string str(const Triangle& t) {
    return "Triangle{" + str(t.a) + ", " + str(t.b) + ", " + str(t.c) + "}";
}
inline std::string str(const std::optional<TriangleHit>& h) {
    if (!h) return "no hit";
    return "TriangleHit{t " + str(h->t) + ", u " + str(h->u) + ", v " + str(h->v) + ", normal " +
           str(h->normal) + "}";
}

inline glm::dvec3 toD(const glm::vec3& v) {
    return glm::dvec3(v);
}

inline bool allFinite(const RayHit& h) {
    return isFinite(h.t) && isFinite(h.point) && isFinite(h.normal);
}

/// Checks what every hit must satisfy: finite fields, 0 <= t <= tMax, a unit normal (unless
/// `unitNormal` is false) and point == origin + t * dir (to float rounding).
inline ::testing::AssertionResult isWellFormedHit(const RayHit& h, const Ray& ray, float tMax,
                                                  bool unitNormal = true) {
    if (!allFinite(h)) return ::testing::AssertionFailure() << "non-finite field in " << str(h);
    if (!(h.t >= 0.0f)) return ::testing::AssertionFailure() << "negative t in " << str(h);
    if (!(h.t <= tMax))
        return ::testing::AssertionFailure() << "t beyond tMax " << str(tMax) << " in " << str(h);
    const double len = glm::length(toD(h.normal));
    if (unitNormal && !(std::abs(len - 1.0) <= 1e-5))
        return ::testing::AssertionFailure() << "normal not unit (length " << len << ") in " << str(h);
    const glm::dvec3 expected = toD(ray.origin) + static_cast<double>(h.t) * toD(ray.dir);
    const double scale = glm::length(toD(ray.origin)) + glm::length(static_cast<double>(h.t) * toD(ray.dir));
    const double err = glm::length(toD(h.point) - expected);
    if (!(err <= 1e-6 * scale + 1e-30))
        return ::testing::AssertionFailure()
               << "point != origin + t * dir (off by " << err << ") in " << str(h);
    return ::testing::AssertionSuccess();
}

/// A hit on a two-sided surface must also have its normal facing the ray origin.
inline ::testing::AssertionResult isWellFormedSurfaceHit(const RayHit& h, const Ray& ray, float tMax) {
    auto r = isWellFormedHit(h, ray, tMax);
    if (!r) return r;
    if (!(glm::dot(toD(h.normal), toD(ray.dir)) <= 0.0))
        return ::testing::AssertionFailure() << "normal does not face the ray origin in " << str(h);
    return ::testing::AssertionSuccess();
}

/// |a - b| <= tol (Euclidean).
inline ::testing::AssertionResult near(const glm::vec3& a, const glm::vec3& b, double tol) {
    const double err = glm::length(toD(a) - toD(b));
    if (err <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << str(a) << " differs from " << str(b) << " by " << err << " > " << tol;
}

/// The query missed.
inline ::testing::AssertionResult misses(const std::optional<RayHit>& hit) {
    if (!hit) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected no hit, got " << str(*hit);
}

enum class Kind { Solid, Surface };

/// The query hit at `t` (to `tol` relative, absolute below 1) with `normal` (to `tol`), and the
/// hit is well formed (surfaces: normal facing the origin too).
inline ::testing::AssertionResult hitsAt(const std::optional<RayHit>& hit, const Ray& ray, float tMax,
                                         float t, const glm::vec3& normal, Kind kind, double tol = 1e-5) {
    if (!hit) return ::testing::AssertionFailure() << "expected a hit at t " << str(t) << ", got no hit";
    auto wellFormed =
        kind == Kind::Surface ? isWellFormedSurfaceHit(*hit, ray, tMax) : isWellFormedHit(*hit, ray, tMax);
    if (!wellFormed) return wellFormed;
    if (!(std::abs(static_cast<double>(hit->t) - static_cast<double>(t)) <=
          tol * std::max(1.0, std::abs(static_cast<double>(t)))))
        return ::testing::AssertionFailure() << "expected t " << str(t) << ", got " << str(*hit);
    if (!(glm::length(toD(hit->normal) - toD(normal)) <= tol))
        return ::testing::AssertionFailure() << "expected normal " << str(normal) << ", got " << str(*hit);
    return ::testing::AssertionSuccess();
}

/// The normal of a solid hit from inside: -normalize(dir).
inline glm::vec3 insideNormal(const glm::vec3& dir) {
    return glm::vec3(-glm::normalize(toD(dir)));
}

/// Random case generation; every distribution is drawn from one std::mt19937 with a fixed seed.
struct Random {
    std::mt19937 gen;
    explicit Random(std::uint32_t seed) : gen(seed) {}

    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
    float uniformF(double lo, double hi) { return static_cast<float>(uniform(lo, hi)); }
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
    bool chance(double p) { return uniform(0.0, 1.0) < p; }
    /// Log-uniform in [lo, hi].
    double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }

    glm::dvec3 inBox(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
    glm::vec3 inBoxF(double h) { return glm::vec3(inBox(h)); }
    glm::dvec3 inBall(double r) {
        for (;;) {
            const glm::dvec3 p = inBox(1.0);
            if (glm::dot(p, p) <= 1.0) return p * r;
        }
    }
    glm::dvec3 unitVector() {
        std::normal_distribution<double> n(0.0, 1.0);
        for (;;) {
            const glm::dvec3 v{n(gen), n(gen), n(gen)};
            const double len = glm::length(v);
            if (len > 1e-3) return v / len;
        }
    }
    /// A uniformly random rotation, built as a glm quaternion.
    glm::dquat rotationD() {
        std::normal_distribution<double> n(0.0, 1.0);
        return glm::normalize(glm::dquat(n(gen), n(gen), n(gen), n(gen)));
    }
    glm::quat rotation() { return glm::quat(rotationD()); }
    /// A direction of random length in [0.01, 100] (log-uniform) along `unit`.
    glm::vec3 scaledDir(const glm::dvec3& unit) { return glm::vec3(unit * logUniform(0.01, 100.0)); }
    /// tMax: +infinity half of the time, otherwise uniform in [0, 2 * typical] (often cutting the hit).
    float tMax(double typical) {
        return chance(0.5) ? kInf : static_cast<float>(uniform(0.0, 2.0 * typical));
    }

    /// A float drawn from a wide mix: ordinary, huge, tiny, zero, infinite and NaN values.
    float wild() {
        switch (integer(0, 9)) {
        case 0:
            return 0.0f;
        case 1:
            return (chance(0.5) ? 1.0f : -1.0f) * static_cast<float>(logUniform(1e20, 3e38));
        case 2:
            return (chance(0.5) ? 1.0f : -1.0f) * static_cast<float>(logUniform(1e-44, 1e-20));
        case 3:
            return chance(0.02) ? (chance(0.5) ? kInf : -kInf) : uniformF(-10.0, 10.0);
        case 4:
            return chance(0.02) ? kNaN : uniformF(-10.0, 10.0);
        case 5:
            return static_cast<float>(integer(-3, 3));
        default:
            return uniformF(-10.0, 10.0);
        }
    }
    glm::vec3 wildVec() { return {wild(), wild(), wild()}; }
    /// Mostly ordinary vectors, sometimes wild ones.
    glm::vec3 mixedVec(double h) { return chance(0.3) ? wildVec() : inBoxF(h); }
    float wildTMax() {
        switch (integer(0, 5)) {
        case 0:
            return kInf;
        case 1:
            return wild();
        case 2:
            return 0.0f;
        default:
            return uniformF(0.0, 50.0);
        }
    }
};

/// Counts compared and skipped (ill-conditioned) property cases; at most 10 failing cases are
/// reported in detail, each with the seed and case index.
struct CaseStats {
    std::uint32_t seed; ///< The seed of the test's Random, printed with every failing case.
    int compared = 0;
    int skipped = 0;
    int failures = 0;
    int hits = 0; ///< Compared cases where the reference hit.
    static constexpr int kMaxReported = 10;

    explicit CaseStats(std::uint32_t testSeed) : seed(testSeed) {}

    /// Records a failing check. Returns false once enough failures were reported (stop the loop).
    bool fail(int index, const std::string& what) {
        ++failures;
        if (failures <= kMaxReported) ADD_FAILURE() << "seed " << seed << ", case " << index << ": " << what;
        return failures < kMaxReported;
    }
    /// Checks the counts; with `mixed`, also that hits and misses each make up at least 15% of
    /// the compared cases (so that both outcomes are really exercised).
    void expectMostlyCompared(int total, bool mixed = false) const {
        std::cout << "[ stats    ] " << compared << " compared (" << hits << " hits), " << skipped
                  << " skipped\n";
        if (mixed) {
            EXPECT_GE(hits, compared * 15 / 100) << "too few hits";
            EXPECT_GE(compared - hits, compared * 15 / 100) << "too few misses";
        }
        EXPECT_EQ(compared + skipped, total);
        EXPECT_GE(compared, total * 9 / 10) << "too many skipped cases: " << skipped << " of " << total;
        EXPECT_EQ(failures, 0) << failures << " failing cases (first " << kMaxReported << " listed)";
    }
};

/// Relative agreement of two t values.
inline bool tAgrees(float got, double ref, double relTol = 1e-4) {
    return std::abs(static_cast<double>(got) - ref) <= relTol * std::abs(ref);
}

/// Is any component of the inputs NaN or infinite?
inline bool anyNonFinite(std::span<const glm::vec3> vs) {
    for (const auto& v : vs)
        if (!isFinite(v)) return true;
    return false;
}

} // namespace kz::raytest
