// The screen-to-world picking ray.
#pragma once

#include "types.hpp"

namespace kz {

/// The ray through a point of the viewport, for OpenGL-style (GLM default: right-handed,
/// clip z in [-w, w]) perspective or orthographic projections.
/// `pixel` is in continuous window coordinates: (0, 0) is the top-left corner of the top-left
/// pixel and `viewportSize` the bottom-right corner, so the centre of the pixel SDL reports as
/// (x, y) is (x + 0.5, y + 0.5). The ray starts on the near plane, dir is unit length (t is a
/// world distance from the near plane), and every point on it projects back onto `pixel`.
/// Computed in double precision through the inverse view-projection. For an empty viewport or
/// singular or non-finite matrices it returns a ray with zero dir, which every query rejects.
Ray screenRay(glm::vec2 pixel, glm::vec2 viewportSize, const glm::mat4& view, const glm::mat4& proj);

} // namespace kz
