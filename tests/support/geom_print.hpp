// Test support: printing geometry for failure messages, and comparing float vectors.
#pragma once

#include "geom/types.hpp"

#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace kz::test {

/// "(x, y, z)" with 9 significant digits (enough to read a float back exactly).
inline std::string str(const glm::dvec3& v) {
    std::ostringstream os;
    os.precision(9);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

inline std::string str(const Obb& b) {
    std::ostringstream os;
    os << "Obb{c " << str(glm::dvec3(b.center)) << " half " << str(glm::dvec3(b.half)) << " axes "
       << str(glm::dvec3(b.axes[0])) << " " << str(glm::dvec3(b.axes[1])) << " " << str(glm::dvec3(b.axes[2]))
       << "}";
    return os.str();
}

/// EXPECT_NEAR on each component.
inline void expectVecNear(const glm::vec3& got, const glm::vec3& want, float tol) {
    EXPECT_NEAR(got.x, want.x, tol);
    EXPECT_NEAR(got.y, want.y, tol);
    EXPECT_NEAR(got.z, want.z, tol);
}

} // namespace kz::test
