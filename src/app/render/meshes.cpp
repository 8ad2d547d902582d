#include "meshes.hpp"

#include <algorithm>
#include <glm/gtc/constants.hpp>
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

} // namespace kz::render
