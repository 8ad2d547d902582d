// Small Dear ImGui pieces the panel's sections share (kolize only).
#pragma once

#include <glm/vec3.hpp>
#include <imgui.h>

namespace kz {

/// One line of a labelled vector: the label padded to 9 characters, then x, y and z to 3 decimals.
inline void textVec3(const char* label, const glm::vec3& v) {
    ImGui::Text("%-9s %8.3f %8.3f %8.3f", label, static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
}

} // namespace kz
