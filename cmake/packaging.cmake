# The Debian package of the demo: `cpack -G DEB` in the build folder makes kolize_<version>_<arch>.deb
# with the install component "demo" only (the kolize binary, its shaders and assets, the desktop
# entry and its icon), installed under /usr. The component "dev" (headers, static libraries and
# the CMake package, cmake/install.cmake) is for `cmake --install`, not the .deb. Its Depends come
# from dpkg-shlibdeps (the shared libraries the binary links: SDL2, libstdc++, ...).
# See docs/packaging.md.

# The desktop entry and its icon (a 256x256 crop of docs/kolize.png, the room of the default view).
install(FILES ${CMAKE_CURRENT_LIST_DIR}/desktop/kolize.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
        COMPONENT demo)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/desktop/kolize.png
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps
        COMPONENT demo)

set(KZ_PACKAGE_MAINTAINER "Kolize maintainers <maintainers@users.noreply.a-seed-e8ddeaca.example>"
    CACHE STRING "The Maintainer field of the .deb (Name <email>)")

set(CPACK_PACKAGE_NAME kolize)
set(CPACK_PACKAGE_VENDOR "Kolize")
set(CPACK_PACKAGE_CONTACT "${KZ_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "interactive demo of real-time collision detection")
# The .deb's long description, wrapped as Debian wraps it (each line is indented by CPack).
set(CPACK_PACKAGE_DESCRIPTION
    "Spheres and boxes fly and tumble inside a room bounded by planes; click any\n\
object to pick it with a ray from the mouse, pause, step, scrub back through\n\
time and replay. A query lab shows each collision query (ray casts, closest\n\
points, contacts, sweeps, times of impact) with its intermediate steps. It\n\
also runs headless (kolize --headless) and explains a query as JSON\n\
(kolize explain).")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

# One package, of the demo component alone, named kolize (not kolize-demo).
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL demo)
set(CPACK_DEBIAN_DEMO_PACKAGE_NAME kolize)
set(CPACK_DEBIAN_DEMO_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}") # after the summary line
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

# `cpack --config CPackSourceConfig.cmake`: the sources without the build folders and git.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\.git" "/build/" "/\\.cache/")

include(CPack)

cpack_add_component(demo
                    DISPLAY_NAME "Kolize demo"
                    DESCRIPTION "The kolize program, its shaders and assets, a desktop entry and an icon")
cpack_add_component(dev
                    DISPLAY_NAME "Kolize libraries"
                    DESCRIPTION "kolize::geom and kolize::physics: headers, static libraries, CMake package")
