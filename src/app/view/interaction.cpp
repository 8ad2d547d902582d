#include "app/view/interaction.hpp"

#include "geom/screen_ray.hpp"

#include <algorithm>
#include <cstddef>

namespace kz {

Ray ScreenCamera::rayAt(glm::vec2 windowPos) const {
    // The centre of the SDL pixel, in physical (drawable) pixels for high-DPI windows.
    const glm::vec2 scale = glm::vec2(drawableSize) / glm::vec2(windowSize);
    return screenRay((windowPos + 0.5f) * scale, glm::vec2(drawableSize), view, proj);
}

float ScreenCamera::depthOf(const glm::vec3& p) const {
    return glm::dot(p - eye, glm::normalize(target - eye));
}

std::optional<glm::vec3> ScreenCamera::pointAtDepth(glm::vec2 windowPos, float depth) const {
    const Ray ray = rayAt(windowPos);
    const glm::vec3 forward = glm::normalize(target - eye);
    const float along = glm::dot(forward, ray.dir);
    if (!(along > 1e-4f)) return std::nullopt;
    const float t = (depth - glm::dot(forward, ray.origin - eye)) / along;
    return ray.origin + t * ray.dir;
}

void Interaction::press(const World& world, const ScreenCamera& screen, glm::vec2 pos, bool panelWantsMouse,
                        std::uint64_t frame) {
    if (panelWantsMouse) return;
    const Ray ray = screen.rayAt(pos);
    const std::optional<PickHit> hit = pickNearest(world, ray);
    picks_.ray = ray;
    picks_.selection = hit;
    drag_.reset();
    if (!hit) {
        events_.pick(frame, nullptr, nullptr);
        return;
    }
    if (hit->isObstacle()) {
        // Obstacles are static: selected, never dragged.
        events_.pickObstacle(frame, world.obstacles()[static_cast<std::size_t>(hit->obstacle)], *hit);
        return;
    }
    const Body& body = world.bodies()[static_cast<std::size_t>(hit->body)];
    events_.pick(frame, &body, &hit->hit);

    drag_ = Drag{hit->body, pos, body.position - hit->hit.point, screen.depthOf(hit->hit.point), false, pos};
}

void Interaction::release(const World& world, std::uint64_t frame) {
    endDrag(world, frame);
}

std::optional<SetBodyVelocity> Interaction::releaseAt(const World& world, const ScreenCamera& screen,
                                                      glm::vec2 pos, float frameSeconds,
                                                      std::uint64_t frame) {
    std::optional<SetBodyVelocity> flick;
    if (drag_ && glm::length(pos - drag_->aimedAt) >= kDragThresholdPixels) {
        Pointer last;
        last.pos = pos;
        last.leftDown = true;
        flick = drag(world, screen, last, frameSeconds, frame);
    }
    release(world, frame);
    return flick;
}

std::optional<SetBodyVelocity> Interaction::drag(const World& world, const ScreenCamera& screen,
                                                 const Pointer& pointer, float frameSeconds,
                                                 std::uint64_t frame) {
    if (!drag_) return std::nullopt;
    const Body& body = world.bodies()[static_cast<std::size_t>(drag_->body)];
    if (!pointer.leftDown) {
        // Released where we did not see it (outside the window).
        endDrag(world, frame);
        return std::nullopt;
    }
    if (!drag_->active) {
        if (glm::length(pointer.pos - drag_->pressPos) < kDragThresholdPixels) return std::nullopt;
        drag_->active = true;
        events_.drag(frame, true, body.name);
    }
    if (world.paused()) return std::nullopt; // nothing moves while paused; the body keeps its velocity

    // The grabbed point follows the cursor in the plane facing the camera at the grab depth; the
    // body gets the velocity that takes it there in one frame, so the solver still collides it.
    const std::optional<glm::vec3> cursor = screen.pointAtDepth(pointer.pos, drag_->depth);
    if (!cursor) return std::nullopt;
    const glm::vec3 target = *cursor + drag_->grabOffset;
    const float dt = std::max(frameSeconds * world.settings().timeScale, world.settings().timeStep);
    drag_->aimedAt = pointer.pos;
    glm::vec3 velocity = (target - body.position) / dt;
    const float speed = glm::length(velocity);
    if (speed > kMaxDragSpeed) velocity *= kMaxDragSpeed / speed;
    return SetBodyVelocity{drag_->body, velocity, body.angularVelocity * kDragAngularDamping};
}

void Interaction::hover(const World& world, const ScreenCamera& screen, const Pointer& pointer) {
    picks_.hover.reset();
    if (!pointer.overScene) return;
    picks_.hover = pickNearest(world, screen.rayAt(pointer.pos));
}

void Interaction::select(const World& world, const PickHit& hit, std::uint64_t frame) {
    endDrag(world, frame);
    picks_.ray.reset();
    picks_.selection = hit;
}

void Interaction::forget(const World& world, std::uint64_t frame) {
    endDrag(world, frame);
    picks_ = PickState{};
}

void Interaction::endDrag(const World& world, std::uint64_t frame) {
    if (drag_ && drag_->active)
        events_.drag(frame, false, world.bodies()[static_cast<std::size_t>(drag_->body)].name);
    drag_.reset();
}

} // namespace kz
