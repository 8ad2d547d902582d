// The event log (--events FILE|-): one JSON object per line for every user-visible event, each
// line flushed at once, so scripts driving the app (xdotool tests) can follow it while it runs.
//
//   {"frame":12,"event":"pick","body":"red ball","shape":"sphere","t":13.1,"point":[..],"normal":[..]}
//   {"frame":14,"event":"pick","body":null}                      a click on empty space
//   {"frame":15,"event":"pick","body":null,"obstacle":"lamp","obstacle_index":0,"shape":"mesh",
//    "mesh":"meshes/arch.obj","triangle":1234,"u":0.25,"v":0.5,"t":9.2,"point":[..],"normal":[..]}
//                                                                a click on an obstacle (a mesh)
//   {"frame":20,"event":"pause"}  resume  step
//   {"frame":90,"event":"quit","tick":1043,"state_hash":"5f0c2b9a1e7d3c44"}
//                                       the session's tick (steps since the start) and the state
//                                       hash of its world (physics/state_hash.hpp) at the end
//   {"frame":80,"event":"replay_end","tick":1043,"state_hash":"5f0c2b9a1e7d3c44","matches":true}
//                                       --replay reached the recording's end; matches: the state
//                                       hash is the recorded one
//   {"frame":30,"event":"reset","scenario":"random","seed":42}
//   {"frame":31,"event":"camera_spin","on":false}                shadows likewise
//   {"frame":0,"event":"view","window":[1280,720],"free":[368,0,912,720]}
//                                       where the 3D view is framed: the window's size and the free
//                                       part beside the panel (x, y, width, height), in points;
//                                       logged at the first frame and whenever either changes
//   {"frame":2,"event":"card","open":true,"rect":[932,8,340,190]}
//                                       the "Try this" card opened (x, y, width, height in points,
//                                       once it has its size), or closed ("open":false, no rect)
//   {"frame":40,"event":"drag_start","body":"red ball"}          drag_end likewise
//   {"frame":50,"event":"screenshot","file":"kolize-50.png"}
//   {"frame":60,"event":"lab","query":"box-box","overlap":true,"depth":0.12}
//   {"frame":61,"event":"lab","query":"ray-box","hit":true,"t":0.43}   the lab's verdict changed
//   {"frame":70,"event":"impact","step":541,"time":0.005,"body":"ball A","body_index":0,
//    "partner":"wall 1","partner_kind":"wall","partner_index":1,"point":[..],"normal":[..],
//    "speed_before":-3.0,"speed_after":3.0,"impulse":6.0}    an impact of a step (World::impacts);
//                                       an obstacle partner adds "triangle"
//   {"frame":75,"event":"jump_to_impact",...}                    a row of the panel's impact log
//                                       clicked: the same keys as the impact's line
//   {"frame":95,"event":"pace","behind":true,"time_scale":0.31,"asked":1,"physics_load":2.4,
//    "threads":1}                       the physics fell behind real time (or caught up again,
//                                       "behind":false): the effective time scale (simulated
//                                       seconds per wall second, smoothed), the one asked for, the
//                                       physics' share of real time at that scale (pace_meter.hpp)
//
// "frame" is the index of the frame the event happened in (the first frame is 0).
#pragma once

#include "app/cli/report_numbers.hpp"
#include "geom/types.hpp"
#include "physics/body.hpp"
#include "physics/obstacle.hpp"
#include "physics/pick.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

namespace kz {

/// A named number of an event line: "t", "depth", "distance", ...
struct EventNumber {
    std::string key; ///< The line's key (and the panel's label).
    float value;     ///< Finite.
};

class EventLog {
public:
    /// Logs nothing.
    EventLog() = default;
    /// Opens `target` ("-" for stdout, else a file, truncated). False with `error` set (one line).
    bool open(const std::string& target, std::string& error);
    bool enabled() const { return toStdout_ || file_.is_open(); }

    /// A click: the body hit (and where), or none for a click on empty space.
    void pick(std::uint64_t frame, const Body* body, const RayHit* hit);
    /// A click on obstacle `hit.obstacle`: "body" is null (not a body), then the obstacle's name and index,
    /// its mesh, the triangle, the barycentrics u and v (the weights of the triangle's 2nd and 3rd vertex),
    /// t, point and normal as for a body.
    void pickObstacle(std::uint64_t frame, const Obstacle& obstacle, const PickHit& hit);
    void reset(std::uint64_t frame, const std::string& scenario, std::uint64_t seed);
    void cameraSpin(std::uint64_t frame, bool on);
    /// Shadows switched on or off ("shadows", with "on").
    void shadows(std::uint64_t frame, bool on);
    /// The "Try this" card opened, with its rectangle in points ("card", "open": true, "rect": [x, y,
    /// width, height]), or closed (no `rect`: "open": false).
    void card(std::uint64_t frame, const std::optional<glm::vec4>& rect);
    /// The view is framed anew: the window's size and the free part of it (its top-left corner and
    /// size), in points ("view").
    void view(std::uint64_t frame, glm::ivec2 window, glm::vec2 freeMin, glm::vec2 freeSize);
    void drag(std::uint64_t frame, bool start, const std::string& body);
    void screenshot(std::uint64_t frame, const std::string& file);
    /// The lab's verdict for `query` (when it changes, or a query opens): `verdictKey` ("hit" for
    /// rays and the sweep, "overlap" for pairs) true or false, then the result's key numbers by
    /// name (t, depth, distance, separation, ...).
    void lab(std::uint64_t frame, const char* query, const char* verdictKey, bool verdict,
             std::span<const EventNumber> numbers);
    /// An impact of the world's last step: its step, time in the step, body (name and index),
    /// partner (name: a body's or obstacle's, or "wall N"; kind: "body", "wall", "obstacle"; index;
    /// an obstacle's triangle), point, normal, normal speeds before and after, impulse.
    void impact(std::uint64_t frame, const World& world, const ImpactRecord& record);
    /// A row of the impact log clicked (App::jumpToImpact): "jump_to_impact", the impact's keys.
    void jumpToImpact(std::uint64_t frame, const World& world, const ImpactRecord& record);
    /// The last event: the session's tick and the state hash of its world.
    void quit(std::uint64_t frame, std::uint64_t stateHash, std::uint64_t tick);
    /// --replay reached the recording's end tick: the tick, the state hash, and whether it is the
    /// recorded one.
    void replayEnd(std::uint64_t frame, std::uint64_t tick, std::uint64_t stateHash, bool matches);
    /// The timeline moved: `tick` is on screen (`live`: the session's own step, else a past one),
    /// with its state hash; "rewind" when the session went on from a past step (its later steps
    /// dropped).
    void timeline(std::uint64_t frame, const char* event, std::uint64_t tick, std::uint64_t stateHash,
                  bool live);
    /// The physics fell behind real time, or caught up ("pace", PaceMeter::behind()).
    void pace(std::uint64_t frame, bool behind, double effectiveScale, double askedScale, double physicsLoad,
              int threads);
    /// An event with no details: "pause", "resume", "step".
    void simple(std::uint64_t frame, const char* event);

private:
    void write(const nlohmann::ordered_json& line);
    void switched(std::uint64_t frame, const char* event, bool on);
    void impactLine(std::uint64_t frame, const char* event, const World& world, const ImpactRecord& record);

    std::ofstream file_;
    bool toStdout_ = false;
};

} // namespace kz
