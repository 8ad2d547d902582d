#include "mesh_files.hpp"

#include "json_values.hpp"
#include "meshio/obj.hpp"
#include "scenario.hpp"

#include <system_error>

namespace kz::scenario_detail {

namespace fs = std::filesystem;

MeshFiles::MeshFiles(const std::string& scenarioSource) {
    std::error_code ec;
    const fs::path source(scenarioSource);
    if (source.has_parent_path() && fs::is_directory(source.parent_path(), ec))
        places_.push_back(source.parent_path());
    else if (!source.has_parent_path() && fs::is_regular_file(source, ec))
        places_.push_back(fs::path("."));
    places_.push_back(assetDirectory());
}

std::shared_ptr<const MeshShape> MeshFiles::load(const std::string& given, const std::string& p) {
    if (given.empty()) fail(p, "must name a mesh file (e.g. \"meshes/arch.obj\")");
    fs::path file(given);
    std::error_code ec;
    if (file.is_relative()) {
        std::string tried;
        bool found = false;
        for (const fs::path& place : places_) {
            if (fs::exists(place / given, ec)) {
                file = place / given;
                found = true;
                break;
            }
            tried += (tried.empty() ? "" : " or ") + (place / given).string();
        }
        if (!found) fail(p, given + ": no such file (looked for " + tried + ")");
    }
    const fs::path canonical = fs::weakly_canonical(file, ec);
    const std::string key = ec ? file.string() : canonical.string();
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    // Every file counts toward one budget, so many meshes cannot add up to unbounded memory.
    const std::uintmax_t bytes = fs::file_size(file, ec);
    if (!ec) totalBytes_ += bytes;
    if (totalBytes_ > kMaxScenarioMeshBytes)
        fail(p, given + ": the scenario's mesh files add up to more than " +
                    std::to_string(kMaxScenarioMeshBytes >> 20) + " MiB (" +
                    std::to_string(kMaxScenarioMeshBytes) + " bytes), the limit per scenario");
    std::string error;
    auto mesh = loadObj(file, error);
    if (!mesh) fail(p, error);
    auto shape = MeshShape::make(given, std::move(mesh->vertices), std::move(mesh->indices), error);
    if (!shape) fail(p, error);
    cache_.emplace(key, shape);
    return shape;
}

} // namespace kz::scenario_detail
