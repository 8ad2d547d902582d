# Package.DebOpensItsWindow (cmake -P): the unpacked .deb of Package.DebUnpacksAndRunsHeadless
# (its fixture) opens its window and draws with the shaders of usr/share/kolize/shaders: a copy
# of the unpacked tree with one broken shader must fail on that file, and the tree as packaged
# must draw a few frames and write a screenshot. Needs a display (skipped without one, a failure
# when KZ_REQUIRE_DISPLAY is set, as in scripts/test.sh).
# Variables: ROOT (the unpacked .deb), WORK_DIR.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

if("$ENV{DISPLAY}" STREQUAL "")
  if(DEFINED ENV{KZ_REQUIRE_DISPLAY})
    message(FATAL_ERROR "no display (KZ_REQUIRE_DISPLAY is set)")
  endif()
  message(STATUS "Package test skipped: no display")
  return()
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(env ${CMAKE_COMMAND} -E env --unset=KOLIZE_ASSET_DIR --unset=KOLIZE_SHADER_DIR)
set(window_flags --scenario two-balls --frames 5 --no-vsync --no-config) # never the user's settings

# The program reads its shaders from <exe>/../share/kolize/shaders: a broken one there stops it.
file(COPY ${ROOT}/usr DESTINATION ${WORK_DIR}/broken)
set(broken_shader ${WORK_DIR}/broken/usr/share/kolize/shaders/scene.frag)
file(WRITE ${broken_shader} "not GLSL\n")
execute_process(COMMAND ${env} ${WORK_DIR}/broken/usr/bin/kolize ${window_flags}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^kolize: ${broken_shader}:1: ")
  message(FATAL_ERROR "a broken ${broken_shader} did not stop kolize (${rc}):\n${out}\n${err}")
endif()

set(screenshot ${WORK_DIR}/screenshot.png)
run(${env} ${ROOT}/usr/bin/kolize ${window_flags} --screenshot ${screenshot})
file(READ ${screenshot} signature LIMIT 8 HEX)
expect("the screenshot's first bytes" "${signature}" 89504e470d0a1a0a)
message(STATUS "the unpacked kolize drew 5 frames: ${screenshot}")
