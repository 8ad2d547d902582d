// The window-test harness (window_harness.hpp).
#include "support/window_harness.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <signal.h>
#include <sstream>
#include <sys/file.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO_WARNINGS
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace kz::wintest {

bool haveDisplay() {
    std::string reason;
    const char* display = std::getenv("DISPLAY");
    if (display == nullptr || *display == '\0') {
        reason = "no display: DISPLAY is not set";
    } else if (std::system("command -v xdotool >/dev/null 2>&1") != 0) {
        reason = "xdotool is not installed (scripts/deps.sh installs it)";
    } else {
        return true;
    }
    if (std::getenv("KZ_REQUIRE_DISPLAY") != nullptr) {
        ADD_FAILURE() << reason << " (KZ_REQUIRE_DISPLAY is set)";
    }
    return false;
}

DisplayLock::DisplayLock() {
    std::string name = std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "none";
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    const fs::path file = fs::temp_directory_path() / ("kolize-interactive-" + name + ".lock");
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
}

DisplayLock::~DisplayLock() {
    if (fd_ >= 0) ::close(fd_); // closing releases the lock
}

TempDir::TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kolize-itest-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

TempDir::~TempDir() {
    if (path_.empty()) return;
    if (::testing::Test::HasFailure() || std::getenv("KZ_KEEP_TEST_FILES") != nullptr) {
        std::fprintf(stderr, "kept for inspection: %s\n", path_.c_str());
    } else {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
}

std::string shell(const std::string& command, int* status) {
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        if (status) *status = -1;
        return out;
    }
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
        out.append(buffer, n);
    const int rc = ::pclose(pipe);
    if (status) *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return out;
}

std::string xdo(const std::string& args, int* status, int seconds) {
    std::string out;
    int rc = 0;
    for (int attempt = 0; attempt < 4; ++attempt) {
        out = shell("timeout " + std::to_string(seconds) + " xdotool " + args + " 2>&1", &rc);
        if (rc == 0 || out.find("Can't open display") == std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (status) *status = rc;
    return out;
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
}

void sleepFor(std::chrono::milliseconds ms) {
    std::this_thread::sleep_for(ms);
}

Json vec3(const glm::vec3& v) {
    return Json::array({v.x, v.y, v.z});
}

Json sphere(const std::string& name, float radius, const glm::vec3& position, const std::string& color,
            const glm::vec3& velocity) {
    return Json{{"name", name},
                {"shape", "sphere"},
                {"radius", radius},
                {"position", vec3(position)},
                {"velocity", vec3(velocity)},
                {"color", color}};
}

Json box(const std::string& name, const glm::vec3& half, const glm::vec3& position,
         const std::string& color) {
    return Json{{"name", name},
                {"shape", "box"},
                {"half_extents", vec3(half)},
                {"position", vec3(position)},
                {"color", color}};
}

fs::path writeScenario(const fs::path& dir, const std::string& file, const std::optional<Camera>& camera,
                       const Json& bodies, float timeStep) {
    Json scenario = {{"name", file},          {"size", {10, 10, 10}}, {"gravity", {0, 0, 0}},
                     {"time_step", timeStep}, {"restitution", 1},     {"friction", 0}};
    if (camera) {
        scenario["camera"] = {
            {"eye", vec3(camera->eye)}, {"target", vec3(camera->target)}, {"fov_deg", camera->fovDeg}};
    }
    scenario["bodies"] = bodies;
    const fs::path path = dir / (file + ".json");
    writeText(path, scenario.dump(2));
    return path;
}

FreeArea startFree(int width, int height) {
    return {kPanelRight, 0.0f, static_cast<float>(width), static_cast<float>(height)};
}

Framed framed(const Camera& camera, const FreeArea& free, int height) {
    const float aspect = free.width() / free.height();
    const float fov = aspect >= 1.0f
                          ? glm::radians(camera.fovDeg)
                          : 2.0f * std::atan(std::tan(glm::radians(camera.fovDeg) * 0.5f) / aspect);
    return {glm::lookAt(camera.eye, camera.target, glm::vec3(0.0f, 1.0f, 0.0f)),
            glm::perspective(fov, aspect, 0.1f, 100.0f),
            glm::vec4(free.x0, static_cast<float>(height) - free.y1, free.width(), free.height()), height};
}

glm::vec2 project(const Camera& camera, const glm::vec3& point, const FreeArea& free, int height) {
    const Framed f = framed(camera, free, height);
    const glm::vec3 win = glm::project(point, f.view, f.proj, f.viewport);
    return {win.x, static_cast<float>(height) - win.y};
}

glm::ivec2 pixelAt(const glm::vec2& p) {
    return {static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y))};
}

float projectedRadius(const Camera& camera, const glm::vec3& centre, float radius, int height) {
    const float distance = glm::length(centre - camera.eye);
    const float halfHeight = std::tan(glm::radians(camera.fovDeg) * 0.5f);
    return radius / std::sqrt(distance * distance - radius * radius) / halfHeight *
           static_cast<float>(height) * 0.5f;
}

Rgb Image::at(int x, int y) const {
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

Image loadPng(const fs::path& file) {
    Image image;
    int channels = 0;
    unsigned char* data = stbi_load(file.c_str(), &image.width, &image.height, &channels, 3);
    if (data == nullptr) return {};
    image.rgb.assign(data, data + static_cast<std::size_t>(image.width) *
                                      static_cast<std::size_t>(image.height) * 3);
    stbi_image_free(data);
    return image;
}

std::string str(const Rgb& c) {
    return "rgb(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
}

int colourDistance(const Rgb& a, const Rgb& b) {
    return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

Rgb meanAround(const Image& image, int x, int y, int k) {
    long r = 0, g = 0, b = 0, n = 0;
    for (int dy = -k; dy <= k; ++dy) {
        for (int dx = -k; dx <= k; ++dx) {
            if (!image.inside(x + dx, y + dy)) continue;
            const Rgb c = image.at(x + dx, y + dy);
            r += c.r;
            g += c.g;
            b += c.b;
            ++n;
        }
    }
    if (n == 0) return {};
    return {static_cast<int>(r / n), static_cast<int>(g / n), static_cast<int>(b / n)};
}

bool dominant(const Rgb& c, int which, int margin) {
    const int v[3] = {c.r, c.g, c.b};
    for (int i = 0; i < 3; ++i) {
        if (i != which && v[which] < v[i] + margin) return false;
    }
    return true;
}

std::string str(const Rect& r) {
    return "[" + std::to_string(r.x0) + ", " + std::to_string(r.y0) + "] - [" + std::to_string(r.x1) + ", " +
           std::to_string(r.y1) + "]";
}

std::pair<glm::vec2, int> centroidOf(const Image& image, const std::function<bool(const Rgb&)>& accept,
                                     const Rect& exclude) {
    double sx = 0.0, sy = 0.0;
    int n = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            if (exclude.contains(x, y) || !accept(image.at(x, y))) continue;
            sx += x + 0.5;
            sy += y + 0.5;
            ++n;
        }
    }
    if (n == 0) return {glm::vec2(-1.0f), 0};
    return {glm::vec2(static_cast<float>(sx / n), static_cast<float>(sy / n)), n};
}

App::App(const fs::path& dir, std::vector<std::string> args, bool withEvents, Settings settings) : dir_(dir) {
    events_ = dir / "events.jsonl";
    const fs::path settingsFile = settingsPath(dir);
    if (settings == Settings::Returning && !fs::exists(settingsFile)) {
        fs::create_directories(settingsFile.parent_path());
        writeText(settingsFile, "{\"first_run_card_dismissed\": true}\n");
    }
    for (char** e = environ; *e != nullptr; ++e) {
        if (std::strncmp(*e, "XDG_CONFIG_HOME=", 16) != 0) env_.emplace_back(*e);
    }
    env_.push_back("XDG_CONFIG_HOME=" + (dir / "config").string());
    argv_ = {KOLIZE_EXE};
    argv_.insert(argv_.end(), args.begin(), args.end());
    if (withEvents) {
        argv_.push_back("--events");
        argv_.push_back(events_.string());
    }
    for (const auto& a : argv_)
        commandLine_ += a + " ";
    spawn();
}

App::~App() {
    if (pid_ > 0 && !exited_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

bool App::restartIfTheDisplayFailed() {
    if (!exited_ || exitCode_ != 2 || attempts_ >= 3) return false;
    const std::string err = stderrText();
    if (err.find("no display") == std::string::npos) return false;
    std::fprintf(stderr, "note: kolize could not open the display (attempt %d of 3), again: %s", attempts_,
                 err.c_str());
    sleepFor(200ms);
    spawn();
    return true;
}

bool App::running() {
    if (exited_ || pid_ <= 0) return false;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
        exited_ = true;
        exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return false;
    }
    return r == 0;
}

std::optional<int> App::waitExit(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (running() || restartIfTheDisplayFailed()) {
        if (Clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
            exited_ = true;
            exitCode_ = -1;
            return std::nullopt;
        }
        sleepFor(20ms);
    }
    if (!exited_) return std::nullopt;
    return exitCode_;
}

std::string App::diagnostics() const {
    return "\n  command: " + commandLine_ + "\n  stderr: " + stderrText() + "\n  events:\n" +
           readText(events_);
}

bool App::findWindow() {
    const auto deadline = Clock::now() + kTimeout;
    while (Clock::now() < deadline) {
        if (!running()) {
            if (restartIfTheDisplayFailed()) continue;
            return false;
        }
        int status = 0;
        std::istringstream ids(xdo("search --onlyvisible --name '^Kolize$'", &status));
        std::string id;
        while (status == 0 && ids >> id) {
            const std::string pid = xdo("getwindowpid " + id, &status);
            if (status != 0 || std::atoi(pid.c_str()) == pid_) {
                window_ = id;
                break;
            }
        }
        if (!window_.empty()) return focus();
        sleepFor(50ms);
    }
    return false;
}

bool App::focus() {
    int status = 0;
    xdo("windowfocus --sync " + window_, &status, 5);
    return status == 0;
}

glm::ivec2 App::windowSize() const {
    const std::string out = xdo("getwindowgeometry --shell " + window_);
    glm::ivec2 size(0);
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("WIDTH=", 0) == 0) size.x = std::atoi(line.c_str() + 6);
        if (line.rfind("HEIGHT=", 0) == 0) size.y = std::atoi(line.c_str() + 7);
    }
    return size;
}

void App::key(const std::string& keys) {
    focus();
    xdo("key --delay 60 " + keys);
}

void App::moveTo(glm::ivec2 p) {
    // No --sync: it waits for a motion that never comes when the pointer is already there.
    xdo("mousemove --window " + window_ + " " + std::to_string(p.x) + " " + std::to_string(p.y));
}

void App::clickAt(glm::ivec2 p) {
    moveTo(p);
    sleepFor(150ms);
    xdo("click 1");
}

std::vector<Json> App::events() {
    std::vector<Json> out;
    const std::string text = readText(events_);
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) break; // a line still being written
        const std::string line = text.substr(begin, end - begin);
        begin = end + 1;
        Json parsed = Json::parse(line, nullptr, false);
        if (parsed.is_discarded() || !parsed.is_object()) {
            if (badLines_.insert(line).second)
                ADD_FAILURE() << "event log line is not a JSON object: " << line;
            continue;
        }
        out.push_back(std::move(parsed));
    }
    return out;
}

std::optional<Json> App::waitEvent(const std::string& name, std::size_t& cursor,
                                   std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        const bool alive = running();
        const std::vector<Json> all = events();
        for (std::size_t i = cursor; i < all.size(); ++i) {
            if (all[i].value("event", "") == name) {
                cursor = i + 1;
                return all[i];
            }
        }
        if (!alive || Clock::now() > deadline) return std::nullopt;
        sleepFor(20ms);
    }
}

std::vector<Json> App::eventsNamed(const std::string& name, std::size_t from) {
    std::vector<Json> out;
    const std::vector<Json> all = events();
    for (std::size_t i = from; i < all.size(); ++i) {
        if (all[i].value("event", "") == name) out.push_back(all[i]);
    }
    return out;
}

std::optional<FreeArea> App::lastFreeArea() {
    const std::vector<Json> views = eventsNamed("view");
    if (views.empty()) return std::nullopt;
    const Json& free = views.back().value("free", Json());
    if (!free.is_array() || free.size() != 4) return std::nullopt;
    const float x = free[0].get<float>(), y = free[1].get<float>();
    return FreeArea{x, y, x + free[2].get<float>(), y + free[3].get<float>()};
}

std::optional<Json> App::pickAt(glm::ivec2 p, std::chrono::milliseconds timeout) {
    std::size_t cursor = eventCount();
    clickAt(p);
    return waitEvent("pick", cursor, timeout);
}

Image App::screenshotKey(std::string* file) {
    std::size_t cursor = eventCount();
    key("F12");
    const std::optional<Json> event = waitEvent("screenshot", cursor);
    if (!event) {
        ADD_FAILURE() << "F12 logged no screenshot event" << diagnostics();
        return {};
    }
    if (!event->contains("file") || !(*event)["file"].is_string()) {
        ADD_FAILURE() << "screenshot event without a file: " << event->dump();
        return {};
    }
    fs::path path = (*event)["file"].get<std::string>();
    if (path.is_relative()) path = dir_ / path;
    if (file) *file = path.string();
    // The event may be logged as the file is written: wait until it reads as a whole PNG.
    const auto deadline = Clock::now() + kTimeout;
    while (Clock::now() < deadline) {
        Image image = loadPng(path);
        if (image.valid()) return image;
        sleepFor(50ms);
    }
    ADD_FAILURE() << "the screenshot " << path << " named by " << event->dump() << " is not a readable PNG";
    return {};
}

bool App::barrier() {
    std::size_t cursor = eventCount();
    key("F12");
    return waitEvent("screenshot", cursor).has_value();
}

std::optional<int> App::quitWithEscape() {
    std::size_t cursor = eventCount();
    key("Escape");
    const std::optional<Json> quit = waitEvent("quit", cursor);
    EXPECT_TRUE(quit.has_value()) << "ESC logged no quit event" << diagnostics();
    const std::optional<int> code = waitExit();
    EXPECT_EQ(code, std::optional<int>(0)) << "exit code after ESC" << diagnostics();
    return code;
}

void App::spawn() {
    ++attempts_;
    exited_ = false;
    exitCode_ = -1;
    pid_ = ::fork();
    if (pid_ != 0) return;
    if (::chdir(dir_.c_str()) != 0) ::_exit(126);
    const int out = ::open((dir_ / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open((dir_ / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) ::dup2(out, 1);
    if (err >= 0) ::dup2(err, 2);
    std::vector<char*> cargs;
    for (auto& a : argv_)
        cargs.push_back(a.data());
    cargs.push_back(nullptr);
    std::vector<char*> cenv;
    for (auto& e : env_)
        cenv.push_back(e.data());
    cenv.push_back(nullptr);
    ::execve(cargs[0], cargs.data(), cenv.data());
    ::_exit(127);
}

std::vector<std::string> windowArgs(const fs::path& scenario, std::vector<std::string> more) {
    std::vector<std::string> args = {"--scenario", scenario.string(), "--size",
                                     std::to_string(kWidth) + "x" + std::to_string(kHeight), "--no-vsync"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

glm::vec3 jsonVec3(const Json& j) {
    return {j.at(0).get<float>(), j.at(1).get<float>(), j.at(2).get<float>()};
}

bool isFiniteVec3(const Json& j) {
    if (!j.is_array() || j.size() != 3) return false;
    for (const auto& v : j) {
        if (!v.is_number() || !std::isfinite(v.get<double>())) return false;
    }
    return true;
}

void expectBodyPick(const Json& pick, const std::string& body, const std::string& shape) {
    EXPECT_TRUE(pick.contains("frame") && pick["frame"].is_number_unsigned()) << pick.dump();
    ASSERT_TRUE(pick.contains("body") && pick["body"].is_string())
        << "expected a pick of " << body << ": " << pick.dump();
    EXPECT_EQ(pick["body"].get<std::string>(), body) << pick.dump();
    EXPECT_EQ(pick.value("shape", ""), shape) << pick.dump();
    ASSERT_TRUE(pick.contains("t") && pick["t"].is_number()) << pick.dump();
    const double t = pick["t"].get<double>();
    EXPECT_TRUE(std::isfinite(t) && t > 0.0) << pick.dump();
    ASSERT_TRUE(pick.contains("point") && isFiniteVec3(pick["point"])) << pick.dump();
    ASSERT_TRUE(pick.contains("normal") && isFiniteVec3(pick["normal"])) << pick.dump();
    EXPECT_NEAR(glm::length(jsonVec3(pick["normal"])), 1.0f, 1e-3f) << pick.dump();
}

StillScene::StillScene(const fs::path& dir) {
    file = writeScenario(
        dir, "still", camera,
        Json::array({sphere("red ball", radius, red, "#e02828"), sphere("blue ball", radius, blue, "#2850e0"),
                     sphere("green ball", greenRadius, green, "#28c040")}));
}

Rect panelRect(const Image& shown, const Image& hidden) {
    Rect r{shown.width, shown.height, -1, -1};
    if (!shown.valid() || !hidden.valid() || shown.width != hidden.width || shown.height != hidden.height)
        return {};
    for (int y = 0; y < shown.height; ++y) {
        for (int x = 0; x < shown.width / 2; ++x) {
            if (colourDistance(shown.at(x, y), hidden.at(x, y)) <= 8) continue;
            r.x0 = std::min(r.x0, x);
            r.y0 = std::min(r.y0, y);
            r.x1 = std::max(r.x1, x);
            r.y1 = std::max(r.y1, y);
        }
    }
    return r;
}

Rgb panelBackground(const Image& shown, const Rect& panel) {
    std::vector<std::uint32_t> colours;
    for (int y = panel.y0; y <= panel.y1; ++y) {
        for (int x = panel.x0; x <= panel.x1; ++x) {
            const Rgb c = shown.at(x, y);
            colours.push_back(static_cast<std::uint32_t>(c.r) << 16 | static_cast<std::uint32_t>(c.g) << 8 |
                              static_cast<std::uint32_t>(c.b));
        }
    }
    std::sort(colours.begin(), colours.end());
    std::uint32_t best = 0;
    std::size_t bestRun = 0, run = 0;
    for (std::size_t i = 0; i < colours.size(); ++i) {
        run = (i > 0 && colours[i] == colours[i - 1]) ? run + 1 : 1;
        if (run > bestRun) {
            bestRun = run;
            best = colours[i];
        }
    }
    return {static_cast<int>(best >> 16), static_cast<int>((best >> 8) & 255), static_cast<int>(best & 255)};
}

std::optional<glm::ivec2> plainPanelPoint(const Image& shown, const Rect& panel, int minX) {
    constexpr int k = 7;
    const Rgb background = panelBackground(shown, panel);
    for (int cy = panel.y1 - k - 12; cy >= panel.y0 + 40; cy -= 2) {
        for (int cx = panel.x1 - k - 24; cx >= std::max(panel.x0 + k + 12, minX); cx -= 2) {
            bool plain = true;
            for (int dy = -k; dy <= k && plain; ++dy) {
                for (int dx = -k; dx <= k && plain; ++dx)
                    plain = colourDistance(shown.at(cx + dx, cy + dy), background) <= 12;
            }
            if (plain) return glm::ivec2(cx, cy);
        }
    }
    return std::nullopt;
}

std::pair<glm::vec3, glm::vec3> pixelRay(const Camera& camera, glm::ivec2 pixel, const FreeArea& free,
                                         int height) {
    const Framed f = framed(camera, free, height);
    const glm::vec2 win(static_cast<float>(pixel.x) + 0.5f, static_cast<float>(height - pixel.y) - 0.5f);
    const glm::vec3 nearPoint = glm::unProject(glm::vec3(win, 0.0f), f.view, f.proj, f.viewport);
    const glm::vec3 farPoint = glm::unProject(glm::vec3(win, 1.0f), f.view, f.proj, f.viewport);
    return {camera.eye, glm::normalize(farPoint - nearPoint)};
}

} // namespace kz::wintest
