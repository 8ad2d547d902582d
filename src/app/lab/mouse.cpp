#include "app/lab/mouse.hpp"

namespace kz {

bool LabInteraction::press(const LabScene& scene, const ScreenCamera& screen, glm::vec2 pos, LabButton button,
                           bool shift, bool panelWantsMouse) {
    if (panelWantsMouse || grab_) return false;
    const std::optional<LabItemHit> hit = pickLabItem(scene, screen.rayAt(pos));
    if (!hit) return false;
    const bool turn = button == LabButton::Right || shift;
    if (turn && hit->item.handle) return false; // a handle is a point: nothing to turn
    grab_ = Grab{
        hit->item, button, turn, labItemPosition(scene, hit->item) - hit->point, screen.depthOf(hit->point),
        pos};
    return true;
}

void LabInteraction::drag(LabScene& scene, const ScreenCamera& screen, const Pointer& pointer) {
    if (!grab_) return;
    const glm::vec2 pos = pointer.pos;
    if (!(grab_->button == LabButton::Left ? pointer.leftDown : pointer.rightDown)) {
        grab_.reset();
        return;
    }
    if (grab_->turn) {
        // x turns about the camera's up axis, y about its right axis: the view matrix's rows.
        const glm::vec3 right(screen.view[0][0], screen.view[1][0], screen.view[2][0]);
        const glm::vec3 up(screen.view[0][1], screen.view[1][1], screen.view[2][1]);
        const glm::vec2 by = (pos - grab_->last) * kRadiansPerPixel;
        grab_->last = pos;
        if (by == glm::vec2(0.0f)) return;
        turnLabShape(scene, grab_->item.index,
                     glm::angleAxis(by.x, glm::normalize(up)) * glm::angleAxis(by.y, glm::normalize(right)));
        return;
    }
    if (const std::optional<glm::vec3> cursor = screen.pointAtDepth(pos, grab_->depth))
        moveLabItem(scene, grab_->item, *cursor + grab_->offset);
}

void LabInteraction::release(LabButton button) {
    if (grab_ && grab_->button == button) grab_.reset();
}

void LabInteraction::hover(const LabScene& scene, const ScreenCamera& screen, const Pointer& pointer) {
    hover_.reset();
    if (!pointer.overScene) return;
    if (const auto hit = pickLabItem(scene, screen.rayAt(pointer.pos))) hover_ = hit->item;
}

void LabInteraction::forget() {
    grab_.reset();
    hover_.reset();
}

std::optional<LabItem> LabInteraction::grabbed() const {
    if (!grab_) return std::nullopt;
    return grab_->item;
}

} // namespace kz
