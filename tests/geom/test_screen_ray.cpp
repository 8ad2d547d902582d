// Tests for geom/screen_ray.hpp: the picking ray through a window pixel.
// Round trips project points of the ray back with glm::project (in double) and compare with the
// input pixel within 1e-3 px plus the unavoidable error of storing the ray in float (half an ulp
// per component of origin and dir, mapped to pixels through the projection's Jacobian).
// NB: no test name here contains "Ray" followed by a capital letter (ctest -E "Ray[A-Z]").
#include "geom/geom.hpp"
#include "support/geom_print.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace {

using kz::Ray;
using kz::test::str;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr unsigned kSeed = 31337u;
constexpr double kPixelTol = 1e-3;

struct Camera {
    glm::mat4 view;
    glm::mat4 proj;
    glm::vec2 size;
    float nearPlane;
};

// Window position with the origin at the top-left, y down (as screenRay takes it).
glm::dvec2 toPixel(const glm::dvec3& world, const Camera& cam) {
    const glm::dvec4 viewport(0.0, 0.0, double(cam.size.x), double(cam.size.y));
    const glm::dvec3 win = glm::project(world, glm::dmat4(cam.view), glm::dmat4(cam.proj), viewport);
    return {win.x, double(cam.size.y) - win.y};
}

// Frobenius norm of d(pixel)/d(world) at p: bounds how far a world-space error moves the pixel.
double pixelsPerUnit(const glm::dvec3& p, const Camera& cam) {
    const double h = 1e-7 * (1.0 + glm::length(p));
    const glm::dvec2 base = toPixel(p, cam);
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) {
        glm::dvec3 q = p;
        q[i] += h;
        const glm::dvec2 d = (toPixel(q, cam) - base) / h;
        sum += glm::dot(d, d);
    }
    return std::sqrt(sum);
}

double halfUlp(float x) {
    const float a = std::abs(x);
    return 0.5 * double(std::nextafter(a, kInf) - a);
}

// Error bound of origin + t * dir caused by rounding the exact ray to float.
double roundingError(const Ray& ray, double t) {
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) {
        const double e = halfUlp(ray.origin[i]) + t * halfUlp(ray.dir[i]);
        sum += e * e;
    }
    return std::sqrt(sum);
}

// The view-space distance of the plane the (float) projection maps to NDC z = -1. It differs
// from the nominal near distance by the rounding of the matrix entries (noticeably for ortho).
double matrixNear(const Camera& cam) {
    const glm::dvec4 v = glm::inverse(glm::dmat4(cam.proj)) * glm::dvec4(0.0, 0.0, -1.0, 1.0);
    return -v.z / v.w;
}

double viewDepth(const glm::dvec3& world, const Camera& cam) {
    return (glm::dmat4(cam.view) * glm::dvec4(world, 1.0)).z;
}

// Checks: unit dir, origin on the near plane, points at each t project back onto `pixel`.
::testing::AssertionResult roundTrips(const Ray& ray, const Camera& cam, glm::vec2 pixel,
                                      std::initializer_list<double> ts) {
    const glm::dvec3 o(ray.origin), d(ray.dir);
    if (!kz::isFinite(ray.origin) || !kz::isFinite(ray.dir))
        return ::testing::AssertionFailure() << "non-finite ray " << str(o) << " " << str(d);
    if (std::abs(glm::length(d) - 1.0) > 1e-6)
        return ::testing::AssertionFailure() << "dir not unit: " << str(d);
    const double nearPlane = matrixNear(cam);
    if (std::abs(nearPlane - double(cam.nearPlane)) > 1e-4 * double(cam.nearPlane))
        return ::testing::AssertionFailure()
               << "test camera: matrix near " << nearPlane << " vs " << cam.nearPlane;
    const double nearErr = 2.0 * roundingError(ray, 0.0) + 1e-9 * nearPlane;
    if (std::abs(viewDepth(o, cam) + nearPlane) > nearErr)
        return ::testing::AssertionFailure()
               << "origin not on the near plane: view z " << viewDepth(o, cam) << ", near " << nearPlane;
    if (viewDepth(o + d, cam) >= viewDepth(o, cam))
        return ::testing::AssertionFailure() << "dir does not point away from the camera";
    for (const double t : ts) {
        const glm::dvec3 p = o + t * d;
        const glm::dvec2 got = toPixel(p, cam);
        const double err = glm::distance(got, glm::dvec2(pixel));
        const double tol = kPixelTol + pixelsPerUnit(p, cam) * roundingError(ray, t);
        if (!(err <= tol))
            return ::testing::AssertionFailure()
                   << "t " << t << " projects to (" << got.x << ", " << got.y << "), pixel (" << pixel.x
                   << ", " << pixel.y << "), error " << err << " px > " << tol;
    }
    return ::testing::AssertionSuccess();
}

Camera perspectiveCamera(const glm::vec3& eye, const glm::vec3& target, glm::vec2 size, float fovDeg, float n,
                         float f) {
    return {glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f)),
            glm::perspective(glm::radians(fovDeg), size.x / size.y, n, f), size, n};
}

// ================================================================== perspective

TEST(ScreenRay, PerspectiveCentrePixelLooksAtTarget) {
    const glm::vec3 eye(0.0f, 3.0f, 8.0f), target(0.0f, 0.0f, 0.0f);
    const Camera cam = perspectiveCamera(eye, target, {1920.0f, 1080.0f}, 60.0f, 0.1f, 100.0f);
    const Ray r = kz::screenRay({960.0f, 540.0f}, cam.size, cam.view, cam.proj);
    const glm::dvec3 forward = glm::normalize(glm::dvec3(target) - glm::dvec3(eye));
    EXPECT_LT(glm::distance(glm::dvec3(r.dir), forward), 1e-6) << str(glm::dvec3(r.dir));
    EXPECT_LT(glm::distance(glm::dvec3(r.origin), glm::dvec3(eye) + 0.1 * forward), 1e-5)
        << str(glm::dvec3(r.origin));
    EXPECT_TRUE(roundTrips(r, cam, {960.0f, 540.0f}, {0.0, 0.5, 1.0, 8.0, 50.0, 99.0}));
}

TEST(ScreenRay, PerspectiveFrustumCornersNonSquare) {
    // Camera at the origin looking down -z: view space is world space.
    for (const glm::vec2 size :
         {glm::vec2(1920.0f, 1080.0f), glm::vec2(300.0f, 800.0f), glm::vec2(1.0f, 1.0f)}) {
        const Camera cam =
            perspectiveCamera({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}, size, 70.0f, 0.5f, 50.0f);
        const double ty = std::tan(glm::radians(70.0) / 2.0), tx = ty * double(size.x) / double(size.y);
        struct Corner {
            glm::vec2 pixel;
            glm::dvec3 dir;
        };
        const Corner cases[] = {{{0.0f, 0.0f}, {-tx, ty, -1.0}},    // top-left: up is +y
                                {{size.x, 0.0f}, {tx, ty, -1.0}},   // top-right
                                {{0.0f, size.y}, {-tx, -ty, -1.0}}, // bottom-left
                                {size, {tx, -ty, -1.0}},            // bottom-right
                                {size * 0.5f, {0.0, 0.0, -1.0}}};
        for (const Corner& c : cases) {
            const Ray r = kz::screenRay(c.pixel, size, cam.view, cam.proj);
            const glm::dvec3 want = glm::normalize(c.dir);
            EXPECT_LT(glm::distance(glm::dvec3(r.dir), want), 1e-6)
                << "size " << size.x << "x" << size.y << " pixel " << c.pixel.x << "," << c.pixel.y << " got "
                << str(glm::dvec3(r.dir)) << " want " << str(want);
            EXPECT_LT(glm::distance(glm::dvec3(r.origin), want * (0.5 / -want.z)), 1e-6);
            EXPECT_TRUE(roundTrips(r, cam, c.pixel, {0.0, 1.0, 20.0}));
        }
    }
}

TEST(ScreenRay, PerspectivePixelCentreConvention) {
    // The centre of SDL pixel (0, 0) is (0.5, 0.5): NDC (-1 + 1/w, 1 - 1/h).
    const glm::vec2 size(800.0f, 600.0f);
    const Camera cam = perspectiveCamera({0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}, size, 90.0f, 1.0f, 10.0f);
    const Ray r = kz::screenRay({0.5f, 0.5f}, size, cam.view, cam.proj);
    const double ty = 1.0, tx = 800.0 / 600.0; // tan(45 degrees) = 1
    const glm::dvec3 want =
        glm::normalize(glm::dvec3((-1.0 + 1.0 / 800.0) * tx, (1.0 - 1.0 / 600.0) * ty, -1.0));
    EXPECT_LT(glm::distance(glm::dvec3(r.dir), want), 1e-6) << str(glm::dvec3(r.dir));
    EXPECT_TRUE(roundTrips(r, cam, {0.5f, 0.5f}, {0.0, 1.0, 5.0}));
}

TEST(ScreenRay, PerspectiveGeneralCameras) {
    const Camera cams[] = {
        perspectiveCamera({0.0f, 3.0f, 8.0f}, {0.0f, 0.0f, 0.0f}, {1280.0f, 720.0f}, 60.0f, 0.1f, 100.0f),
        perspectiveCamera({-4.0f, 1.0f, 2.0f}, {1.0f, 0.5f, -3.0f}, {1024.0f, 1024.0f}, 45.0f, 0.25f, 500.0f),
        perspectiveCamera({10.0f, 20.0f, -5.0f}, {0.0f, 0.0f, 0.0f}, {333.0f, 777.0f}, 100.0f, 1.0f, 200.0f),
    };
    for (const Camera& cam : cams) {
        for (const glm::vec2 pixel :
             {glm::vec2(0.5f, 0.5f), cam.size * 0.5f, glm::vec2(cam.size.x - 0.5f, 13.25f),
              glm::vec2(7.0f, cam.size.y), glm::vec2(100.5f, 200.5f)}) {
            const Ray r = kz::screenRay(pixel, cam.size, cam.view, cam.proj);
            EXPECT_TRUE(roundTrips(r, cam, pixel, {0.0, 0.01, 1.0, 10.0, 40.0}))
                << "pixel " << pixel.x << "," << pixel.y;
        }
    }
}

// ================================================================== orthographic

TEST(ScreenRay, OrthoTopLeftOriginAndPixelCentres) {
    // World units = pixels: world x = pixel x, world y = h - pixel y (window y points down).
    const glm::vec2 size(640.0f, 480.0f);
    const Camera cam{glm::lookAt(glm::vec3(0.0f, 0.0f, 10.0f), glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f)),
                     glm::ortho(0.0f, 640.0f, 0.0f, 480.0f, 0.1f, 100.0f), size, 0.1f};
    struct Case {
        glm::vec2 pixel;
        glm::vec3 origin;
    };
    const Case cases[] = {{{0.5f, 0.5f}, {0.5f, 479.5f, 9.9f}}, // centre of the top-left pixel
                          {{0.0f, 0.0f}, {0.0f, 480.0f, 9.9f}}, // top-left corner of the window
                          {{640.0f, 480.0f}, {640.0f, 0.0f, 9.9f}},
                          {{639.5f, 479.5f}, {639.5f, 0.5f, 9.9f}}, // centre of the bottom-right pixel
                          {{100.5f, 20.5f}, {100.5f, 459.5f, 9.9f}}};
    for (const Case& c : cases) {
        const Ray r = kz::screenRay(c.pixel, size, cam.view, cam.proj);
        EXPECT_LT(glm::distance(glm::dvec3(r.dir), glm::dvec3(0.0, 0.0, -1.0)), 1e-7)
            << str(glm::dvec3(r.dir));
        EXPECT_LT(glm::distance(glm::dvec3(r.origin), glm::dvec3(c.origin)), 1e-4)
            << "pixel " << c.pixel.x << "," << c.pixel.y << " origin " << str(glm::dvec3(r.origin));
        EXPECT_TRUE(roundTrips(r, cam, c.pixel, {0.0, 1.0, 50.0}));
    }
}

TEST(ScreenRay, OrthoDirectionIsViewForward) {
    const glm::vec3 eye(5.0f, 5.0f, 5.0f), target(0.0f, 1.0f, 0.0f);
    const glm::vec2 size(1600.0f, 900.0f);
    const float halfH = 4.0f, halfW = halfH * size.x / size.y;
    const Camera cam{glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f)),
                     glm::ortho(-halfW, halfW, -halfH, halfH, 0.5f, 30.0f), size, 0.5f};
    const glm::dvec3 forward = glm::normalize(glm::dvec3(target) - glm::dvec3(eye));
    for (const glm::vec2 pixel : {glm::vec2(0.5f, 0.5f), size * 0.5f, glm::vec2(1599.5f, 10.0f), size}) {
        const Ray r = kz::screenRay(pixel, size, cam.view, cam.proj);
        EXPECT_LT(glm::distance(glm::dvec3(r.dir), forward), 1e-6) << str(glm::dvec3(r.dir));
        EXPECT_TRUE(roundTrips(r, cam, pixel, {0.0, 3.0, 25.0}));
    }
    // The centre pixel's ray starts on the view axis.
    const Ray centre = kz::screenRay(size * 0.5f, size, cam.view, cam.proj);
    EXPECT_LT(glm::distance(glm::dvec3(centre.origin), glm::dvec3(eye) + 0.5 * forward), 1e-5);
}

// ================================================================== degenerate input

::testing::AssertionResult zeroDir(const Ray& r) {
    if (r.dir != glm::vec3(0.0f))
        return ::testing::AssertionFailure() << "dir " << str(glm::dvec3(r.dir)) << " is not zero";
    if (kz::isValid(r)) return ::testing::AssertionFailure() << "isValid accepts it";
    return ::testing::AssertionSuccess();
}

TEST(ScreenRay, DegenerateInputGivesZeroDir) {
    const Camera cam =
        perspectiveCamera({0.0f, 3.0f, 8.0f}, {0.0f, 0.0f, 0.0f}, {800.0f, 600.0f}, 60.0f, 0.1f, 100.0f);
    const glm::vec2 px(400.0f, 300.0f);
    // Empty viewports.
    EXPECT_TRUE(zeroDir(kz::screenRay(px, {0.0f, 0.0f}, cam.view, cam.proj)));
    EXPECT_TRUE(zeroDir(kz::screenRay(px, {0.0f, 600.0f}, cam.view, cam.proj)));
    EXPECT_TRUE(zeroDir(kz::screenRay(px, {800.0f, 0.0f}, cam.view, cam.proj)));
    EXPECT_TRUE(zeroDir(kz::screenRay(px, {kNaN, 600.0f}, cam.view, cam.proj)));
    // Singular matrices.
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, glm::mat4(0.0f), cam.proj)));
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, cam.view, glm::mat4(0.0f))));
    glm::mat4 flattened = cam.proj; // drops z: rank 3
    flattened[2] = glm::vec4(0.0f);
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, cam.view, flattened)));
    // Non-finite matrices.
    glm::mat4 nanView = cam.view;
    nanView[3][0] = kNaN;
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, nanView, cam.proj)));
    glm::mat4 infProj = cam.proj;
    infProj[0][0] = kInf;
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, cam.view, infProj)));
    // lookAt with eye == target gives NaNs.
    const glm::mat4 badView = glm::lookAt(glm::vec3(1.0f), glm::vec3(1.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    EXPECT_TRUE(zeroDir(kz::screenRay(px, cam.size, badView, cam.proj)));
    // A NaN pixel must not produce a usable ray.
    EXPECT_FALSE(kz::isValid(kz::screenRay({kNaN, 300.0f}, cam.size, cam.view, cam.proj)));
}

// ================================================================== random round trips

TEST(ScreenRay, RandomRoundTrips) {
    const unsigned seed = kSeed;
    std::mt19937 rng(seed);
    const auto uni = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
    int failures = 0;
    constexpr int kCases = 100000;
    for (int i = 0; i < kCases; ++i) {
        const glm::vec3 eye(uni(-2.0f, 2.0f), uni(-2.0f, 2.0f), uni(-2.0f, 2.0f));
        glm::vec3 forward, up;
        do {
            forward = glm::normalize(glm::vec3(uni(-1.0f, 1.0f), uni(-1.0f, 1.0f), uni(-1.0f, 1.0f)));
            up = glm::normalize(glm::vec3(uni(-1.0f, 1.0f), uni(-1.0f, 1.0f), uni(-1.0f, 1.0f)));
        } while (!kz::isFinite(forward) || !kz::isFinite(up) || std::abs(glm::dot(forward, up)) > 0.95f);
        const glm::vec2 size(float(1 + rng() % 2560), float(1 + rng() % 1600));
        const float n = uni(0.5f, 2.0f), f = n + uni(10.0f, 500.0f);
        Camera cam{glm::lookAt(eye, eye + forward * uni(0.5f, 20.0f), up), glm::mat4(1.0f), size, n};
        const bool ortho = i % 2 == 1;
        if (ortho) {
            const float halfH = uni(0.5f, 20.0f), halfW = halfH * size.x / size.y;
            const glm::vec2 shift(uni(-3.0f, 3.0f), uni(-3.0f, 3.0f)); // off-centre frusta too
            cam.proj = glm::ortho(-halfW + shift.x, halfW + shift.x, -halfH + shift.y, halfH + shift.y, n, f);
        } else {
            cam.proj = glm::perspective(glm::radians(uni(30.0f, 110.0f)), size.x / size.y, n, f);
        }
        const glm::vec2 pixel(uni(0.0f, size.x), uni(0.0f, size.y));
        const Ray r = kz::screenRay(pixel, size, cam.view, cam.proj);
        const double span = double(f - n);
        const auto check = roundTrips(r, cam, pixel, {0.0, double(uni(0.0f, 1.0f)) * span * 0.9});
        if (!check && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << (ortho ? " ortho" : " perspective")
                          << " viewport " << size.x << "x" << size.y << " pixel (" << pixel.x << ", "
                          << pixel.y << ") eye " << str(glm::dvec3(eye)) << ": " << check.message();
    }
    EXPECT_EQ(failures, 0);
}

} // namespace
