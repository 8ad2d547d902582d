// Mass properties (mass_properties.hpp): closed forms, the hull's tetrahedra, Jacobi's rotations.
#include "mass_properties.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace kz {
namespace {

constexpr double kPi = std::numbers::pi;

/// The inertia tensor (per unit density) of a solid whose covariance about its centroid is `c`:
/// trace(C) 1 - C.
glm::dmat3 inertiaOfCovariance(const glm::dmat3& c) {
    const double trace = c[0][0] + c[1][1] + c[2][2];
    return glm::dmat3(trace) - c;
}

MassProperties diagonal(double volume, const glm::dvec3& moments) {
    MassProperties m;
    m.volume = volume;
    m.inertia = glm::dmat3(0.0);
    for (int i = 0; i < 3; ++i)
        m.inertia[i][i] = moments[i];
    return m;
}

} // namespace

MassProperties massPropertiesOfSphere(double r) {
    const double volume = 4.0 / 3.0 * kPi * r * r * r;
    return diagonal(volume, glm::dvec3(0.4 * volume * r * r));
}

MassProperties massPropertiesOfBox(const glm::dvec3& half) {
    const double volume = 8.0 * half.x * half.y * half.z;
    const glm::dvec3 s = half * half; // (2h)^2 / 12 = h^2 / 3
    return diagonal(volume, (volume / 3.0) * glm::dvec3(s.y + s.z, s.x + s.z, s.x + s.y));
}

MassProperties massPropertiesOfCapsule(double r, double h) {
    // The cylinder of length 2h: about its axis V r^2 / 2, across it V (r^2 / 4 + h^2 / 3). The two
    // hemispheres make a sphere of volume Vs: about the axis 2/5 Vs r^2; across it, each
    // hemisphere's 2/5 r^2 about its flat face's centre moved to the capsule's centre by the
    // parallel axis theorem (its own centre 3r/8 from that face): Vs (2r^2/5 + h^2 + 3hr/4).
    const double cylinder = kPi * r * r * 2.0 * h;
    const double sphere = 4.0 / 3.0 * kPi * r * r * r;
    const double axial = cylinder * r * r / 2.0 + sphere * 0.4 * r * r;
    const double across =
        cylinder * (r * r / 4.0 + h * h / 3.0) + sphere * (0.4 * r * r + h * h + 0.75 * h * r);
    return diagonal(cylinder + sphere, glm::dvec3(across, axial, across));
}

MassProperties massPropertiesOfCylinder(double r, double h) {
    const double volume = kPi * r * r * 2.0 * h;
    const double across = volume * (3.0 * r * r + 4.0 * h * h) / 12.0;
    return diagonal(volume, glm::dvec3(across, volume * r * r / 2.0, across));
}

MassProperties massPropertiesOfHull(const ConvexHull& hull) {
    // Each face's fan of triangles (p0, pi, pi+1) with the reference point o makes a tetrahedron of
    // signed volume det / 6 (det = a . (b x c), the corners relative to o; positive for a face
    // seen counter-clockwise from outside) whose first moment is det / 24 (a + b + c) and whose
    // covariance sum x x^T dV is det / 120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c.
    const glm::dvec3 o(hull.centroid);
    double volume = 0.0;
    glm::dvec3 moment(0.0);
    glm::dmat3 covariance(0.0);
    const std::size_t edges = hull.edges.size();
    for (const ConvexHull::Face& face : hull.faces) {
        const std::uint32_t first = face.edge;
        if (first >= edges) continue;
        const glm::dvec3 p0 = glm::dvec3(hull.vertices[hull.edges[first].origin]) - o;
        std::uint32_t e = hull.edges[first].next;
        for (std::size_t guard = 0; guard < edges && e < edges && hull.edges[e].next != first; ++guard) {
            const std::uint32_t f = hull.edges[e].next;
            if (f >= edges) break;
            const glm::dvec3 b = glm::dvec3(hull.vertices[hull.edges[e].origin]) - o;
            const glm::dvec3 c = glm::dvec3(hull.vertices[hull.edges[f].origin]) - o;
            const double det = glm::dot(p0, glm::cross(b, c));
            const glm::dvec3 s = p0 + b + c;
            volume += det / 6.0;
            moment += (det / 24.0) * s;
            covariance += (det / 120.0) * (glm::outerProduct(p0, p0) + glm::outerProduct(b, b) +
                                           glm::outerProduct(c, c) + glm::outerProduct(s, s));
            e = f;
        }
    }
    MassProperties m;
    if (!(volume > 0.0)) return m;
    const glm::dvec3 centre = moment / volume; // relative to o
    m.volume = volume;
    m.centroid = o + centre;
    m.inertia = inertiaOfCovariance(covariance - volume * glm::outerProduct(centre, centre));
    return m;
}

PrincipalAxes principalAxes(const glm::dmat3& tensor) {
    // Cyclic Jacobi: each rotation in the (p, q) plane zeroes a[p][q] (Golub and Van Loan 8.5).
    glm::dmat3 a = 0.5 * (tensor + glm::transpose(tensor));
    glm::dmat3 v(1.0);
    double norm = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            norm += a[i][j] * a[i][j];
    const double floor = 1e-30 * norm;
    for (int sweep = 0; sweep < 50; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (!(off > floor)) break;
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t =
                    (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                glm::dmat3 j(1.0); // columns: j[col][row]
                j[p][p] = c, j[q][q] = c, j[q][p] = s, j[p][q] = -s;
                a = glm::transpose(j) * a * j;
                a[p][q] = a[q][p] = 0.0;
                v = v * j;
            }
        }
    }
    PrincipalAxes out;
    int order[3] = {0, 1, 2};
    std::sort(order, order + 3, [&](int x, int y) { return a[x][x] < a[y][y]; });
    for (int k = 0; k < 3; ++k) {
        out.moments[k] = a[order[k]][order[k]];
        out.axes[k] = glm::normalize(v[order[k]]);
    }
    if (glm::determinant(out.axes) < 0.0) out.axes[2] = -out.axes[2];
    return out;
}

} // namespace kz
