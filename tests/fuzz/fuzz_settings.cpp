// Fuzz target: the window's settings file (src/app/settings). An input is written to a file and
// read: whatever it holds, reading gives settings and at most one warning line, which names the
// file; what was read, written back and read again, is the same settings with no warning.
#include "app/settings/settings.hpp"
#include "fuzz_check.hpp"
#include "support/temp_dir.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

bool same(const kz::Settings& a, const kz::Settings& b) {
    return a.windowSize == b.windowSize && a.windowPosition == b.windowPosition &&
           a.panelLayout == b.panelLayout && a.shadows == b.shadows && a.msaaSamples == b.msaaSamples &&
           a.spin == b.spin && a.spinSpeedDegPerSecond == b.spinSpeedDegPerSecond &&
           a.scenario == b.scenario && a.labQuery == b.labQuery && a.labOpen == b.labOpen &&
           a.firstRunCardDismissed == b.firstRunCardDismissed;
}

/// This process's own file (fuzzers may run side by side), in a folder removed at exit.
const std::filesystem::path& settingsPath() {
    static const kz::test::TempDir folder;
    static const std::filesystem::path file = folder.path() / "settings.json";
    return file;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path& file = settingsPath();
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    const kz::SettingsRead read = kz::readSettings(file);
    kz::fuzz::check(read.warning.find_first_of("\r\n") == std::string::npos,
                    "the warning is not one line: " + read.warning);
    kz::fuzz::check(read.warning.empty() || read.warning.find(file.string()) != std::string::npos,
                    "the warning does not name the file: " + read.warning);

    std::string error;
    kz::fuzz::check(kz::writeSettings(file, read.settings, error), "cannot write back: " + error);
    const kz::SettingsRead again = kz::readSettings(file);
    kz::fuzz::check(again.warning.empty(), "what was written reads with a warning: " + again.warning);
    kz::fuzz::check(same(read.settings, again.settings), "written and read again, the settings differ");
    return 0;
}
