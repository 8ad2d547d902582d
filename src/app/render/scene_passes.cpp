// The passes that draw the scene itself: the sun's shadow map, then the room, the bodies and the
// obstacles, lit and shadowed, and the translucent surfaces over them (Renderer::draw lists them
// in order).
#include "renderer_impl.hpp"

#include <glm/gtc/type_ptr.hpp>

namespace kz::render {
namespace {

constexpr glm::vec3 kWallColor{0.30f, 0.33f, 0.38f};
constexpr glm::vec3 kGridColor{0.55f, 0.60f, 0.68f};
/// The shadow pass's slope-scaled depth bias (glPolygonOffset's factor and units): a caster's depth
/// is pushed back by more where the sun grazes it, so lit faces of meshes do not shadow themselves.
constexpr float kShadowSlopeBias = 1.5f;
constexpr float kShadowConstantBias = 2.0f;

/// Binds a lit program and sets the uniforms both have: the camera, the lights, shadow.glsl's, and
/// the shadow map on texture unit 0.
void useLitProgram(const Program& program, const LitUniforms& u, const Frame& frame, GLuint shadowTexture) {
    glUseProgram(program.id());
    glUniformMatrix4fv(u.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform3fv(u.keyDir, 1, glm::value_ptr(frame.keyDir));
    glUniform3fv(u.fillDir, 1, glm::value_ptr(frame.fillDir));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadowTexture);
    glUniformMatrix4fv(u.shadow.viewProj, 1, GL_FALSE, glm::value_ptr(frame.sun.viewProj));
    glUniform3fv(u.shadow.sunDir, 1, glm::value_ptr(frame.sun.towardSun));
    glUniform1f(u.shadow.strength, frame.sun.strength);
    glUniform1f(u.shadow.texelWorld, frame.sun.texelWorld);
}

} // namespace

void Renderer::Impl::drawBodyMeshes() const {
    const auto draw = [](const InstancedMesh& mesh, const std::vector<Instance>& instances) {
        if (instances.empty()) return;
        glBindVertexArray(mesh.vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr,
                                static_cast<GLsizei>(instances.size()));
    };
    draw(sphereMeshInUse(), sphereInstances);
    draw(boxMesh, boxInstances);
    draw(cylinderMesh, cylinderInstances);
    draw(tubeMesh, tubeInstances);
    draw(hemisphereMesh, hemisphereInstances);
    for (const auto& [mesh, instances] : hullBatches)
        draw(mesh->flat, instances);
}

void Renderer::Impl::drawObstacleMeshes(std::span<const Obstacle> obstacles, int selectedObstacle) {
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        const Obstacle& obstacle = obstacles[i];
        const ObstacleMesh* gpu = obstacleMesh(obstacle.mesh);
        if (gpu == nullptr || gpu->flat.indexCount == 0) continue;
        glm::vec4 color = unpackColor(obstacle.color);
        if (static_cast<int>(i) == selectedObstacle) color = selectedTint(color);
        obstacleInstance.assign(1, Instance{modelMatrix(obstacle), color});
        streamBuffer(GL_ARRAY_BUFFER, gpu->flat.instances, obstacleInstance);
        glBindVertexArray(gpu->flat.vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, gpu->flat.indexCount, GL_UNSIGNED_INT, nullptr, 1);
    }
}

/// The depth of every body and obstacle as the sun sees them. Bodies are closed: their back faces
/// go in (front faces culled), so a lit face is never compared with itself. Obstacles need not be
/// closed: both sides go in, pushed back by the slope-scaled bias. The walls cast nothing (the
/// ceiling would shade the whole room); they only receive.
void Renderer::Impl::drawShadowMap(const Frame& frame, std::span<const Obstacle> obstacles) {
    shadowMap.beginPass();
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(shadowProgram.id());
    glUniformMatrix4fv(shadowU.lightViewProj, 1, GL_FALSE, glm::value_ptr(frame.sun.viewProj));
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);
    drawBodyMeshes();
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(kShadowSlopeBias, kShadowConstantBias);
    drawObstacleMeshes(obstacles, -1);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glCullFace(GL_BACK);
}

/// Walls, pushed back a little in depth so their edges and grid-mates draw cleanly on them.
void Renderer::Impl::drawRoom(const Frame& frame) {
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    const LitPrograms& programs = lit(frame);
    useLitProgram(programs.room, programs.roomU, frame, shadowMap.texture());
    glUniform3fv(programs.roomWallColor, 1, glm::value_ptr(kWallColor));
    glUniform3fv(programs.roomGridColor, 1, glm::value_ptr(kGridColor));
    walls.draw(GL_TRIANGLES, wallVertices);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

/// Bodies, lit: one instanced draw call per shape. Leaves the scene program bound for the obstacles.
void Renderer::Impl::drawBodies(const Frame& frame) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    const LitPrograms& programs = lit(frame);
    useLitProgram(programs.scene, programs.sceneU, frame, shadowMap.texture());
    glUniform3fv(programs.sceneEye, 1, glm::value_ptr(frame.eye));
    drawBodyMeshes();
}

/// Obstacles, lit with the scene program drawBodies bound: one draw each, both sides (a mesh need
/// not be closed; scene.frag lights the side that faces the camera).
void Renderer::Impl::drawObstacles(std::span<const Obstacle> obstacles, int selectedObstacle) {
    glDisable(GL_CULL_FACE);
    drawObstacleMeshes(obstacles, selectedObstacle);
    glEnable(GL_CULL_FACE);
}

/// The translucent surfaces, each lit and flat shaded without the sun's shadow (a drawing over the
/// scene, casting none), blended over what is drawn so far: depth tested against the opaque scene,
/// writing no depth, so what lies inside or behind a surface still shows through it. Back faces
/// first, then front faces: a closed convex mesh blends its far side under its near side.
void Renderer::Impl::drawTranslucent(const Frame& frame) {
    if (debugLines.surfaces.empty()) return;
    useLitProgram(unshadowed.scene, unshadowed.sceneU, frame, shadowMap.texture());
    glUniform3fv(unshadowed.sceneEye, 1, glm::value_ptr(frame.eye));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_CULL_FACE);
    for (const TranslucentSurface& surface : debugLines.surfaces) {
        const MeshData flat = flatShaded(surface.positions, surface.indices); // indices 0, 1, 2, ...
        if (flat.vertices.empty()) continue;
        const GLsizei count = surfaceMesh.upload(flat.vertices, Instance{glm::mat4(1.0f), surface.color});
        for (const GLenum culled : {GL_FRONT, GL_BACK}) {
            glCullFace(culled);
            glDrawArraysInstanced(GL_TRIANGLES, 0, count, 1);
        }
    }
    glCullFace(GL_BACK);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

} // namespace kz::render
