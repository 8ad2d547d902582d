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

/// Appends a ring of `slices` + 1 vertices (the seam repeated) at height y, radius r around y,
/// with `normal(unit direction)` as each vertex's normal.
template <class Normal>
void appendRing(MeshData& mesh, int slices, float y, float r, Normal&& normal) {
    for (int j = 0; j <= slices; ++j) {
        const float phi = glm::two_pi<float>() * static_cast<float>(j) / static_cast<float>(slices);
        const glm::vec3 d(std::cos(phi), 0.0f, std::sin(phi));
        mesh.vertices.push_back({glm::vec3(r * d.x, y, r * d.z), normal(d)});
    }
}

/// Quads between two rings of `slices` + 1 vertices starting at `lower` and `upper`, wound
/// counter-clockwise seen from outside (away from the y axis).
void joinRings(MeshData& mesh, int slices, std::uint32_t lower, std::uint32_t upper) {
    for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(slices); ++j)
        mesh.indices.insert(mesh.indices.end(),
                            {lower + j, upper + j, lower + j + 1, lower + j + 1, upper + j, upper + j + 1});
}

} // namespace

MeshData unitTube(int slices) {
    slices = std::max(slices, 3);
    MeshData mesh;
    const auto radial = [](const glm::vec3& d) { return d; };
    appendRing(mesh, slices, -1.0f, 1.0f, radial);
    appendRing(mesh, slices, 1.0f, 1.0f, radial);
    joinRings(mesh, slices, 0, static_cast<std::uint32_t>(slices + 1));
    return mesh;
}

MeshData unitCylinder(int slices) {
    MeshData mesh = unitTube(slices);
    slices = std::max(slices, 3);
    for (const float y : {-1.0f, 1.0f}) {
        const auto centre = static_cast<std::uint32_t>(mesh.vertices.size());
        const glm::vec3 n(0.0f, y, 0.0f);
        mesh.vertices.push_back({n, n});
        appendRing(mesh, slices, y, 1.0f, [&](const glm::vec3&) { return n; });
        for (std::uint32_t j = 1; j <= static_cast<std::uint32_t>(slices); ++j) {
            // Counter-clockwise seen from outside: from above (+y) the ring runs clockwise in x, z.
            if (y > 0.0f)
                mesh.indices.insert(mesh.indices.end(), {centre, centre + j + 1, centre + j});
            else
                mesh.indices.insert(mesh.indices.end(), {centre, centre + j, centre + j + 1});
        }
    }
    return mesh;
}

MeshData unitHemisphere(int slices, int stacks) {
    slices = std::max(slices, 3);
    stacks = std::max(stacks, 1);
    MeshData mesh;
    // From the equator up to the pole (a ring of one point repeated), outward normals.
    for (int i = 0; i <= stacks; ++i) {
        const float theta =
            glm::half_pi<float>() * static_cast<float>(stacks - i) / static_cast<float>(stacks);
        const float r = std::sin(theta), y = std::cos(theta);
        appendRing(mesh, slices, y, r, [&](const glm::vec3& d) { return glm::vec3(r * d.x, y, r * d.z); });
    }
    for (int i = 0; i < stacks; ++i)
        joinRings(mesh, slices, static_cast<std::uint32_t>(i * (slices + 1)),
                  static_cast<std::uint32_t>((i + 1) * (slices + 1)));
    // Drop the collapsed triangles at the pole.
    std::vector<std::uint32_t> kept;
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const glm::vec3& a = mesh.vertices[mesh.indices[t]].position;
        const glm::vec3& b = mesh.vertices[mesh.indices[t + 1]].position;
        const glm::vec3& c = mesh.vertices[mesh.indices[t + 2]].position;
        if (glm::length(glm::cross(b - a, c - a)) > 1e-9f)
            kept.insert(kept.end(), mesh.indices.begin() + std::ptrdiff_t(t),
                        mesh.indices.begin() + std::ptrdiff_t(t + 3));
    }
    mesh.indices = std::move(kept);
    return mesh;
}

void hullTriangles(const ConvexHull& hull, std::vector<glm::vec3>& positions,
                   std::vector<std::uint32_t>& indices) {
    positions = hull.vertices;
    indices.clear();
    const std::size_t edges = hull.edges.size();
    for (const ConvexHull::Face& face : hull.faces) {
        std::vector<std::uint32_t> loop;
        std::uint32_t e = face.edge;
        for (std::size_t guard = 0; guard <= edges; ++guard) {
            if (e >= edges || hull.edges[e].origin >= positions.size()) {
                loop.clear();
                break;
            }
            loop.push_back(hull.edges[e].origin);
            e = hull.edges[e].next;
            if (e == face.edge) break;
        }
        for (std::size_t k = 1; k + 1 < loop.size(); ++k)
            indices.insert(indices.end(), {loop[0], loop[k], loop[k + 1]});
    }
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
