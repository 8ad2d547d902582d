# The CMake package "kolize" (component dev): the static libraries kz_geom and kz_physics as the
# imported targets kolize::geom and kolize::physics, their public headers, and the files that
# find_package(kolize) reads. Installed layout under <prefix>:
#   include/kolize/geom/*.hpp, include/kolize/physics/*.hpp (consumers include "geom/geom.hpp")
#   lib/libkolize_geom.a, lib/libkolize_physics.a
#   lib/cmake/kolize/kolizeConfig.cmake, kolizeConfigVersion.cmake, kolizeTargets*.cmake
# See docs/packaging.md.
include(CMakePackageConfigHelpers)

set(KZ_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kolize)

install(TARGETS kz_geom kz_physics
        EXPORT kolizeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kolize COMPONENT dev)
install(EXPORT kolizeTargets
        NAMESPACE kolize::
        DESTINATION ${KZ_INSTALL_CMAKEDIR}
        COMPONENT dev)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/kolizeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/kolizeConfig.cmake
                              INSTALL_DESTINATION ${KZ_INSTALL_CMAKEDIR})
# 0.x: a new minor version may break the interface, so only the same major.minor matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kolizeConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kolizeConfig.cmake ${PROJECT_BINARY_DIR}/kolizeConfigVersion.cmake
        DESTINATION ${KZ_INSTALL_CMAKEDIR}
        COMPONENT dev)
