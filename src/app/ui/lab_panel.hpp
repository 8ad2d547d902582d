// The panel's Lab and Probe sections and the lab's labels on screen (ImGui; kolize only). The lab's
// logic they show lives in kz_lab (lab/query.hpp, lab/probe.hpp).
#pragma once

#include "app/ui/panel.hpp"

namespace kz {

/// The Lab header: the list of queries (choosing one opens the lab, "off" goes back to the
/// scenarios); while the lab shows, the verdict in colour, the key numbers, the seed document's
/// idea, what to drag and what is under the cursor, then its steps (lab_steps.hpp) as
/// its view() draws them.
void labHeader(Lab& lab, UiRequests& requests);

/// The Probe section: the probe's mode (off, ray, sphere cast, all hits), the cast's radius, and
/// what it finds under the cursor.
void probeSection(MouseProbe& probe, const World* world);

/// Each lab shape's name at its centre and each handle's beside it, on top of the picture.
void drawLabLabels(const LabScene& scene, const glm::mat4& view, const glm::mat4& proj, float nearPlane);

} // namespace kz
