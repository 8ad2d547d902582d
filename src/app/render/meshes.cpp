#include "meshes.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <map>
#include <tuple>
#include <utility>

namespace kz::render {

MeshData unitSphere(int slices, int stacks) {
    slices = std::max(slices, 3);
    stacks = std::max(stacks, 2);
    MeshData mesh;
    const auto ring = static_cast<std::uint32_t>(slices + 1); // the seam vertex is repeated
    for (int i = 0; i <= stacks; ++i) {
        const float theta = glm::pi<float>() * static_cast<float>(i) / static_cast<float>(stacks);
        for (int j = 0; j <= slices; ++j) {
            const float phi = glm::two_pi<float>() * static_cast<float>(j) / static_cast<float>(slices);
            const glm::vec3 p{std::sin(theta) * std::cos(phi), std::cos(theta),
                              std::sin(theta) * std::sin(phi)};
            mesh.vertices.push_back({p, p});
        }
    }
    auto addTriangle = [&mesh](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        const glm::vec3& pa = mesh.vertices[a].position;
        const glm::vec3& pb = mesh.vertices[b].position;
        const glm::vec3& pc = mesh.vertices[c].position;
        const glm::vec3 n = glm::cross(pb - pa, pc - pa);
        if (glm::dot(n, n) < 1e-12f) return; // the collapsed triangle at a pole
        // Outward winding: the face normal agrees with the direction to the centroid.
        if (glm::dot(n, pa + pb + pc) < 0.0f) std::swap(b, c);
        mesh.indices.insert(mesh.indices.end(), {a, b, c});
    };
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(stacks); ++i) {
        for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(slices); ++j) {
            const std::uint32_t a = i * ring + j;
            const std::uint32_t b = a + ring;
            addTriangle(a, b, a + 1);
            addTriangle(a + 1, b, b + 1);
        }
    }
    return mesh;
}

MeshData unitCube() {
    // Per face: normal n and in-face axes u, v with cross(u, v) = n, so (-u-v, +u-v, +u+v, -u+v)
    // runs counter-clockwise seen from outside.
    struct Face {
        glm::vec3 n, u, v;
    };
    const Face faces[6] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
    };
    MeshData mesh;
    for (const Face& f : faces) {
        const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
        mesh.vertices.push_back({f.n - f.u - f.v, f.n});
        mesh.vertices.push_back({f.n + f.u - f.v, f.n});
        mesh.vertices.push_back({f.n + f.u + f.v, f.n});
        mesh.vertices.push_back({f.n - f.u + f.v, f.n});
        mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    return mesh;
}

namespace {

/// The triangles of an indexed mesh that have a non-zero area and valid indices.
template <class Visit>
void forEachGoodTriangle(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices,
                         Visit&& visit) {
    for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
        const std::uint32_t a = indices[i], b = indices[i + 1], c = indices[i + 2];
        if (a >= positions.size() || b >= positions.size() || c >= positions.size()) continue;
        const glm::vec3 n = glm::cross(positions[b] - positions[a], positions[c] - positions[a]);
        const float area2 = glm::length(n);
        if (!(area2 > 0.0f) || !std::isfinite(area2)) continue;
        visit(a, b, c, n / area2, area2);
    }
}

} // namespace

MeshData flatShaded(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices) {
    MeshData mesh;
    mesh.vertices.reserve(indices.size());
    mesh.indices.reserve(indices.size());
    forEachGoodTriangle(positions, indices,
                        [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, const glm::vec3& n, float) {
                            for (const std::uint32_t v : {a, b, c}) {
                                mesh.indices.push_back(static_cast<std::uint32_t>(mesh.vertices.size()));
                                mesh.vertices.push_back({positions[v], n});
                            }
                        });
    return mesh;
}

MeshData smoothHull(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices) {
    MeshData mesh;
    std::map<std::tuple<float, float, float>, std::uint32_t> welded;
    std::vector<std::uint32_t> remap(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const glm::vec3& p = positions[i];
        const auto [it, added] =
            welded.try_emplace({p.x, p.y, p.z}, static_cast<std::uint32_t>(mesh.vertices.size()));
        if (added) mesh.vertices.push_back({p, glm::vec3(0.0f)});
        remap[i] = it->second;
    }
    // Signed volume (divergence theorem): sum of det(a, b, c) / 6 over the triangles.
    double volume = 0.0;
    forEachGoodTriangle(
        positions, indices, [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, const glm::vec3&, float) {
            volume += static_cast<double>(glm::dot(positions[a], glm::cross(positions[b], positions[c])));
        });
    const bool flip = volume < 0.0;
    forEachGoodTriangle(
        positions, indices,
        [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, const glm::vec3& n, float area2) {
            const glm::vec3 outward = flip ? -n : n;
            for (const std::uint32_t v : {a, b, c})
                mesh.vertices[remap[v]].normal += outward * area2;
            if (flip) std::swap(b, c);
            mesh.indices.insert(mesh.indices.end(), {remap[a], remap[b], remap[c]});
        });
    for (MeshVertex& v : mesh.vertices) {
        const float length = glm::length(v.normal);
        v.normal = length > 0.0f ? v.normal / length : glm::vec3(0.0f);
    }
    return mesh;
}

} // namespace kz::render
