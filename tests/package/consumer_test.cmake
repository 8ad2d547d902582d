# Package.ConsumerFindsKolizeBuildsAndRuns (cmake -P): installs the build's component "dev" into
# a fresh prefix under WORK_DIR, checks what was installed, then configures, builds and runs the
# consumer project (consumer/) against that prefix alone and compares its output with
# consumer/expected.txt.
# Variables: BUILD_DIR, SOURCE_DIR (the repository), WORK_DIR, GENERATOR, CXX_COMPILER,
# BUILD_TYPE, LIBDIR (CMAKE_INSTALL_LIBDIR), VERSION_MAJOR, VERSION_MINOR, SANITIZE_FLAGS.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component dev)

# The package's files, and nothing of the demo (that is the component "demo", the .deb's).
foreach(file IN ITEMS include/kolize/geom/geom.hpp include/kolize/physics/world.hpp
                      ${LIBDIR}/libkolize_geom.a ${LIBDIR}/libkolize_physics.a
                      ${LIBDIR}/cmake/kolize/kolizeConfig.cmake
                      ${LIBDIR}/cmake/kolize/kolizeConfigVersion.cmake
                      ${LIBDIR}/cmake/kolize/kolizeTargets.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
foreach(file IN ITEMS bin share include/kolize/physics/world_impl.hpp include/kolize/geom/detail.hpp)
  if(EXISTS ${prefix}/${file})
    message(FATAL_ERROR "installed with the component dev, but should not be: ${file}")
  endif()
endforeach()

# The exported targets name no path of the source or build tree, and no private target.
file(GLOB target_files ${prefix}/${LIBDIR}/cmake/kolize/kolizeTargets*.cmake)
foreach(target_file IN LISTS target_files)
  file(READ ${target_file} text)
  foreach(leak IN ITEMS "${SOURCE_DIR}" "${BUILD_DIR}" kz_warnings kz_geom kz_physics)
    string(FIND "${text}" "${leak}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${target_file} mentions ${leak}")
    endif()
  endforeach()
endforeach()

# The consumer, configured with the prefix as the only place to find kolize.
set(consumer_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
                  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(SANITIZE_FLAGS)
  list(APPEND consumer_args "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
endif()
set(consumer_source ${SOURCE_DIR}/tests/package/consumer)

# A newer minor version is not compatible with this one (0.x: SameMinorVersion).
math(EXPR next_minor "${VERSION_MINOR} + 1")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${consumer_source} -B ${WORK_DIR}/too-new ${consumer_args}
                        -DKOLIZE_VERSION=${VERSION_MAJOR}.${next_minor}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "requested version \"${VERSION_MAJOR}\\.${next_minor}\"")
  message(FATAL_ERROR "find_package(kolize ${VERSION_MAJOR}.${next_minor}) did not fail on the version:\n${out}\n${err}")
endif()

run(${CMAKE_COMMAND} -S ${consumer_source} -B ${WORK_DIR}/build ${consumer_args}
                     -DKOLIZE_VERSION=${VERSION_MAJOR}.${VERSION_MINOR} -DKOLIZE_HEADER_CHECK=ON)
string(FIND "${run_output}" "from ${prefix}/${LIBDIR}/cmake/kolize" at)
if(at EQUAL -1)
  message(FATAL_ERROR "kolize not found in ${prefix}:\n${run_output}")
endif()
string(REGEX MATCH "kolize headers checked: [0-9]+" headers "${run_output}")
message(STATUS "${headers}")

run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2)
run(${WORK_DIR}/build/consumer)
file(READ ${consumer_source}/expected.txt expected)
if(NOT run_output STREQUAL expected)
  message(FATAL_ERROR "the consumer printed\n${run_output}\ninstead of\n${expected}")
endif()
message(STATUS "the consumer printed, as expected:\n${run_output}")
