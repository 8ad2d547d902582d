// Private to kz_physics: the exact solve of one manifold's normal impulses (up to four points),
// used by the contact solver. Double precision; no allocation.
#pragma once

namespace kz {

/// A manifold's K (its normal impulses' effective-mass matrix) and, once needed, its
/// pseudo-inverse: both stay the same through a resolve's iterations.
struct PseudoInverseCache {
    double pinv[4][4];
    bool ready = false;
};

/// The pseudo-inverse of the symmetric, positive semi-definite K_SS (index: the m points of S),
/// through its eigen-decomposition (cyclic Jacobi, double; Golub and Van Loan 8.5.2), with
/// eigenvalues below 1e-5 of K's largest entry taken as zero. out is m x m.
void pseudoInverse(const double k[4][4], int m, const int index[4], double out[4][4]);

/// Solves K_SS x_S = goal_S for the points in `mask` (x = 0 elsewhere), by Gaussian elimination
/// with partial pivoting. A singular subsystem (four coplanar points of one box face have only
/// three independent rows) gets the least-norm solution instead; false when it has none. The
/// whole set's pseudo-inverse depends on K only, so it is kept in `whole` across iterations.
bool solveActiveSet(const double k[4][4], const double goal[4], int count, int mask, double x[4],
                    PseudoInverseCache& whole);

/// The exact answer of the small complementarity problem of one manifold's `count` normal
/// impulses, in terms of the new totals x: K x >= goal, x >= 0, and for each point one of the two
/// tight. Tries active sets, largest first (Box2D's two-point block solver, for up to four
/// points). False when every active set fails (numerically stuck); `x` is then untouched.
bool solveBlock(const double k[4][4], const double goal[4], int count, PseudoInverseCache& whole,
                double x[4]);

} // namespace kz
