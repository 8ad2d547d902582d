// The generated meshes (meshio/shapes.hpp): each closed, outward-wound and free of degenerate
// triangles, with the volume its construction predicts and inside its documented bounds; the
// arch's documented opening is free and its neck target is on the neck; and the committed
// assets/meshes/*.obj are byte for byte what kz_meshgen writes now.
#include "geom/closest.hpp"
#include "geom/mesh_bvh.hpp"
#include "geom/raycast.hpp"
#include "meshio/obj.hpp"
#include "meshio/shapes.hpp"
#include "support/temp_dir.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using kz::test::readBytes;
using kz::test::TempDir;

using kz::TriangleMesh;
constexpr double kPi = std::numbers::pi;

kz::Triangle triangleOf(const TriangleMesh& mesh, std::size_t t) {
    return {mesh.vertices[mesh.indices[3 * t]], mesh.vertices[mesh.indices[3 * t + 1]],
            mesh.vertices[mesh.indices[3 * t + 2]]};
}

/// Closed and consistently wound: every directed edge appears once and its reverse once, so
/// every undirected edge is shared by exactly two triangles that traverse it in opposite
/// directions. Also: indices in range, finite vertices, no zero-area triangle.
void expectClosedAndConsistent(const TriangleMesh& mesh) {
    ASSERT_FALSE(mesh.indices.empty());
    ASSERT_EQ(mesh.indices.size() % 3, 0u);
    for (const std::uint32_t index : mesh.indices)
        ASSERT_LT(index, mesh.vertices.size());
    for (const glm::vec3& v : mesh.vertices)
        ASSERT_TRUE(kz::isFinite(v));
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    const std::size_t triangles = mesh.indices.size() / 3;
    for (std::size_t t = 0; t < triangles; ++t) {
        for (int k = 0; k < 3; ++k) {
            ++directed[{mesh.indices[3 * t + k], mesh.indices[3 * t + (k + 1) % 3]}];
        }
        const kz::Triangle tri = triangleOf(mesh, t);
        const double area = 0.5 * glm::length(glm::cross(glm::dvec3(tri.b) - glm::dvec3(tri.a),
                                                         glm::dvec3(tri.c) - glm::dvec3(tri.a)));
        EXPECT_GT(area, 1e-7) << "triangle " << t << " is degenerate";
        EXPECT_TRUE(kz::isValid(tri)) << "triangle " << t;
    }
    int bad = 0;
    for (const auto& [edge, count] : directed) {
        const auto reverse = directed.find({edge.second, edge.first});
        const bool ok = count == 1 && reverse != directed.end() && reverse->second == 1;
        if (!ok && ++bad <= 5) {
            ADD_FAILURE() << "edge " << edge.first << "-" << edge.second << " used " << count
                          << " times, reverse " << (reverse == directed.end() ? 0 : reverse->second)
                          << " times";
        }
    }
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(directed.size(), mesh.indices.size()); // 3 directed edges a triangle, all distinct
}

/// Sum over the triangles of dot(a, b x c) / 6: the enclosed volume, positive when outward.
double signedVolume(const TriangleMesh& mesh) {
    double volume = 0.0;
    for (std::size_t t = 0; t < mesh.indices.size() / 3; ++t) {
        const kz::Triangle tri = triangleOf(mesh, t);
        volume += glm::dot(glm::dvec3(tri.a), glm::cross(glm::dvec3(tri.b), glm::dvec3(tri.c))) / 6.0;
    }
    return volume;
}

void expectInside(const TriangleMesh& mesh, glm::vec3 lo, glm::vec3 hi) {
    constexpr float kSlack = 1e-5f;
    for (const glm::vec3& v : mesh.vertices) {
        for (int k = 0; k < 3; ++k) {
            ASSERT_GE(v[k], lo[k] - kSlack) << "axis " << k;
            ASSERT_LE(v[k], hi[k] + kSlack) << "axis " << k;
        }
    }
}

glm::vec3 boundsMin(const TriangleMesh& mesh) {
    glm::vec3 lo(INFINITY);
    for (const glm::vec3& v : mesh.vertices)
        lo = glm::min(lo, v);
    return lo;
}
glm::vec3 boundsMax(const TriangleMesh& mesh) {
    glm::vec3 hi(-INFINITY);
    for (const glm::vec3& v : mesh.vertices)
        hi = glm::max(hi, v);
    return hi;
}

/// Exact distance between the segment [p, q] and a triangle: 0 if the segment crosses it, else
/// the least of the endpoints' distances to the triangle and the segment's to each edge.
float distanceSegmentTriangle(glm::vec3 p, glm::vec3 q, const kz::Triangle& tri) {
    if (kz::raycast(kz::Ray{p, q - p}, tri, 1.0f)) return 0.0f;
    float best = std::min(glm::length(p - kz::closestPtPointTriangle(p, tri)),
                          glm::length(q - kz::closestPtPointTriangle(q, tri)));
    const glm::vec3 corners[] = {tri.a, tri.b, tri.c};
    for (int k = 0; k < 3; ++k) {
        const auto closest =
            kz::closestPtLinePieces(kz::asSegment(p, q), kz::asSegment(corners[k], corners[(k + 1) % 3]));
        if (closest) best = std::min(best, std::sqrt(closest->sqDist));
    }
    return best;
}

float distanceSegmentMesh(glm::vec3 p, glm::vec3 q, const TriangleMesh& mesh) {
    float best = INFINITY;
    for (std::size_t t = 0; t < mesh.indices.size() / 3; ++t) {
        best = std::min(best, distanceSegmentTriangle(p, q, triangleOf(mesh, t)));
    }
    return best;
}

// =============================================================================================
// Torus

TEST(Torus, IsClosedAndConsistentlyWound) {
    expectClosedAndConsistent(kz::makeTorus());
}

TEST(Torus, VolumeIsPositiveAndCloseToTwoPiSquaredRrSquared) {
    const float R = 0.7f, r = 0.25f;
    const TriangleMesh mesh = kz::makeTorus(R, r, 48, 24);
    const double analytic = 2.0 * kPi * kPi * R * r * r;
    const double volume = signedVolume(mesh);
    EXPECT_GT(volume, 0.0);
    EXPECT_NEAR(volume / analytic, 1.0, 0.03) << volume << " vs " << analytic;
    EXPECT_LT(volume, analytic); // inscribed polygons
}

TEST(Torus, HasTheDocumentedTriangleCountAndBounds) {
    const TriangleMesh mesh = kz::makeTorus(0.7f, 0.25f, 48, 24);
    EXPECT_EQ(mesh.indices.size() / 3, 2u * 48 * 24);
    EXPECT_LE(mesh.indices.size() / 3, 3000u);
    expectInside(mesh, glm::vec3(-0.95f, -0.25f, -0.95f), glm::vec3(0.95f, 0.25f, 0.95f));
    EXPECT_NEAR(boundsMax(mesh).x, 0.95f, 1e-5f);
    EXPECT_NEAR(boundsMax(mesh).y, 0.25f, 0.01f);
}

TEST(Torus, CoarseAndFineTorusesAreClosedToo) {
    expectClosedAndConsistent(kz::makeTorus(1.0f, 0.1f, 3, 3));
    expectClosedAndConsistent(kz::makeTorus(2.0f, 1.5f, 7, 5));
}

TEST(Torus, BadParametersThrow) {
    EXPECT_THROW(kz::makeTorus(0.5f, 0.5f), std::invalid_argument);
    EXPECT_THROW(kz::makeTorus(0.5f, -0.1f), std::invalid_argument);
    EXPECT_THROW(kz::makeTorus(1.0f, 0.2f, 2, 8), std::invalid_argument);
    EXPECT_THROW(kz::makeTorus(NAN, 0.2f), std::invalid_argument);
}

// =============================================================================================
// Steps

TEST(Steps, AreClosedAndConsistentlyWound) {
    expectClosedAndConsistent(kz::makeSteps());
}

TEST(Steps, VolumeIsTheProfileAreaTimesTheDepth) {
    // Lower steps: run * rise * (1 + ... + (n-1)); the top step: run * n * rise; each tooth a
    // triangle of its width and the tooth height, so all teeth add run * toothHeight / 2.
    const int n = 5;
    const double run = 0.4, rise = 0.2, depth = 1.0, tooth = 0.15;
    const double profile = run * rise * (n - 1) * n / 2.0 + run * n * rise + run * tooth / 2.0;
    EXPECT_NEAR(signedVolume(kz::makeSteps(n, 0.4f, 0.2f, 1.0f, 4, 0.15f)), profile * depth, 1e-5);
}

TEST(Steps, StandOnTheFloorInsideTheDocumentedBounds) {
    const TriangleMesh mesh = kz::makeSteps();
    expectInside(mesh, glm::vec3(-1.0f, 0.0f, -0.5f), glm::vec3(1.0f, 1.15f, 0.5f));
    EXPECT_FLOAT_EQ(boundsMin(mesh).y, 0.0f);
    EXPECT_NEAR(boundsMax(mesh).y, 1.15f, 1e-6f);
    EXPECT_LE(mesh.indices.size() / 3, 400u);
}

TEST(Steps, OtherCountsAndNoTeethAreClosedToo) {
    for (int steps : {1, 2, 7}) {
        for (int teeth : {0, 1, 3}) {
            SCOPED_TRACE("steps " + std::to_string(steps) + ", teeth " + std::to_string(teeth));
            const TriangleMesh mesh = kz::makeSteps(steps, 0.3f, 0.1f, 0.5f, teeth, 0.2f);
            expectClosedAndConsistent(mesh);
            const double profile =
                0.3 * 0.1 * steps * (steps + 1) / 2.0 + (teeth > 0 ? 0.3 * 0.2 / 2.0 : 0.0);
            EXPECT_NEAR(signedVolume(mesh), profile * 0.5, 1e-5);
        }
    }
}

TEST(Steps, BadParametersThrow) {
    EXPECT_THROW(kz::makeSteps(0), std::invalid_argument);
    EXPECT_THROW(kz::makeSteps(3, -0.4f), std::invalid_argument);
    EXPECT_THROW(kz::makeSteps(3, 0.4f, 0.2f, 1.0f, -1), std::invalid_argument);
    EXPECT_THROW(kz::makeSteps(3, 0.4f, 0.2f, 1.0f, 2, 0.0f), std::invalid_argument);
}

// =============================================================================================
// Arch

TEST(Arch, IsClosedAndConsistentlyWound) {
    expectClosedAndConsistent(kz::makeArch());
}

TEST(Arch, VolumeIsTheSumOfItsThreeParts) {
    // The parts overlap, so the signed volume counts each fully: the base disc, the neck (by
    // Pappus, cross-section area times centre-line length), the shade (a frustum).
    const kz::ArchParams p{};
    const double base = kPi * p.baseRadius * p.baseRadius * p.baseHeight;
    const double length = (p.postTop - 0.5 * p.baseHeight) + 0.5 * kPi * p.bendRadius + p.run +
                          0.5 * kPi * p.dropRadius + p.drop;
    const double neck = kPi * p.tubeRadius * p.tubeRadius * length;
    const double r0 = p.headTopRadius, r1 = p.headBottomRadius;
    const double head = kPi * p.headHeight / 3.0 * (r0 * r0 + r0 * r1 + r1 * r1);
    const double volume = signedVolume(kz::makeArch());
    EXPECT_GT(volume, 0.0);
    EXPECT_NEAR(volume / (base + neck + head), 1.0, 0.02) << volume << " vs " << base + neck + head;
}

TEST(Arch, FitsTheDocumentedBoundsAndScale) {
    const TriangleMesh mesh = kz::makeArch();
    expectInside(mesh, kz::kArchBoundsMin, kz::kArchBoundsMax);
    EXPECT_FLOAT_EQ(boundsMin(mesh).y, 0.0f);     // stands on the floor
    EXPECT_NEAR(boundsMax(mesh).y, 2.18f, 0.01f); // about 2.2 tall
    EXPECT_NEAR(boundsMax(mesh).x - boundsMin(mesh).x, 2.07f, 0.01f);
    EXPECT_NEAR(boundsMax(mesh).x, 1.62f, 0.01f); // reach about 1.6
    EXPECT_LE(mesh.indices.size() / 3, 6000u);
}

TEST(Arch, BallOfTheDocumentedRadiusPassesThroughTheOpeningAlongZ) {
    const TriangleMesh mesh = kz::makeArch();
    const glm::vec3 from = kz::kArchOpening + glm::vec3(0, 0, -3);
    const glm::vec3 to = kz::kArchOpening + glm::vec3(0, 0, 3);
    const float clearance = distanceSegmentMesh(from, to, mesh);
    EXPECT_GT(clearance, kz::kArchOpeningRadius);
    EXPECT_GT(clearance, 0.25f + 0.1f);   // clearly room for a ball of radius 0.25
    EXPECT_NEAR(clearance, 0.42f, 0.01f); // the post, as documented
}

TEST(Arch, OpeningIsUnderTheNeckBetweenThePostAndTheHead) {
    // Not just open space beside the arch: straight up from the opening there is the neck, and
    // along x the post on one side, the head's rim on the other (within a ball's reach).
    const kz::MeshBvh bvh = kz::MeshBvh::build(kz::makeArch().vertices, kz::makeArch().indices);
    EXPECT_TRUE(bvh.raycast(kz::Ray{kz::kArchOpening, glm::vec3(0, 1, 0)}));
    EXPECT_TRUE(bvh.raycast(kz::Ray{kz::kArchOpening, glm::vec3(-1, 0, 0)}));
    const glm::vec3 rimLevel(kz::kArchOpening.x, 1.3f, 0.0f);
    EXPECT_TRUE(bvh.raycast(kz::Ray{rimLevel, glm::vec3(1, 0, 0)}, 1.0f));
}

TEST(Arch, BallAimedAtTheNeckTargetAlongZHitsTheNeck) {
    const TriangleMesh mesh = kz::makeArch();
    const glm::vec3 from = kz::kArchNeckTarget + glm::vec3(0, 0, -3);
    const glm::vec3 to = kz::kArchNeckTarget + glm::vec3(0, 0, 3);
    EXPECT_EQ(distanceSegmentMesh(from, to, mesh), 0.0f); // the line crosses the tube's surface
    const kz::MeshBvh bvh = kz::MeshBvh::build(mesh.vertices, mesh.indices);
    const auto hit = bvh.raycast(kz::Ray{from, glm::vec3(0, 0, 1)});
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(hit->point.z, -kz::ArchParams{}.tubeRadius, 0.002f); // the tube's near side
    EXPECT_LT(hit->normal.z, -0.99f);
    // Even a small ball aimed off the centre line by most of the tube radius still hits.
    const glm::vec3 offset = kz::kArchNeckTarget + glm::vec3(0, 0.1f, 0);
    EXPECT_TRUE(bvh.raycast(kz::Ray{offset + glm::vec3(0, 0, -3), glm::vec3(0, 0, 1)}));
}

TEST(Arch, NeckIsThickEnoughToBounceOff) {
    EXPECT_GE(kz::ArchParams{}.tubeRadius, 0.12f);
}

TEST(Arch, BadParametersThrow) {
    kz::ArchParams p;
    p.tubeRadius = 0.6f; // wider than the first bend
    EXPECT_THROW(kz::makeArch(p), std::invalid_argument);
    p = {};
    p.tubeSides = 2;
    EXPECT_THROW(kz::makeArch(p), std::invalid_argument);
    p = {};
    p.baseHeight = -1.0f;
    EXPECT_THROW(kz::makeArch(p), std::invalid_argument);
}

TEST(Arch, OtherParametersGiveClosedMeshesToo) {
    kz::ArchParams p;
    p.run = 0.0f;
    p.drop = 0.0f;
    p.tubeSides = 5;
    p.discSides = 7;
    expectClosedAndConsistent(kz::makeArch(p));
    EXPECT_GT(signedVolume(kz::makeArch(p)), 0.0);
}

// =============================================================================================
// Every generated mesh

TEST(ProjectMeshes, AreTheArchTorusAndStepsWithTheirDefaults) {
    const auto meshes = kz::projectMeshes();
    ASSERT_EQ(meshes.size(), 3u);
    EXPECT_EQ(meshes[0].fileName, "arch.obj");
    EXPECT_EQ(meshes[1].fileName, "torus.obj");
    EXPECT_EQ(meshes[2].fileName, "steps.obj");
    const TriangleMesh defaults[] = {kz::makeArch(), kz::makeTorus(), kz::makeSteps()};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(meshes[i].mesh.vertices, defaults[i].vertices) << meshes[i].fileName;
        EXPECT_EQ(meshes[i].mesh.indices, defaults[i].indices) << meshes[i].fileName;
        EXPECT_EQ(meshes[i].header.rfind("Generated by kz_meshgen", 0), 0u);
    }
}

TEST(ProjectMeshes, EachBuildsABvhWithNoTriangleSkipped) {
    for (const kz::ProjectMesh& project : kz::projectMeshes()) {
        std::string error;
        const auto bvh = kz::MeshBvh::tryBuild(project.mesh.vertices, project.mesh.indices, error);
        ASSERT_TRUE(bvh.has_value()) << project.fileName << ": " << error;
        // A ray from outside toward a triangle's centre, against its normal, hits the mesh.
        for (std::size_t t = 0; t < project.mesh.indices.size() / 3; t += 97) {
            const kz::Triangle tri = triangleOf(project.mesh, t);
            const glm::vec3 center = (tri.a + tri.b + tri.c) / 3.0f;
            const glm::vec3 normal = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
            const auto hit = bvh->raycast(kz::Ray{center + 10.0f * normal, -normal});
            ASSERT_TRUE(hit.has_value()) << project.fileName << " triangle " << t;
            EXPECT_LE(hit->t, 10.0f + 1e-4f);
        }
    }
}

TEST(CommittedMeshes, AreExactlyWhatKzMeshgenWritesNow) {
    const TempDir dir;
    const std::filesystem::path committed = std::filesystem::path(KZ_SOURCE_DIR) / "assets" / "meshes";
    for (const kz::ProjectMesh& project : kz::projectMeshes()) {
        std::string error;
        ASSERT_TRUE(kz::writeObj(dir.path() / project.fileName, project.mesh, project.header, error))
            << error;
        const std::string fresh = readBytes(dir.path() / project.fileName);
        ASSERT_TRUE(std::filesystem::exists(committed / project.fileName)) << (committed / project.fileName);
        EXPECT_TRUE(fresh == readBytes(committed / project.fileName))
            << (committed / project.fileName) << " differs from what kz_meshgen writes now; run "
            << "kz_meshgen --out assets/meshes";
    }
}

TEST(CommittedMeshes, LoadSmallClosedAndCloseToTheGeneratedOnes) {
    const std::filesystem::path committed = std::filesystem::path(KZ_SOURCE_DIR) / "assets" / "meshes";
    for (const kz::ProjectMesh& project : kz::projectMeshes()) {
        const std::filesystem::path file = committed / project.fileName;
        SCOPED_TRACE(file.string());
        EXPECT_LT(std::filesystem::file_size(file), 400u * 1024u);
        std::string error;
        const auto mesh = kz::loadObj(file, error);
        ASSERT_TRUE(mesh.has_value()) << error;
        expectClosedAndConsistent(*mesh);
        EXPECT_EQ(mesh->indices, project.mesh.indices);
        ASSERT_EQ(mesh->vertices.size(), project.mesh.vertices.size());
        float worst = 0.0f;
        for (std::size_t i = 0; i < mesh->vertices.size(); ++i) {
            worst = std::max(worst, glm::length(mesh->vertices[i] - project.mesh.vertices[i]));
        }
        EXPECT_LT(worst, 1e-5f); // 6 significant digits of numbers below 3
        EXPECT_NEAR(signedVolume(*mesh), signedVolume(project.mesh), 1e-4 * signedVolume(project.mesh));
    }
}

} // namespace
