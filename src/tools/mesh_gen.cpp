// kz_meshgen: writes the project's generated meshes (src/meshio/shapes.hpp) as OBJ files.
//
//   kz_meshgen --out assets/meshes
//
// Exit codes: 0 written; 1 a file could not be written; 2 a bad flag. Errors are one line on
// stderr, "kz_meshgen: <message>".
#include "app/cli/errors.hpp"
#include "meshio/obj.hpp"
#include "meshio/shapes.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

namespace {

using kz::cli::kExitFailure;
using kz::cli::kExitOk;
using kz::cli::kExitUsage;

using kz::cli::printError;

constexpr const char* kProgram = "kz_meshgen";

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Writes the Kolize meshes (arch.obj, torus.obj, steps.obj) into a folder.", "kz_meshgen"};
    std::string out;
    // Not CLI11's required(): it is checked before unexpected arguments, which then go unnamed.
    app.add_option("--out", out, "Required: folder to write into (created if missing), e.g. assets/meshes")
        ->type_name("DIR");
    app.footer("Exit codes: 0 written; 1 a file could not be written; 2 a bad flag.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        printError(kProgram, std::string(e.what()) + " (see kz_meshgen --help)");
        return kExitUsage;
    }
    if (out.empty()) {
        printError(kProgram, "--out DIR is required (see kz_meshgen --help)");
        return kExitUsage;
    }

    const std::filesystem::path dir(out);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        printError(kProgram, out + ": cannot create the folder (" + ec.message() + ")");
        return kExitFailure;
    }
    for (const kz::ProjectMesh& mesh : kz::projectMeshes()) {
        std::string error;
        const std::filesystem::path file = dir / mesh.fileName;
        if (!kz::writeObj(file, mesh.mesh, mesh.header, error)) {
            printError(kProgram, error);
            return kExitFailure;
        }
        std::printf("%s: %zu vertices, %zu triangles\n", file.string().c_str(), mesh.mesh.vertices.size(),
                    mesh.mesh.indices.size() / 3);
    }
    return kExitOk;
}
