// OBJ reading and writing (meshio/obj.hpp): valid files of every accepted form, every kind of bad
// input (each an error of one line naming the file and, where it belongs to one, the line), a
// seeded fuzz of damaged files, and write/read round trips.
#include "meshio/obj.hpp"
#include "support/temp_dir.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>
#include <tiny_obj_loader.h>
#include <unistd.h>
#include <vector>

namespace {

using kz::test::readBytes;
using kz::test::TempDir;

using kz::TriangleMesh;

const std::string kName = "meshes/x.obj";

/// Expects `text` to be rejected: no mesh, and an error of one line that starts with the name
/// and then ":<line>: " (or ": " when line is 0), and contains `fragment`.
void expectRejected(const std::string& text, int line, const std::string& fragment) {
    std::string error;
    const auto mesh = kz::parseObj(text, kName, error);
    EXPECT_FALSE(mesh.has_value()) << "accepted: " << text;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_EQ(error.find('\r'), std::string::npos) << error;
    const std::string prefix = kName + (line > 0 ? ":" + std::to_string(line) + ": " : ": ");
    EXPECT_EQ(error.substr(0, prefix.size()), prefix) << error;
    EXPECT_NE(error.find(fragment), std::string::npos) << "error: " << error << "\nwanted: " << fragment;
}

TriangleMesh expectAccepted(const std::string& text) {
    std::string error = "stale";
    const auto mesh = kz::parseObj(text, kName, error);
    EXPECT_TRUE(mesh.has_value()) << error;
    EXPECT_TRUE(error.empty()) << error;
    return mesh.value_or(TriangleMesh{});
}

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

double signedArea2(const TriangleMesh& mesh, std::size_t t) {
    const glm::dvec3 a(mesh.vertices[mesh.indices[3 * t]]);
    const glm::dvec3 b(mesh.vertices[mesh.indices[3 * t + 1]]);
    const glm::dvec3 c(mesh.vertices[mesh.indices[3 * t + 2]]);
    return glm::cross(b - a, c - a).z;
}

// =============================================================================================
// Valid files

TEST(ObjRead, ValidTriangleFileLoads) {
    const TriangleMesh mesh = expectAccepted(kTriangle);
    ASSERT_EQ(mesh.vertices.size(), 3u);
    EXPECT_EQ(mesh.vertices[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(ObjRead, NumbersInEveryDecimalFormAreRead) {
    const TriangleMesh mesh = expectAccepted("v +1.5 -.25 2.\nv 1e2 -3E-1 0.125e+1\nv 7 8 9\nf 1 2 3\n");
    EXPECT_EQ(mesh.vertices[0], glm::vec3(1.5f, -0.25f, 2.0f));
    EXPECT_EQ(mesh.vertices[1], glm::vec3(100.0f, -0.3f, 1.25f));
}

TEST(ObjRead, QuadIsSplitIntoTwoTrianglesOfItsOrientation) {
    const TriangleMesh mesh = expectAccepted("v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nf 1 2 3 4\n");
    ASSERT_EQ(mesh.indices.size(), 6u);
    double area = 0;
    for (std::size_t t = 0; t < 2; ++t) {
        EXPECT_GT(signedArea2(mesh, t), 0.0);
        area += signedArea2(mesh, t) / 2;
    }
    EXPECT_DOUBLE_EQ(area, 2.0);
}

TEST(ObjRead, ConvexHexagonIsSplitIntoFourTrianglesCoveringIt) {
    std::string text;
    for (int i = 0; i < 6; ++i) {
        const double a = 2 * M_PI * i / 6;
        text += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
    }
    const TriangleMesh mesh = expectAccepted(text + "f 1 2 3 4 5 6\n");
    ASSERT_EQ(mesh.indices.size(), 12u);
    double area = 0;
    for (std::size_t t = 0; t < 4; ++t) {
        EXPECT_GT(signedArea2(mesh, t), 0.0);
        area += signedArea2(mesh, t) / 2;
    }
    EXPECT_NEAR(area, 1.5 * std::sqrt(3.0), 1e-5);
}

TEST(ObjRead, NegativeIndicesCountBackFromTheLatestVertex) {
    // The second face's -3 -2 -1 are vertices 4, 5, 6, read after the first face.
    const TriangleMesh mesh = expectAccepted("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n"
                                             "v 0 0 1\nv 1 0 1\nv 0 1 1\nf -3 -2 -1\nf 1 -2 6\n");
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 0, 4, 5}));
}

TEST(ObjRead, ReferencesWithTextureCoordinatesAndNormalsKeepThePositions) {
    const TriangleMesh mesh = expectAccepted("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1 0\nvn 0 0 1\n"
                                             "f 1/1/1 2/2/1 3/3/1\nf 1//1 2//1 3//-1\nf 1/-3 2/-2 3/-1\n");
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

TEST(ObjRead, ObjectsGroupsAndMaterialsAreMergedIntoOneMesh) {
    const TriangleMesh mesh =
        expectAccepted("mtllib does-not-exist.mtl\no first\ng a b\nusemtl red\ns 1\n" + kTriangle +
                       "o second\ng c\nusemtl blue\ns off\n"
                       "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nf 4 5 6 7\n"
                       "l 1 2 3\np 1\nvp 0.5\n");
    EXPECT_EQ(mesh.vertices.size(), 7u);
    EXPECT_EQ(mesh.indices.size(), 9u);
}

TEST(ObjRead, CommentsBlankLinesCrlfCrAndByteOrderMarkAreAccepted) {
    const TriangleMesh mesh =
        expectAccepted("\xEF\xBB\xBF# a comment\r\n\r\n  v 0 0 0 # end-of-line comment\r"
                       "v 1 0 0\t\r\nv 0 1 0\n\tf 1 2 3 # done");
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(ObjRead, VertexWithWeightOrColourKeepsItsPosition) {
    const TriangleMesh mesh = expectAccepted("v 0 0 0 1\nv 1 0 0 0.5 0.5 0.5\nv 0 1 0\nf 1 2 3\n");
    EXPECT_EQ(mesh.vertices[1], glm::vec3(1, 0, 0));
}

TEST(ObjRead, UnusedVerticesAreKeptInFileOrder) {
    const TriangleMesh mesh = expectAccepted("v 9 9 9\n" + kTriangle.substr(0, 24) + "f 2 3 4\n");
    ASSERT_EQ(mesh.vertices.size(), 4u);
    EXPECT_EQ(mesh.vertices[0], glm::vec3(9, 9, 9));
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{1, 2, 3}));
}

// =============================================================================================
// Files that cannot be read

TEST(ObjLoad, MissingFileIsOneLineErrorNamingTheFile) {
    const TempDir dir;
    const std::filesystem::path file = dir.path() / "missing.obj";
    std::string error;
    EXPECT_FALSE(kz::loadObj(file, error));
    EXPECT_EQ(error, file.string() + ": no such file");
}

TEST(ObjLoad, DirectoryIsOneLineError) {
    const TempDir dir;
    std::string error;
    EXPECT_FALSE(kz::loadObj(dir.path(), error));
    EXPECT_EQ(error, dir.path().string() + ": is a directory, not a file");
}

TEST(ObjLoad, DeviceIsNotARegularFile) {
    std::string error;
    EXPECT_FALSE(kz::loadObj("/dev/zero", error)); // would never end if read
    EXPECT_EQ(error, "/dev/zero: is not a regular file");
}

TEST(ObjLoad, UnreadableFileIsOneLineError) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads every file";
    const TempDir dir;
    const auto file = dir.write("secret.obj", kTriangle);
    std::filesystem::permissions(file, std::filesystem::perms::none);
    std::string error;
    EXPECT_FALSE(kz::loadObj(file, error));
    EXPECT_EQ(error.rfind(file.string() + ": cannot read (", 0), 0u) << error;
}

TEST(ObjLoad, EmptyFileIsOneLineError) {
    const TempDir dir;
    const auto file = dir.write("empty.obj", "");
    std::string error;
    EXPECT_FALSE(kz::loadObj(file, error));
    EXPECT_EQ(error, file.string() + ": the file is empty");
}

TEST(ObjLoad, ValidFileLoadsAndClearsTheError) {
    const TempDir dir;
    const auto file = dir.write("ok.obj", kTriangle);
    std::string error = "stale";
    const auto mesh = kz::loadObj(file, error);
    ASSERT_TRUE(mesh.has_value()) << error;
    EXPECT_TRUE(error.empty());
    EXPECT_EQ(mesh->indices.size(), 3u);
}

TEST(ObjLoad, ErrorsInAFileNameTheFileAndTheLine) {
    const TempDir dir;
    const auto file = dir.write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 40\n");
    std::string error;
    EXPECT_FALSE(kz::loadObj(file, error));
    EXPECT_EQ(error, file.string() + ":4: face index 40 is out of range (3 vertices)");
}

TEST(ObjLoad, AFileOverTheSizeLimitIsOneLineErrorAndIsNotRead) {
    const TempDir dir;
    // A valid mesh padded with a comment to one byte over the limit.
    std::string text = std::string(kTriangle) + "# ";
    text.resize(kz::kMaxObjBytes, 'x');
    text += "\n";
    const auto file = dir.write("big.obj", text);
    std::string error;
    EXPECT_FALSE(kz::loadObj(file, error));
    EXPECT_EQ(error, file.string() + ": is larger than 8 MiB (8388608 bytes), the limit for OBJ files");
    EXPECT_FALSE(kz::parseObj(text, "text.obj", error));
    EXPECT_EQ(error, "text.obj: is larger than 8 MiB (8388608 bytes), the limit for OBJ files");
    text.pop_back(); // exactly at the limit: allowed
    EXPECT_TRUE(kz::loadObj(dir.write("limit.obj", text), error)) << error;
}

TEST(ObjLoad, ANewlineInTheFileNameDoesNotBreakTheErrorLine) {
    const TempDir dir;
    std::string error;
    EXPECT_FALSE(kz::loadObj(dir.path() / "two\nlines.obj", error));
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_NE(error.find("no such file"), std::string::npos) << error;
}

// =============================================================================================
// Malformed content

TEST(ObjRejects, EmptyText) {
    expectRejected("", 0, "the file is empty");
}

TEST(ObjRejects, OnlyCommentsAndBlankLines) {
    expectRejected("# nothing\n\n   \n", 0, "no triangles (no vertices, no faces)");
}

TEST(ObjRejects, OnlyVerticesNoFaces) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\n", 0, "no triangles (3 vertices, no faces)");
}

TEST(ObjRejects, OnlyLinesAndPointsNoFaces) {
    expectRejected("v 0 0 0\nv 1 0 0\nl 1 2\np 1\n", 0, "no triangles (2 vertices, no faces)");
}

TEST(ObjRejects, FaceWithTwoVertices) {
    expectRejected(kTriangle + "f 1 2\n", 5, "face has 2 vertices (need at least 3)");
}

TEST(ObjRejects, FaceWithNoVertices) {
    expectRejected(kTriangle + "f\n", 5, "face has 0 vertices (need at least 3)");
}

TEST(ObjRejects, PositiveIndexOutOfRange) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\n\n\n\n\n\nf 1 2 40\n", 9,
                   "face index 40 is out of range (3 vertices)");
}

TEST(ObjRejects, NegativeIndexOutOfRange) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", 4,
                   "face index -4 is out of range (3 vertices)");
}

TEST(ObjRejects, HugeIndexOutOfRange) {
    expectRejected(kTriangle + "f 1 2 -9223372036854775808\n", 5,
                   "face index -9223372036854775808 is out of range");
    expectRejected(kTriangle + "f 1 2 99999999999999999999999\n", 5,
                   "face index 99999999999999999999999 is out of range");
}

TEST(ObjRejects, IndexZero) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "face index 0 is invalid");
}

TEST(ObjRejects, ReferenceToAVertexDefinedLater) {
    expectRejected(
        "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", 3,
        "face index 3 is out of range (2 vertices before this line; references may only point back)");
}

TEST(ObjRejects, TextureCoordinateIndexOutOfRange) {
    expectRejected(kTriangle + "vt 0 0\nf 1/1 2/2 3/1\n", 6,
                   "face texture coordinate index 2 is out of range (1 texture coordinate)");
}

TEST(ObjRejects, NormalIndexOutOfRange) {
    expectRejected(kTriangle + "f 1//1 2//1 3//1\n", 5, "face normal index 1 is out of range (0 normals)");
}

TEST(ObjRejects, LineElementIndexOutOfRange) {
    expectRejected(kTriangle + "l 1 7\n", 5, "line element index 7 is out of range (3 vertices)");
}

TEST(ObjRejects, MalformedReferences) {
    for (const char* reference : {"1/", "1//", "/1", "1/2/3/4", "a", "1.5", "1x", "+-1", "--1", "1/a"}) {
        SCOPED_TRACE(reference);
        expectRejected(kTriangle + "vt 0 0\nvn 0 0 1\nf 1 2 " + reference + "\n", 7,
                       "cannot parse '" + std::string(reference) + "'");
    }
}

TEST(ObjRejects, NonNumericCoordinate) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 abc 2\nf 1 2 3\n", 4, "cannot parse 'abc' in 'v 1 abc 2'");
}

TEST(ObjRejects, NumberWithTrailingGarbage) {
    expectRejected("v 0 0 0\nv 1 0 0x\nv 0 1 0\nf 1 2 3\n", 2, "cannot parse '0x'");
    expectRejected("v 0 0 0\nv 1 0 1e\nv 0 1 0\nf 1 2 3\n", 2, "cannot parse '1e'");
    expectRejected("v 0 0 0\nv 1 0 1,5\nv 0 1 0\nf 1 2 3\n", 2, "cannot parse '1,5'");
    expectRejected("v 0 0 0\nv 1 0 0x1p3\nv 0 1 0\nf 1 2 3\n", 2, "cannot parse '0x1p3'");
}

TEST(ObjRejects, NanCoordinate) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n", 3, "vertex 3 has a non-finite coordinate 'nan'");
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 NaN 0\nf 1 2 3\n", 3, "vertex 3 has a non-finite coordinate 'NaN'");
}

TEST(ObjRejects, InfiniteCoordinate) {
    expectRejected("v 0 0 0\nv inf 0 0\nv 0 1 0\nf 1 2 3\n", 2, "vertex 2 has a non-finite coordinate 'inf'");
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 -Infinity\nf 1 2 3\n", 3, "non-finite coordinate '-Infinity'");
}

TEST(ObjRejects, CoordinateBeyondFloatRange) {
    expectRejected("v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n", 2,
                   "vertex 2 has a coordinate out of float range '1e39'");
    expectRejected("v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n", 2, "out of float range '1e999'");
}

TEST(ObjRejects, NonFiniteNormalOrTextureCoordinate) {
    expectRejected(kTriangle + "vn 0 nan 1\n", 5, "normal 1 has a non-finite coordinate 'nan'");
    expectRejected(kTriangle + "vt 0.5 inf\n", 5, "texture coordinate 1 has a non-finite coordinate 'inf'");
}

TEST(ObjRejects, TruncatedVertexLine) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1\nf 1 2 3\n", 3, "vertex 3 has 2 numbers (need x y z");
}

TEST(ObjRejects, TruncatedLastLine) {
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2", 4, "face has 2 vertices (need at least 3)");
    expectRejected("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 0 0", 5, "vertex 4 has 2 numbers");
}

TEST(ObjRejects, VertexWithTooManyNumbers) {
    expectRejected("v 0 0 0 1 2\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", 1, "vertex 1 has 5 numbers");
}

TEST(ObjRejects, UnknownStatement) {
    expectRejected(kTriangle + "vertex 1 2 3\n", 5, "unknown statement 'vertex'");
    expectRejected("v1 0 0\n" + kTriangle, 1, "unknown statement 'v1'");
}

TEST(ObjRejects, GarbageBytes) {
    expectRejected(std::string("v 0 0 0\nv 1 0\0 0\nv 0 1 0\nf 1 2 3\n", 34), 2,
                   "byte 0x00 at column 6 is not text");
    expectRejected("\x7f"
                   "ELF\x02\x01\x01",
                   1, "byte 0x7f at column 1 is not text");
    expectRejected("\x89PNG\r\n\x1a\n", 1, "unknown statement '\x89PNG'");
    expectRejected("# a comment\n\x1a\n", 2, "byte 0x1a at column 1");
}

TEST(ObjRejects, ZeroAreaFace) {
    expectRejected("v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\n", 4,
                   "face has zero area (its vertices are collinear)");
}

TEST(ObjRejects, FaceUsingAVertexTwice) {
    expectRejected(kTriangle + "f 1 2 1\n", 5, "face uses vertex 1 more than once");
    expectRejected(kTriangle + "f 1 2 3 -3\n", 5, "face uses vertex 1 more than once");
}

TEST(ObjRejects, ConcaveQuadThatTinyObjLoaderSplitsWrongly) {
    // A dart: vertex 2 is reflex. tinyobjloader splits a quad along its shorter diagonal, here
    // 1-3, which lies outside; one of its triangles faces the other way.
    expectRejected("v -1 0 0\nv 0 1 0\nv 1 0 0\nv 0 5 0\nf 1 2 3 4\n", 5,
                   "face with 4 vertices cannot be triangulated");
}

TEST(ObjAccepts, ConcaveQuadSplitAlongItsInnerDiagonal) {
    // A dart whose reflex vertex 2 is near vertex 4: the shorter diagonal, 2-4, is the inner one.
    const TriangleMesh mesh = expectAccepted("v -1 0 0\nv 0 4 0\nv 1 0 0\nv 0 5 0\nf 1 2 3 4\n");
    ASSERT_EQ(mesh.indices.size(), 6u);
    EXPECT_GT(signedArea2(mesh, 0), 0.0);
    EXPECT_GT(signedArea2(mesh, 1), 0.0);
}

TEST(ObjRejects, SelfIntersectingPolygon) {
    // A bow tie: its two halves cancel, Newell's area is zero.
    expectRejected("v 0 0 0\nv 1 1 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 4\n", 5, "face has zero area");
}

TEST(ObjRejects, FaceWithTooManyVertices) {
    std::string text;
    std::string face = "f";
    for (int i = 0; i < 300; ++i) {
        const double a = 2 * M_PI * i / 300;
        text += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
        face += " " + std::to_string(i + 1);
    }
    expectRejected(text + face + "\n", 301, "face has 300 vertices (at most 256)");
}

TEST(ObjRejects, LongLinesAreQuotedShortened) {
    const std::string junk(500, 'x');
    std::string error;
    EXPECT_FALSE(kz::parseObj(kTriangle + "v 1 " + junk + " 2\n", kName, error));
    EXPECT_LT(error.size(), 200u) << error;
    EXPECT_NE(error.find("..."), std::string::npos) << error;
}

// =============================================================================================
// Damaged files, at random: never a crash, a hang or a half mesh

TEST(ObjFuzz, DamagedFilesGiveAMeshOrOneLineError) {
    std::string valid = "# a cube\n";
    for (int i = 0; i < 8; ++i) {
        valid += "v " + std::to_string(i & 1) + " " + std::to_string((i >> 1) & 1) + " " +
                 std::to_string((i >> 2) & 1) + "\n";
    }
    valid += "vt 0 0\nvn 0 0 1\ng cube\nf 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2/1 4/1 8/1 "
             "6/1\n";
    const std::uint64_t seed = 20240521;
    std::mt19937_64 rng(seed);
    static const char kAlphabet[] = "v f0123456789-./#\n\t eE+nai\r\0\xff";
    const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);
    for (int round = 0; round < 20000; ++round) {
        std::string text = valid;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 4) {
            case 0:
                text[at] = alphabet[rng() % alphabet.size()];
                break;
            case 1:
                text.erase(at, 1 + rng() % 8);
                break;
            case 2:
                text.insert(at, 1, alphabet[rng() % alphabet.size()]);
                break;
            default:
                text.resize(at);
                break;
            }
        }
        std::string error;
        const auto mesh = kz::parseObj(text, kName, error);
        if (mesh) {
            ASSERT_TRUE(error.empty()) << "seed " << seed << " round " << round;
            ASSERT_FALSE(mesh->indices.empty());
            ASSERT_EQ(mesh->indices.size() % 3, 0u);
            for (const std::uint32_t index : mesh->indices)
                ASSERT_LT(index, mesh->vertices.size());
            for (const glm::vec3& v : mesh->vertices) {
                ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
            }
        } else {
            ASSERT_EQ(error.rfind(kName + ":", 0), 0u)
                << "seed " << seed << " round " << round << ": " << error;
            ASSERT_EQ(error.find('\n'), std::string::npos)
                << "seed " << seed << " round " << round << ": " << error;
        }
    }
}

TEST(ObjFuzz, RandomBytesAreRejectedWithOneLine) {
    const std::uint64_t seed = 7;
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 2000; ++round) {
        std::string bytes(1 + rng() % 256, '\0');
        for (char& c : bytes)
            c = static_cast<char>(rng() & 0xff);
        std::string error;
        ASSERT_FALSE(kz::parseObj(bytes, kName, error)) << "seed " << seed << " round " << round;
        ASSERT_EQ(error.rfind(kName + ":", 0), 0u) << error;
        ASSERT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

// =============================================================================================
// tinyobjloader's own messages

TEST(ObjTinyObjMessages, ItsErrorNamingALineBecomesFileColonLine) {
    // What tinyobjloader itself says about an index 0 (parseObj rejects it before).
    tinyobj::ObjReader reader;
    EXPECT_FALSE(reader.ParseFromString("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", ""));
    ASSERT_FALSE(reader.Error().empty());
    const std::string error = kz::tinyObjMessageToError(kName, reader.Error());
    EXPECT_EQ(error.rfind(kName + ":4: tinyobjloader: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(ObjTinyObjMessages, ItsWarningWithoutALineNamesTheFile) {
    // tinyobjloader only warns about a face of 2 vertices, and drops it.
    tinyobj::ObjReader reader;
    EXPECT_TRUE(reader.ParseFromString("v 0 0 0\nv 1 0 0\nf 1 2\n", ""));
    ASSERT_FALSE(reader.Warning().empty());
    const std::string error = kz::tinyObjMessageToError(kName, reader.Warning());
    EXPECT_EQ(error.rfind(kName + ": tinyobjloader: Degenerated face found", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// =============================================================================================
// Writing

TriangleMesh cube() {
    TriangleMesh mesh;
    for (int i = 0; i < 8; ++i) {
        mesh.vertices.emplace_back(0.1f * static_cast<float>(i & 1) - 0.05f,
                                   1.0f / 3.0f * static_cast<float>((i >> 1) & 1),
                                   -2.5e-7f * static_cast<float>((i >> 2) & 1));
    }
    mesh.indices = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                    2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    return mesh;
}

TEST(ObjWrite, WrittenFileIsPlainDeterministicText) {
    const TempDir dir;
    TriangleMesh mesh;
    mesh.vertices = {{0, 0, 0}, {1.5f, -0.0f, 0}, {0, 1.0f / 3.0f, 1e-7f}};
    mesh.indices = {0, 1, 2};
    std::string error = "stale";
    ASSERT_TRUE(kz::writeObj(dir.path() / "t.obj", mesh, "made by a test\n\nsecond line", error)) << error;
    EXPECT_TRUE(error.empty());
    EXPECT_EQ(readBytes(dir.path() / "t.obj"), "# made by a test\n#\n# second line\n"
                                               "v 0 0 0\nv 1.5 0 0\nv 0 0.333333 1e-07\nf 1 2 3\n");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "t.obj.tmp"));
}

TEST(ObjWrite, WriteThenReadGivesTheMeshAndWritingAgainTheSameBytes) {
    const TempDir dir;
    const TriangleMesh mesh = cube();
    std::string error;
    ASSERT_TRUE(kz::writeObj(dir.path() / "a.obj", mesh, "cube", error)) << error;
    const auto read = kz::loadObj(dir.path() / "a.obj", error);
    ASSERT_TRUE(read.has_value()) << error;
    EXPECT_EQ(read->indices, mesh.indices);
    ASSERT_EQ(read->vertices.size(), mesh.vertices.size());
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
        for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(read->vertices[i][k], mesh.vertices[i][k], 1e-6f * 0.5f);
    }
    ASSERT_TRUE(kz::writeObj(dir.path() / "b.obj", *read, "cube", error)) << error;
    EXPECT_EQ(readBytes(dir.path() / "a.obj"), readBytes(dir.path() / "b.obj"));
}

TEST(ObjWrite, OverwritesAnExistingFile) {
    const TempDir dir;
    const auto file =
        dir.write("t.obj", "old contents, much longer than the new ones ............................");
    std::string error;
    TriangleMesh mesh;
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.indices = {0, 1, 2};
    ASSERT_TRUE(kz::writeObj(file, mesh, "", error)) << error;
    EXPECT_EQ(readBytes(file), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
}

TEST(ObjWrite, BadMeshesAreRefusedWithOneLine) {
    const TempDir dir;
    const auto file = dir.path() / "t.obj";
    const auto refused = [&](const TriangleMesh& mesh, const std::string& fragment) {
        std::string error;
        EXPECT_FALSE(kz::writeObj(file, mesh, "", error));
        EXPECT_EQ(error.rfind(file.string() + ": cannot write: ", 0), 0u) << error;
        EXPECT_NE(error.find(fragment), std::string::npos) << error;
        EXPECT_FALSE(std::filesystem::exists(file));
    };
    TriangleMesh mesh;
    refused(mesh, "the mesh has no triangles");
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.indices = {0, 1};
    refused(mesh, "indices count 2 is not a multiple of 3");
    mesh.indices = {0, 1, 3};
    refused(mesh, "index 2 of triangle 0 is 3, but there are 3 vertices");
    mesh.indices = {0, 1, 2};
    mesh.vertices[1].y = NAN;
    refused(mesh, "vertex 1 is not finite");
}

TEST(ObjWrite, UnwritablePathIsOneLineError) {
    const TempDir dir;
    const auto file = dir.path() / "no" / "such" / "folder.obj";
    std::string error;
    EXPECT_FALSE(kz::writeObj(file, cube(), "", error));
    EXPECT_EQ(error, file.string() + ": cannot write: No such file or directory");
}

} // namespace
