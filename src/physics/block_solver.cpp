// The block solve of one manifold's normal impulses: active sets, Gaussian elimination and, for
// the singular systems of coplanar points, the least-norm split through a pseudo-inverse.
#include "block_solver.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

/// x_S = P goal_S with P = pseudoInverse(K_SS): the least-norm solution of K_SS x_S = goal_S.
/// Four coplanar points of a box face have a one-dimensional family of exact load splits; the
/// least-norm one is the unique split that is symmetric when the contact is, and it moves
/// continuously with the poses, where picking any three of the four points does not. False
/// when goal is not in K_SS's range (no exact split).
bool solveLeastNorm(const double k[4][4], const double pinv[4][4], const double goal[4], int m,
                    const int index[4], double x[4]) {
    double y[4] = {0, 0, 0, 0};
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c)
            y[r] += pinv[r][c] * goal[index[c]];
    double residual = 0.0, size = 0.0;
    for (int r = 0; r < m; ++r) {
        double kx = 0.0;
        for (int c = 0; c < m; ++c)
            kx += k[index[r]][index[c]] * y[c];
        residual = std::max(residual, std::abs(kx - goal[index[r]]));
        size = std::max(size, std::abs(goal[index[r]]));
    }
    if (!(residual <= 1e-6 * (size + 1e-12))) return false;
    for (int r = 0; r < m; ++r)
        x[index[r]] = y[r];
    return true;
}

} // namespace

void pseudoInverse(const double k[4][4], int m, const int index[4], double out[4][4]) {
    double a[4][4], v[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double scale = 0.0;
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < m; ++c) {
            a[r][c] = k[index[r]][index[c]];
            scale = std::max(scale, std::abs(a[r][c]));
        }
    }
    for (int sweep = 0; sweep < 32; ++sweep) {
        double off = 0.0;
        for (int p = 0; p < m; ++p)
            for (int q = p + 1; q < m; ++q)
                off += a[p][q] * a[p][q];
        if (!(off > 1e-30 * scale * scale)) break;
        for (int p = 0; p < m; ++p) {
            for (int q = p + 1; q < m; ++q) {
                if (a[p][q] == 0.0) continue;
                // The rotation in the (p, q) plane that zeroes a[p][q].
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t =
                    (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), sn = t * c;
                for (int r = 0; r < m; ++r) {
                    const double arp = a[r][p], arq = a[r][q];
                    a[r][p] = c * arp - sn * arq;
                    a[r][q] = sn * arp + c * arq;
                }
                for (int r = 0; r < m; ++r) {
                    const double apr = a[p][r], aqr = a[q][r];
                    a[p][r] = c * apr - sn * aqr;
                    a[q][r] = sn * apr + c * aqr;
                }
                for (int r = 0; r < m; ++r) {
                    const double vrp = v[r][p], vrq = v[r][q];
                    v[r][p] = c * vrp - sn * vrq;
                    v[r][q] = sn * vrp + c * vrq;
                }
            }
        }
    }
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c)
            out[r][c] = 0.0;
    for (int e = 0; e < m; ++e) {
        if (!(std::abs(a[e][e]) > 1e-5 * scale)) continue; // the null space: no load along it
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < m; ++c)
                out[r][c] += v[r][e] * v[c][e] / a[e][e];
    }
}

bool solveActiveSet(const double k[4][4], const double goal[4], int count, int mask, double x[4],
                    PseudoInverseCache& whole) {
    int index[4];
    int m = 0;
    for (int i = 0; i < count; ++i) {
        if (mask & (1 << i)) index[m++] = i;
    }
    double a[4][5];
    double scale = 0.0;
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < m; ++c) {
            a[r][c] = k[index[r]][index[c]];
            scale = std::max(scale, std::abs(a[r][c]));
        }
        a[r][m] = goal[index[r]];
    }
    for (int col = 0; col < m; ++col) {
        int pivot = col;
        for (int r = col + 1; r < m; ++r) {
            if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
        }
        if (!(std::abs(a[pivot][col]) > 1e-5 * scale)) {
            if (m < count) {
                double pinv[4][4];
                pseudoInverse(k, m, index, pinv);
                return solveLeastNorm(k, pinv, goal, m, index, x);
            }
            if (!whole.ready) pseudoInverse(k, m, index, whole.pinv);
            whole.ready = true;
            return solveLeastNorm(k, whole.pinv, goal, m, index, x);
        }
        if (pivot != col) {
            for (int c = 0; c <= m; ++c)
                std::swap(a[col][c], a[pivot][c]);
        }
        for (int r = col + 1; r < m; ++r) {
            const double f = a[r][col] / a[col][col];
            for (int c = col; c <= m; ++c)
                a[r][c] -= f * a[col][c];
        }
    }
    for (int r = m - 1; r >= 0; --r) {
        double v = a[r][m];
        for (int c = r + 1; c < m; ++c)
            v -= a[r][c] * x[index[c]];
        x[index[r]] = v / a[r][r];
    }
    return true;
}

bool solveBlock(const double k[4][4], const double goal[4], int count, PseudoInverseCache& whole,
                double x[4]) {
    for (int size = count; size >= 0; --size) {
        for (int mask = 0; mask < (1 << count); ++mask) {
            if (__builtin_popcount(static_cast<unsigned>(mask)) != size) continue;
            double trial[4] = {0, 0, 0, 0};
            if (size > 0 && !solveActiveSet(k, goal, count, mask, trial, whole)) continue;
            bool valid = true;
            for (int i = 0; i < count && valid; ++i) {
                if (mask & (1 << i)) {
                    valid = trial[i] >= 0.0;
                } else {
                    double vn = -goal[i];
                    for (int j = 0; j < count; ++j)
                        vn += k[i][j] * trial[j];
                    valid = vn >= -1e-7 * (1.0 + std::abs(goal[i]));
                }
            }
            if (valid) {
                std::copy(trial, trial + 4, x);
                return true;
            }
        }
    }
    return false;
}

} // namespace kz
