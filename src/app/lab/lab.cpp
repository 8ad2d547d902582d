#include "app/lab/lab.hpp"

#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/unit.hpp"
#include "physics/room.hpp"
#include "scenario/scenario.hpp" // CameraDesc

#include <algorithm>
#include <utility>
#include <vector>

namespace kz {

std::optional<LabQuery> Lab::query() const {
    if (!open_) return std::nullopt;
    return open_->scene.query;
}

void Lab::open(LabQuery query, OrbitCamera& camera) {
    OrbitCamera scenarioCamera = open_ ? open_->scenarioCamera : camera;
    open_.emplace();
    open_->scene = makeLabScene(query);
    open_->result = runLabQuery(open_->scene);
    open_->scenarioCamera = std::move(scenarioCamera);
    view_.satAxis = view_.bvhStep = view_.convexStep = -1; // a new query starts on its own answer
    camera = OrbitCamera::forRoom(boxRoom(kLabRoomSize).bounds, CameraDesc{kLabEye, kLabTarget, kLabFovDeg});
}

void Lab::close(OrbitCamera& camera) {
    if (!open_) return;
    camera = open_->scenarioCamera;
    open_.reset();
}

bool Lab::press(const ScreenCamera& screen, glm::vec2 pos, LabButton button, bool shift,
                bool panelWantsMouse) {
    return open_ && open_->mouse.press(open_->scene, screen, pos, button, shift, panelWantsMouse);
}

void Lab::release(LabButton button) {
    if (open_) open_->mouse.release(button);
}

void Lab::update(const ScreenCamera& screen, const Pointer& pointer, EventLog& events, std::uint64_t frame) {
    if (!open_) return;
    open_->mouse.drag(open_->scene, screen, pointer);
    open_->mouse.hover(open_->scene, screen, pointer);
    open_->result = runLabQuery(open_->scene);
    if (open_->loggedVerdict != open_->result.positive) {
        logLabResult(events, frame, labQueryName(open_->scene.query), open_->result);
        open_->loggedVerdict = open_->result.positive;
    }
}

bool Lab::setShapeKind(int index, LabShapeKind kind) {
    if (!open_ || !labQueryInfo(open_->scene.query).anyConvexShape || index < 0 ||
        index >= static_cast<int>(open_->scene.shapes.size()) ||
        std::find(lab_parts::kConvexKinds.begin(), lab_parts::kConvexKinds.end(), kind) ==
            lab_parts::kConvexKinds.end())
        return false;
    LabShape& shape = open_->scene.shapes[std::size_t(index)];
    shape = lab_parts::convexOfKind(kind, shape.name, shape.position, shape.orientation, shape.color);
    open_->mouse.forget();
    open_->result = runLabQuery(open_->scene);
    return true;
}

std::optional<LabItem> Lab::heldOrHovered() const {
    if (!open_) return std::nullopt;
    return open_->mouse.grabbed() ? open_->mouse.grabbed() : open_->mouse.hovered();
}

std::string Lab::hoverText() const {
    const std::optional<LabItem> item = heldOrHovered();
    if (!item) return {};
    const auto i = static_cast<std::size_t>(item->index);
    return item->handle ? open_->scene.handles[i].name + " (an end: drag it)"
                        : open_->scene.shapes[i].name + " (drag: move, right-drag: turn)";
}

void Lab::drawConstruction(LabCanvas& canvas) const {
    if (open_) drawLabConstruction(open_->scene, open_->result, canvas, view_);
}

Lab::Picture Lab::picture() const {
    std::vector<int> bodyOfShape, bodyOfHandle, obstacleOfShape;
    Picture picture{labWorld(open_->scene, open_->result, &bodyOfShape, &bodyOfHandle, &obstacleOfShape)};
    if (const std::optional<LabItem> item = heldOrHovered()) {
        const auto i = static_cast<std::size_t>(item->index);
        picture.outlinedBody = item->handle ? bodyOfHandle[i] : bodyOfShape[i];
        if (!item->handle) picture.selectedObstacle = obstacleOfShape[i];
    }
    return picture;
}

} // namespace kz
