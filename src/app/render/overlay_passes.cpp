// The passes over the lit scene: the selection's outline, the room's edges, the debug lines (after
// the translucent surfaces, scene_passes.cpp) and the picked triangle on top (Renderer::draw lists them in
// order).
#include "renderer_impl.hpp"

#include <glm/gtc/type_ptr.hpp>

namespace kz::render {
namespace {

constexpr glm::vec4 kOutlineColor{1.0f, 0.92f, 0.25f, 1.0f}; // bright yellow
constexpr float kOutlineGrow = 1.06f;
/// A body's rim, in points of the UI (times Frame::pixelScale in framebuffer pixels).
constexpr float kOutlinePoints = 2.5f;
/// An obstacle's rim: its hull pushed this many points along the vertex normals (it is not grown
/// about a centre: a non-convex mesh has none that works).
constexpr float kMeshOutlinePoints = 3.5f;
constexpr float kHitTriangleFillAlpha = 0.45f;
/// Debug lines are drawn twice: faintly through everything, then depth tested at full strength.
constexpr float kHiddenLineAlpha = 0.3f;

} // namespace

/// The selected body's or obstacle's rim: its grown back faces show only around the silhouette. A
/// sphere or box grows about its centre; an obstacle's hull, a cylinder, each part of a capsule
/// and a hull body's welded hull are pushed along their normals.
void Renderer::Impl::drawSelectionOutline(const Frame& frame, const World& world,
                                          const Selection& selection) {
    const glm::vec2 viewport(frame.framebuffer);
    glCullFace(GL_FRONT);
    glUseProgram(outlineProgram.id());
    glUniformMatrix4fv(outlineU.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform2fv(outlineU.viewport, 1, glm::value_ptr(viewport));
    glUniform4fv(outlineU.color, 1, glm::value_ptr(kOutlineColor));
    const auto draw = [&](const InstancedMesh* mesh, const glm::mat4& model, const glm::mat3& normalMatrix) {
        glUniformMatrix4fv(outlineU.model, 1, GL_FALSE, glm::value_ptr(model));
        glUniformMatrix3fv(outlineU.normalMatrix, 1, GL_FALSE, glm::value_ptr(normalMatrix));
        if (mesh == nullptr || mesh->indexCount == 0) return;
        glBindVertexArray(mesh->vao.id());
        glDrawElements(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr);
    };
    // Along the normals: the inverse transpose of the model's linear part carries them.
    const auto alongNormals = [&](const InstancedMesh* mesh, const glm::mat4& model, float points) {
        glUniform1f(outlineU.grow, 1.0f);
        glUniform1f(outlineU.pixels, points * frame.pixelScale);
        glUniform1i(outlineU.alongNormal, 1);
        draw(mesh, model, glm::transpose(glm::inverse(glm::mat3(model))));
    };
    if (selection.body >= 0) {
        const Body& body = world.bodies()[static_cast<std::size_t>(selection.body)];
        if (body.shape == ShapeType::Sphere || body.shape == ShapeType::Box) {
            glUniform1f(outlineU.grow, kOutlineGrow);
            glUniform1f(outlineU.pixels, kOutlinePoints * frame.pixelScale);
            glUniform1i(outlineU.alongNormal, 0);
            draw(body.shape == ShapeType::Sphere ? &sphereMeshInUse() : &boxMesh, modelMatrix(body),
                 glm::mat3(1.0f));
        } else if (body.shape == ShapeType::Capsule) {
            const CapsuleParts parts = capsuleParts(body);
            alongNormals(&tubeMesh, parts.side, kOutlinePoints);
            alongNormals(&hemisphereMesh, parts.top, kOutlinePoints);
            alongNormals(&hemisphereMesh, parts.bottom, kOutlinePoints);
        } else if (body.shape == ShapeType::Cylinder) {
            alongNormals(&cylinderMesh, modelMatrix(body), kOutlinePoints);
        } else if (HullMesh* gpu = hullMesh(body.hull)) {
            alongNormals(&gpu->hull, modelMatrix(body), kOutlinePoints);
        }
    } else {
        const Obstacle& obstacle = world.obstacles()[static_cast<std::size_t>(selection.obstacle)];
        const ObstacleMesh* gpu = obstacleMesh(obstacle.mesh);
        glUniform1f(outlineU.grow, 1.0f);
        glUniform1f(outlineU.pixels, kMeshOutlinePoints * frame.pixelScale);
        glUniform1i(outlineU.alongNormal, 1);
        draw(gpu != nullptr ? &gpu->hull : nullptr, modelMatrix(obstacle), obstacle.normalMatrix);
    }
    glCullFace(GL_BACK);
}

namespace {

/// Binds the line program at full strength with the camera's matrix.
void useLineProgram(const Program& program, GLint viewProj, GLint alpha, const Frame& frame) {
    glDisable(GL_CULL_FACE);
    glUseProgram(program.id());
    glUniformMatrix4fv(viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform1f(alpha, 1.0f);
}

} // namespace

/// The room's edges, depth tested.
void Renderer::Impl::drawRoomEdges(const Frame& frame) {
    useLineProgram(lineProgram, linesU.viewProj, linesU.alpha, frame);
    lineStream.draw(GL_LINES, edgeLines);
}

/// Debug lines faint through everything, then solid. Leaves the line program bound for drawOnTop.
void Renderer::Impl::drawDebugLines(const Frame& frame) {
    useLineProgram(lineProgram, linesU.viewProj, linesU.alpha, frame);
    if (debugLines.lines.empty()) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, kHiddenLineAlpha);
    lineStream.draw(GL_LINES, debugLines.lines);
    glEnable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, 1.0f);
    glBindVertexArray(lineStream.vao.id());
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(debugLines.lines.size())); // same data, no re-upload
    glDisable(GL_BLEND);
}

/// Over everything, with the line program drawDebugLines bound: the picked triangle, filled faintly
/// and edged.
void Renderer::Impl::drawOnTop() {
    if (debugLines.topTriangles.empty() && debugLines.topLines.empty()) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, kHitTriangleFillAlpha);
    lineStream.draw(GL_TRIANGLES, debugLines.topTriangles);
    glUniform1f(linesU.alpha, 1.0f);
    lineStream.draw(GL_LINES, debugLines.topLines);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
}

} // namespace kz::render
