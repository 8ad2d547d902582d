// The lab's queries, in the panel's order: one line each in KZ_LAB_QUERIES, naming the unit its
// file defines (ray_sphere.cpp defines kRaySphereQuery, ...). LabQuery (scene.hpp) names the
// positions of this list; a query added at the end needs no LabQuery name unless code names it.
#include "app/lab/queries/unit.hpp"

#include <array>
#include <iterator>

#define KZ_LAB_QUERIES(QUERY)                                                                                \
    QUERY(kRaySphereQuery)                                                                                   \
    QUERY(kRayBoxQuery)                                                                                      \
    QUERY(kRayPlaneQuery)                                                                                    \
    QUERY(kRayTriangleQuery)                                                                                 \
    QUERY(kRayMeshQuery)                                                                                     \
    QUERY(kSphereSphereQuery)                                                                                \
    QUERY(kSphereBoxQuery)                                                                                   \
    QUERY(kBoxBoxQuery)                                                                                      \
    QUERY(kBoxPlaneQuery)                                                                                    \
    QUERY(kSphereTriangleQuery)                                                                              \
    QUERY(kBoxTriangleQuery)                                                                                 \
    QUERY(kSweepSphereTriangleQuery)                                                                         \
    QUERY(kSegmentSegmentQuery)                                                                              \
    QUERY(kGjkQuery)                                                                                         \
    QUERY(kEpaQuery)                                                                                         \
    QUERY(kRayConvexQuery)                                                                                   \
    QUERY(kConvexConvexQuery)                                                                                \
    QUERY(kShapeCastQuery)

namespace kz {

#define KZ_DECLARE_UNIT(unit) extern const LabQueryUnit unit;
KZ_LAB_QUERIES(KZ_DECLARE_UNIT)
#undef KZ_DECLARE_UNIT

namespace {

#define KZ_UNIT_ADDRESS(unit) &unit,
const std::array kUnits{KZ_LAB_QUERIES(KZ_UNIT_ADDRESS)};
#undef KZ_UNIT_ADDRESS

} // namespace

const int kLabQueryCount = static_cast<int>(std::size(kUnits));

std::span<const LabQueryUnit* const> labQueryUnits() {
    return kUnits;
}

const LabQueryUnit& labQueryInfo(LabQuery query) {
    const int i = static_cast<int>(query);
    return *kUnits[std::size_t(i >= 0 && i < kLabQueryCount ? i : static_cast<int>(LabQuery::BoxBox))];
}

const LabQueryUnit* findLabQueryUnit(std::string_view name) {
    for (const LabQueryUnit* unit : kUnits)
        if (name == unit->name) return unit;
    return nullptr;
}

} // namespace kz
