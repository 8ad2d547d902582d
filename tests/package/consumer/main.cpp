// Uses kolize::geom and kolize::physics as any other project would: a ray cast against a sphere,
// and the two-balls scenario (assets/scenarios/two-balls.json) built by hand and stepped for three
// seconds (the red ball meets two walls). tests/package/consumer_test.cmake compares what it
// prints with expected.txt.
#include "geom/geom.hpp"
#include "physics/state_hash.hpp"
#include "physics/world.hpp"

#include <cstdio>

namespace {

void printRaySphere() {
    // Solve |o + t d - c|^2 = r^2: from z = -5 along +z at speed 2, the unit sphere at the origin
    // is met at z = -1, so t = 4 / 2 = 2 with the normal facing the ray.
    const kz::Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 2.0f}};
    const kz::Sphere sphere{{0.0f, 0.0f, 0.0f}, 1.0f};
    if (const auto hit = kz::raycast(ray, sphere)) {
        std::printf("ray-sphere: t %.3f point (%.3f, %.3f, %.3f) normal (%.3f, %.3f, %.3f)\n", hit->t,
                    hit->point.x, hit->point.y, hit->point.z, hit->normal.x, hit->normal.y, hit->normal.z);
    } else {
        std::printf("ray-sphere: miss\n");
    }
}

kz::BodyDesc ball(const char* name, glm::vec3 position, glm::vec3 velocity) {
    kz::BodyDesc desc;
    desc.name = name;
    desc.shape = kz::ShapeType::Sphere;
    desc.radius = 0.5f;
    desc.position = position;
    desc.velocity = velocity;
    desc.restitution = 1.0f;
    desc.friction = 0.0f;
    return desc;
}

void printTwoBalls() {
    kz::World world(kz::boxRoom({10.0f, 10.0f, 10.0f}));
    world.addBody(ball("red ball", {-2.0f, 0.5f, -1.0f}, {4.0f, 1.5f, 2.5f}));
    world.addBody(ball("blue ball", {2.0f, -1.0f, 1.5f}, {-3.0f, 2.0f, -1.5f}));
    for (int i = 0; i < 360; ++i) {
        world.step();
        // The state `kolize --headless --scenario two-balls --steps 10` reports (deb_test.cmake).
        if (world.stepCount() == 10)
            std::printf("after 10 steps: state hash %s\n", kz::stateHashText(kz::stateHash(world)).c_str());
    }
    std::printf("two balls: %llu steps, %.3f s\n", static_cast<unsigned long long>(world.stepCount()),
                world.simTime());
    for (const kz::Body& body : world.bodies())
        std::printf("%s at (%.3f, %.3f, %.3f)\n", body.name.c_str(), body.position.x, body.position.y,
                    body.position.z);
    std::printf("kinetic energy %.4f J, %d bodies outside the room\n", world.kineticEnergy(),
                world.escapedCount());
    std::printf("state hash %s\n", kz::stateHashText(kz::stateHash(world)).c_str());
}

} // namespace

int main() {
    printRaySphere();
    printTwoBalls();
    return 0;
}
