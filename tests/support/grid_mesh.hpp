// A flat grid of triangles and a unit cube for the mesh obstacle tests (test_obstacle.cpp,
// test_impact_log.cpp, test_convex_bodies.cpp).
#pragma once

#include "physics/obstacle.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace kz::test {

/// An n x n grid of unit squares in the plane y = 0, x and z in [-n/2, n/2], facing +y
/// (2 n^2 triangles).
inline std::shared_ptr<const MeshShape> gridMesh(int n) {
    std::vector<glm::vec3> v;
    for (int z = 0; z <= n; ++z)
        for (int x = 0; x <= n; ++x)
            v.emplace_back(static_cast<float>(x) - 0.5f * static_cast<float>(n), 0.0f,
                           static_cast<float>(z) - 0.5f * static_cast<float>(n));
    std::vector<std::uint32_t> idx;
    const auto at = [n](int x, int z) { return static_cast<std::uint32_t>(z * (n + 1) + x); };
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x)
            idx.insert(idx.end(),
                       {at(x, z), at(x, z + 1), at(x + 1, z + 1), at(x, z), at(x + 1, z + 1), at(x + 1, z)});
    std::string error;
    auto mesh = MeshShape::make("grid", std::move(v), std::move(idx), error);
    EXPECT_TRUE(mesh) << error;
    return mesh;
}

/// The cube [-0.5, 0.5]^3 as 12 outward-wound triangles.
inline std::shared_ptr<const MeshShape> cubeMesh() {
    std::vector<glm::vec3> v;
    for (int i = 0; i < 8; ++i)
        v.emplace_back(static_cast<float>(i & 1) - 0.5f, static_cast<float>((i >> 1) & 1) - 0.5f,
                       static_cast<float>((i >> 2) & 1) - 0.5f);
    const std::uint32_t faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                       {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    std::vector<std::uint32_t> idx;
    for (const auto& f : faces)
        idx.insert(idx.end(), {f[0], f[1], f[2], f[0], f[2], f[3]});
    std::string error;
    auto mesh = MeshShape::make("cube", std::move(v), std::move(idx), error);
    EXPECT_TRUE(mesh) << error;
    return mesh;
}

} // namespace kz::test
