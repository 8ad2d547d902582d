#include "mesh_files.hpp"

#include "json_values.hpp"
#include "meshio/obj.hpp"
#include "scenario.hpp"

#include <system_error>

namespace kz::scenario_detail {

namespace fs = std::filesystem;

MeshFiles::MeshFiles(const std::string& scenarioSource, std::map<std::string, std::string>* collected)
    : collected_(collected) {
    std::error_code ec;
    const fs::path source(scenarioSource);
    if (source.has_parent_path() && fs::is_directory(source.parent_path(), ec))
        places_.push_back(source.parent_path());
    else if (!source.has_parent_path() && fs::is_regular_file(source, ec))
        places_.push_back(fs::path("."));
    places_.push_back(assetDirectory());
}

MeshFiles::MeshFiles(const std::map<std::string, std::string>& texts) : texts_(&texts) {}

fs::path MeshFiles::find(const std::string& given, const std::string& p) const {
    fs::path file(given);
    if (!file.is_relative()) return file;
    std::error_code ec;
    std::string tried;
    for (const fs::path& place : places_) {
        if (fs::exists(place / given, ec)) return place / given;
        tried += (tried.empty() ? "" : " or ") + (place / given).string();
    }
    fail(p, given + ": no such file (looked for " + tried + ")");
}

void MeshFiles::spend(std::uintmax_t bytes, const std::string& given, const std::string& p) {
    // Every file counts toward one budget, so many meshes cannot add up to unbounded memory.
    totalBytes_ += bytes;
    if (totalBytes_ > kMaxScenarioMeshBytes)
        fail(p, given + ": the scenario's mesh files add up to more than " +
                    std::to_string(kMaxScenarioMeshBytes >> 20) + " MiB (" +
                    std::to_string(kMaxScenarioMeshBytes) + " bytes), the limit per scenario");
}

std::shared_ptr<const MeshShape> MeshFiles::load(const std::string& given, const std::string& p) {
    if (given.empty()) fail(p, "must name a mesh file (e.g. \"meshes/arch.obj\")");
    std::string error;
    std::optional<TriangleMesh> mesh;
    if (texts_ != nullptr) {
        if (const auto it = cache_.find(given); it != cache_.end()) return it->second;
        const auto text = texts_->find(given);
        if (text == texts_->end()) fail(p, given + ": not among the mesh files given with the scenario");
        spend(text->second.size(), given, p);
        mesh = parseObj(text->second, given, error);
        if (!mesh) fail(p, oneLine(error));
        auto shape = MeshShape::make(given, std::move(mesh->vertices), std::move(mesh->indices), error);
        if (!shape) fail(p, error);
        cache_.emplace(given, shape);
        return shape;
    }

    const fs::path file = find(given, p);
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(file, ec);
    const std::string key = ec ? file.string() : canonical.string();
    if (const auto it = cache_.find(key); it != cache_.end()) {
        // Another name for a file already loaded: the same text under this name too.
        if (collected_ != nullptr && !collected_->contains(given))
            collected_->emplace(given, collected_->at(firstName_.at(key)));
        return it->second;
    }
    const std::uintmax_t bytes = fs::file_size(file, ec);
    spend(ec ? 0 : bytes, given, p);
    const std::optional<std::string> text = readObjText(file, error);
    if (!text) fail(p, error);
    mesh = parseObj(*text, file.string(), error);
    if (!mesh) fail(p, oneLine(error));
    auto shape = MeshShape::make(given, std::move(mesh->vertices), std::move(mesh->indices), error);
    if (!shape) fail(p, error);
    cache_.emplace(key, shape);
    firstName_.emplace(key, given);
    if (collected_ != nullptr) collected_->emplace(given, *text);
    return shape;
}

} // namespace kz::scenario_detail
