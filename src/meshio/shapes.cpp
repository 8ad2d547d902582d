// Mesh generators. Surfaces of revolution and swept tubes share one routine: rings of vertices
// along a centre line in the plane z = 0, joined by quads, closed by a fan at each end.
#include "meshio/shapes.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>

namespace kz {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

/// Appends vertices and triangles to a mesh.
class MeshBuilder {
public:
    std::uint32_t vertex(const glm::vec3& p) {
        mesh_.vertices.push_back(p);
        return static_cast<std::uint32_t>(mesh_.vertices.size() - 1);
    }
    /// Counter-clockwise seen from the side the triangle faces.
    void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        mesh_.indices.insert(mesh_.indices.end(), {a, b, c});
    }
    /// a, b, c, d counter-clockwise seen from the front; split along a-c.
    void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
        triangle(a, b, c);
        triangle(a, c, d);
    }
    TriangleMesh take() { return std::move(mesh_); }

private:
    TriangleMesh mesh_;
};

/// One cross-section of a swept tube: a circle around `center` in the plane normal to
/// `tangent`, which lies in the plane z = 0.
struct Ring {
    glm::vec3 center;
    glm::vec3 tangent; ///< Unit, z = 0: the direction the tube runs.
    float radius;
};

/// A closed tube through the rings (at least 2), with flat fans closing both ends. Vertex k of
/// a ring is center + radius (cos phi_k N + sin phi_k B) with the right-handed frame T, N, B:
/// N = (-T.y, T.x, 0) in the plane, B = +z. The surface's parameter directions phi then s give
/// (d/dphi) x (d/ds) pointing outward, so quads go around the ring first, then along the tube.
void addTube(MeshBuilder& builder, std::span<const Ring> rings, int sides) {
    std::vector<std::uint32_t> first(rings.size());
    for (std::size_t i = 0; i < rings.size(); ++i) {
        const Ring& ring = rings[i];
        const glm::vec3 n(-ring.tangent.y, ring.tangent.x, 0.0f);
        const glm::vec3 b(0.0f, 0.0f, 1.0f);
        for (int k = 0; k < sides; ++k) {
            const float phi = 2.0f * kPi * static_cast<float>(k) / static_cast<float>(sides);
            const std::uint32_t index =
                builder.vertex(ring.center + ring.radius * (std::cos(phi) * n + std::sin(phi) * b));
            if (k == 0) first[i] = index;
        }
    }
    const auto at = [&](std::size_t ring, int k) {
        return first[ring] + static_cast<std::uint32_t>(k % sides);
    };
    for (std::size_t i = 0; i + 1 < rings.size(); ++i) {
        for (int k = 0; k < sides; ++k)
            builder.quad(at(i, k), at(i, k + 1), at(i + 1, k + 1), at(i + 1, k));
    }
    // Ends: (center, v_k, v_k+1) faces along N x B = T, which is outward at the last ring.
    const std::uint32_t start = builder.vertex(rings.front().center);
    const std::uint32_t end = builder.vertex(rings.back().center);
    const std::size_t last = rings.size() - 1;
    for (int k = 0; k < sides; ++k) {
        builder.triangle(start, at(0, k + 1), at(0, k));
        builder.triangle(end, at(last, k), at(last, k + 1));
    }
}

/// Rings along a straight piece from `from` to `to` (excluding `from` when skipFirst), at most
/// maxStep apart.
void appendStraight(std::vector<Ring>& rings, glm::vec3 from, glm::vec3 to, float radius, float maxStep,
                    bool skipFirst) {
    const float length = glm::length(to - from);
    if (length <= 0.0f) return;
    const glm::vec3 tangent = (to - from) / length;
    const int steps = std::max(1, static_cast<int>(std::ceil(length / maxStep)));
    for (int i = skipFirst ? 1 : 0; i <= steps; ++i) {
        rings.push_back(
            {from + (length * static_cast<float>(i) / static_cast<float>(steps)) * tangent, tangent, radius});
    }
}

/// Rings along a circular arc around `center` in the plane z = 0 from angle a0 to a1 (radians,
/// counter-clockwise positive), excluding the first ring, at most maxStep radians apart.
void appendArc(std::vector<Ring>& rings, glm::vec3 center, float arcRadius, float a0, float a1,
               float tubeRadius, float maxStep) {
    const int steps = std::max(1, static_cast<int>(std::ceil(std::fabs(a1 - a0) / maxStep)));
    const float direction = a1 > a0 ? 1.0f : -1.0f;
    for (int i = 1; i <= steps; ++i) {
        const float a = a0 + (a1 - a0) * static_cast<float>(i) / static_cast<float>(steps);
        const glm::vec3 radial(std::cos(a), std::sin(a), 0.0f);
        const glm::vec3 tangent = direction * glm::vec3(-std::sin(a), std::cos(a), 0.0f);
        rings.push_back({center + arcRadius * radial, tangent, tubeRadius});
    }
}

void require(bool condition, const char* message) {
    if (!condition) throw std::invalid_argument(message);
}

bool positive(float x) {
    return std::isfinite(x) && x > 0.0f;
}

/// A number as printf's "%g" writes it.
std::string g(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

// ---- makeSteps: a 2-D profile (columns, their boundaries, cap polygons, outline), extruded.

/// The profile in the xy plane is a skyline: columns side by side on y = 0, each with a straight
/// top from (x0, leftTop) to (x1, rightTop).
struct Column {
    float x0, x1, leftTop, rightTop;
};

/// The lower steps are one flat column each; the top step is 2 * teeth columns sloping up and
/// down (or one flat column without teeth).
std::vector<Column> stepColumns(int stepCount, float stepRun, float stepRise, int teeth, float toothHeight) {
    const float width = static_cast<float>(stepCount) * stepRun;
    const float left = -0.5f * width;
    const auto xAt = [&](int step) { return left + static_cast<float>(step) * stepRun; };
    std::vector<Column> columns;
    for (int s = 0; s + 1 < stepCount; ++s) {
        const float top = static_cast<float>(s + 1) * stepRise;
        columns.push_back({xAt(s), xAt(s + 1), top, top});
    }
    const float topY = static_cast<float>(stepCount) * stepRise;
    const float topX0 = xAt(stepCount - 1);
    if (teeth == 0) {
        columns.push_back({topX0, xAt(stepCount), topY, topY});
    } else {
        const float toothWidth = stepRun / static_cast<float>(teeth);
        for (int t = 0; t < teeth; ++t) {
            const float a = topX0 + static_cast<float>(t) * toothWidth;
            const float b = t + 1 == teeth ? xAt(stepCount) : topX0 + static_cast<float>(t + 1) * toothWidth;
            const float m = 0.5f * (a + b);
            columns.push_back({a, m, topY, topY + toothHeight});
            columns.push_back({m, b, topY + toothHeight, topY});
        }
    }
    return columns;
}

/// The profile's 2-D points on one column boundary: y = 0 and the tops of the columns either
/// side. Boundary b lies between column b - 1 and column b.
struct Boundary {
    float x;
    float leftTop;  ///< Column b - 1's top here; -1 at the first boundary.
    float rightTop; ///< Column b's top here; -1 at the last boundary.
};

std::vector<Boundary> columnBoundaries(const std::vector<Column>& columns) {
    const std::size_t count = columns.size();
    std::vector<Boundary> boundaries(count + 1);
    for (std::size_t b = 0; b <= count; ++b) {
        boundaries[b].x = b < count ? columns[b].x0 : columns[count - 1].x1;
        boundaries[b].leftTop = b > 0 ? columns[b - 1].rightTop : -1.0f;
        boundaries[b].rightTop = b < count ? columns[b].leftTop : -1.0f;
    }
    return boundaries;
}

struct Point2 {
    float x, y;
    bool operator==(const Point2&) const = default;
};

/// Each column's cap polygon, counter-clockwise seen from +z: bottom left, bottom right, up the
/// right side (through the neighbour's lower top, if any), top right, top left, down the left
/// side. Shared boundary points are shared 2-D points, so the caps meet without T-junctions.
std::vector<std::vector<Point2>> capPolygons(const std::vector<Boundary>& boundaries) {
    const std::size_t count = boundaries.size() - 1;
    std::vector<std::vector<Point2>> polygons(count);
    for (std::size_t c = 0; c < count; ++c) {
        const Boundary& l = boundaries[c];
        const Boundary& r = boundaries[c + 1];
        std::vector<Point2>& polygon = polygons[c];
        polygon.push_back({l.x, 0.0f});
        polygon.push_back({r.x, 0.0f});
        if (r.rightTop > 0.0f && r.rightTop < r.leftTop) polygon.push_back({r.x, r.rightTop});
        polygon.push_back({r.x, r.leftTop});
        polygon.push_back({l.x, l.rightTop});
        if (l.leftTop > 0.0f && l.leftTop < l.rightTop) polygon.push_back({l.x, l.leftTop});
    }
    return polygons;
}

/// The outline, counter-clockwise seen from +z: along the floor to +x, up the right end, back
/// along the tops (with the steps' vertical faces between them), down the left end.
std::vector<Point2> profileOutline(const std::vector<Boundary>& boundaries) {
    const std::size_t count = boundaries.size() - 1;
    std::vector<Point2> outline;
    for (std::size_t b = 0; b <= count; ++b)
        outline.push_back({boundaries[b].x, 0.0f});
    for (std::size_t b = count; b > 0; --b) {
        const Boundary& boundary = boundaries[b];
        if (b < count) outline.push_back({boundary.x, boundary.rightTop});
        if (b == count || boundary.leftTop != boundary.rightTop)
            outline.push_back({boundary.x, boundary.leftTop});
    }
    outline.push_back({boundaries[0].x, boundaries[0].rightTop});
    return outline;
}

/// The profile extruded from z = -depth/2 to z = +depth/2: the cap polygons front and back, one
/// wall quad per outline edge.
TriangleMesh extrudeProfile(const std::vector<std::vector<Point2>>& polygons,
                            const std::vector<Point2>& outline, float depth) {
    // Vertices: each distinct 2-D point once at z = +depth/2 (front) and once at z = -depth/2.
    MeshBuilder builder;
    std::vector<Point2> points;
    std::vector<std::uint32_t> front, back;
    const float halfDepth = 0.5f * depth;
    const auto indexOf = [&](const Point2& p) {
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (points[i] == p) return i;
        }
        points.push_back(p);
        front.push_back(builder.vertex({p.x, p.y, halfDepth}));
        back.push_back(builder.vertex({p.x, p.y, -halfDepth}));
        return points.size() - 1;
    };
    // Caps: a fan around each (convex) column's centroid, so collinear side points make no
    // degenerate triangles.
    for (const std::vector<Point2>& polygon : polygons) {
        Point2 centroid{0.0f, 0.0f};
        for (const Point2& p : polygon) {
            centroid.x += p.x / static_cast<float>(polygon.size());
            centroid.y += p.y / static_cast<float>(polygon.size());
        }
        const std::uint32_t frontCenter = builder.vertex({centroid.x, centroid.y, halfDepth});
        const std::uint32_t backCenter = builder.vertex({centroid.x, centroid.y, -halfDepth});
        for (std::size_t i = 0; i < polygon.size(); ++i) {
            const std::size_t a = indexOf(polygon[i]);
            const std::size_t b = indexOf(polygon[(i + 1) % polygon.size()]);
            builder.triangle(frontCenter, front[a], front[b]);
            builder.triangle(backCenter, back[b], back[a]);
        }
    }
    // Walls: one quad per outline edge p -> q; (p front, p back, q back) has normal depth *
    // (dy, -dx, 0), to the right of a counter-clockwise outline: outward.
    for (std::size_t i = 0; i < outline.size(); ++i) {
        const std::size_t p = indexOf(outline[i]);
        const std::size_t q = indexOf(outline[(i + 1) % outline.size()]);
        builder.quad(front[p], back[p], back[q], front[q]);
    }
    return builder.take();
}

} // namespace

TriangleMesh makeTorus(float majorRadius, float minorRadius, int majorSegments, int minorSegments) {
    require(positive(majorRadius) && positive(minorRadius) && minorRadius < majorRadius,
            "makeTorus: needs 0 < minorRadius < majorRadius");
    require(majorSegments >= 3 && minorSegments >= 3, "makeTorus: needs at least 3 segments each way");
    // p(theta, phi) = ((R + r cos phi) cos theta, r sin phi, (R + r cos phi) sin theta). Outward is
    // (d/dphi) x (d/dtheta), so each quad goes along phi first, then along theta.
    MeshBuilder builder;
    for (int i = 0; i < majorSegments; ++i) {
        const float theta = 2.0f * kPi * static_cast<float>(i) / static_cast<float>(majorSegments);
        for (int j = 0; j < minorSegments; ++j) {
            const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(minorSegments);
            const float ring = majorRadius + minorRadius * std::cos(phi);
            builder.vertex({ring * std::cos(theta), minorRadius * std::sin(phi), ring * std::sin(theta)});
        }
    }
    const auto at = [&](int i, int j) {
        return static_cast<std::uint32_t>((i % majorSegments) * minorSegments + j % minorSegments);
    };
    for (int i = 0; i < majorSegments; ++i) {
        for (int j = 0; j < minorSegments; ++j)
            builder.quad(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j));
    }
    return builder.take();
}

TriangleMesh makeSteps(int stepCount, float stepRun, float stepRise, float depth, int teeth,
                       float toothHeight) {
    require(stepCount >= 1 && positive(stepRun) && positive(stepRise) && positive(depth),
            "makeSteps: needs stepCount >= 1 and positive stepRun, stepRise and depth");
    require(teeth >= 0 && (teeth == 0 || positive(toothHeight)),
            "makeSteps: needs teeth >= 0 and toothHeight > 0");
    const std::vector<Boundary> boundaries =
        columnBoundaries(stepColumns(stepCount, stepRun, stepRise, teeth, toothHeight));
    return extrudeProfile(capPolygons(boundaries), profileOutline(boundaries), depth);
}

TriangleMesh makeArch(const ArchParams& p) {
    require(positive(p.baseRadius) && positive(p.baseHeight) && positive(p.tubeRadius) &&
                positive(p.postTop) && positive(p.bendRadius) && positive(p.dropRadius) &&
                positive(p.headTopRadius) && positive(p.headBottomRadius) && positive(p.headHeight) &&
                std::isfinite(p.run) && p.run >= 0.0f && std::isfinite(p.drop) && p.drop >= 0.0f,
            "makeArch: needs positive sizes (run and drop may be 0)");
    require(p.tubeRadius < p.bendRadius && p.tubeRadius < p.dropRadius,
            "makeArch: the bends' radii must exceed the tube's radius");
    require(p.tubeRadius < p.baseRadius && p.tubeRadius < p.headTopRadius,
            "makeArch: the base and the head's top must be wider than the tube");
    require(p.postTop > p.baseHeight, "makeArch: the post must rise above the base");
    require(p.headHeight > kArchHeadAboveNeckEnd, "makeArch: the head must be taller than 0.12");
    require(p.tubeSides >= 3 && p.discSides >= 3, "makeArch: needs at least 3 sides");
    require(positive(p.maxBendStepDeg) && positive(p.maxStraightStep), "makeArch: needs positive step sizes");

    MeshBuilder builder;
    const glm::vec3 up(0.0f, 1.0f, 0.0f);
    const glm::vec3 down(0.0f, -1.0f, 0.0f);

    // The base: a disc from y = 0 to baseHeight.
    const Ring base[] = {{glm::vec3(0.0f), up, p.baseRadius},
                         {glm::vec3(0.0f, p.baseHeight, 0.0f), up, p.baseRadius}};
    addTube(builder, base, p.discSides);

    // The neck, from the middle of the base up, over and down.
    const float bendStep = p.maxBendStepDeg * kPi / 180.0f;
    std::vector<Ring> neck;
    const glm::vec3 postBottom(0.0f, 0.5f * p.baseHeight, 0.0f);
    const glm::vec3 postTop(0.0f, p.postTop, 0.0f);
    appendStraight(neck, postBottom, postTop, p.tubeRadius, p.maxStraightStep, false);
    const glm::vec3 bendCenter(p.bendRadius, p.postTop, 0.0f);
    appendArc(neck, bendCenter, p.bendRadius, kPi, 0.5f * kPi, p.tubeRadius, bendStep);
    const glm::vec3 runStart(p.bendRadius, p.postTop + p.bendRadius, 0.0f);
    const glm::vec3 runEnd = runStart + glm::vec3(p.run, 0.0f, 0.0f);
    appendStraight(neck, runStart, runEnd, p.tubeRadius, p.maxStraightStep, true);
    const glm::vec3 dropCenter = runEnd - glm::vec3(0.0f, p.dropRadius, 0.0f);
    appendArc(neck, dropCenter, p.dropRadius, 0.5f * kPi, 0.0f, p.tubeRadius, bendStep);
    const glm::vec3 neckEnd(archNeckEndX(p), archNeckEndY(p), 0.0f);
    appendStraight(neck, neck.back().center, neckEnd, p.tubeRadius, p.maxStraightStep, true);
    // The arcs' last rings land on exact points; the straight pieces' sample points stay within
    // rounding of them.
    addTube(builder, neck, p.tubeSides);

    // The head: a truncated cone hanging around the neck's end, from its top down to its rim.
    const glm::vec3 headTop = neckEnd + glm::vec3(0.0f, kArchHeadAboveNeckEnd, 0.0f);
    const Ring head[] = {{headTop, down, p.headTopRadius},
                         {headTop - glm::vec3(0.0f, p.headHeight, 0.0f), down, p.headBottomRadius}};
    addTube(builder, head, p.discSides);
    return builder.take();
}

// The parameters of the project's torus and steps (makeTorus's and makeSteps's defaults).
constexpr float kTorusMajor = 0.7f, kTorusMinor = 0.25f;
constexpr int kTorusMajorSegments = 48, kTorusMinorSegments = 24;
constexpr int kStepCount = 5, kStepTeeth = 4;
constexpr float kStepRun = 0.4f, kStepRise = 0.2f, kStepDepth = 1.0f, kToothHeight = 0.15f;

std::vector<ProjectMesh> projectMeshes() {
    const std::string tool =
        "Generated by kz_meshgen (src/tools/mesh_gen.cpp, src/meshio/shapes.cpp); do not edit.\n";
    std::vector<ProjectMesh> meshes;

    const ArchParams a{};
    const std::string arch =
        tool + "makeArch: a lamp-like arch standing on y = 0 in the plane z = 0.\n" + "base: disc radius " +
        g(a.baseRadius) + ", height " + g(a.baseHeight) + "; neck: tube radius " + g(a.tubeRadius) +
        ", post up to y = " + g(a.postTop) + ", bend radius " + g(a.bendRadius) + ", run " + g(a.run) +
        ", drop bend radius " + g(a.dropRadius) + ", drop " + g(a.drop) +
        ";\nhead: truncated cone, top radius " + g(a.headTopRadius) + ", bottom radius " +
        g(a.headBottomRadius) + ", height " + g(a.headHeight) + "; " + std::to_string(a.tubeSides) +
        " tube sides, " + std::to_string(a.discSides) + " disc sides, bend steps <= " + g(a.maxBendStepDeg) +
        " deg, straight steps <= " + g(a.maxStraightStep) + " m.\n" +
        "opening: a ball of radius <= " + g(kArchOpeningRadius) + " moving along z through (" +
        g(kArchOpening.x) + ", " + g(kArchOpening.y) + ", z) touches nothing; neck target (" +
        g(kArchNeckTarget.x) + ", " + g(kArchNeckTarget.y) + ", " + g(kArchNeckTarget.z) + ").\n";
    meshes.push_back({"arch.obj", arch, makeArch(a)});

    const std::string torus = tool + "makeTorus: a torus around the +y axis, centred at the origin.\n" +
                              "major radius " + g(kTorusMajor) + ", minor radius " + g(kTorusMinor) + ", " +
                              std::to_string(kTorusMajorSegments) + " major segments, " +
                              std::to_string(kTorusMinorSegments) + " minor segments.\n";
    meshes.push_back(
        {"torus.obj", torus, makeTorus(kTorusMajor, kTorusMinor, kTorusMajorSegments, kTorusMinorSegments)});

    const std::string steps =
        tool + "makeSteps: steps rising toward +x on y = 0, saw-teeth on the top step.\n" +
        std::to_string(kStepCount) + " steps, run " + g(kStepRun) + ", rise " + g(kStepRise) + ", depth " +
        g(kStepDepth) + ", " + std::to_string(kStepTeeth) + " teeth " + g(kToothHeight) + " high.\n";
    meshes.push_back({"steps.obj", steps,
                      makeSteps(kStepCount, kStepRun, kStepRise, kStepDepth, kStepTeeth, kToothHeight)});
    return meshes;
}

} // namespace kz
