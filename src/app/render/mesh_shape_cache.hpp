// Data the renderer derives from a MeshShape (its GPU buffers, its BVH boxes), made on first use
// and kept while an obstacle still uses the mesh. CPU side; no GL here.
#pragma once

#include "physics/obstacle.hpp"

#include <memory>
#include <unordered_map>
#include <utility>

namespace kz::render {

/// One T per MeshShape (or per Shape: a body's ConvexHull). Keyed by the shape's address; the weak
/// pointer tells a live entry from one whose mesh was freed (and whose address a new mesh may reuse).
template <class T, class Shape = MeshShape>
class MeshShapeCache {
public:
    /// The entry of `mesh`, made by `make(mesh)` on first use; null for a null mesh.
    template <class Make>
    T* get(const std::shared_ptr<const Shape>& mesh, Make&& make) {
        if (!mesh) return nullptr;
        auto it = entries_.find(mesh.get());
        if (it != entries_.end() && it->second.shape.expired()) {
            entries_.erase(it);
            it = entries_.end();
        }
        if (it == entries_.end())
            it = entries_.emplace(mesh.get(), Entry{mesh, std::forward<Make>(make)(mesh)}).first;
        return it->second.value.get();
    }

    /// Frees the entries no obstacle uses any more (after a scenario change).
    void dropUnused() {
        std::erase_if(entries_, [](const auto& entry) { return entry.second.shape.expired(); });
    }

private:
    struct Entry {
        std::weak_ptr<const Shape> shape; ///< Expired once no obstacle uses the mesh: then dropped.
        std::unique_ptr<T> value;
    };
    std::unordered_map<const Shape*, Entry> entries_;
};

} // namespace kz::render
