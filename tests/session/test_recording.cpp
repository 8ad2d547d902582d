// Recording files (src/session/recording.hpp): written and read back to the bit, played back to
// the recorded state hash, and every kind of bad file refused with one line naming the file and
// the line.
#include "physics/state_hash.hpp"
#include "session/recording.hpp"
#include "session_test_support.hpp"
#include "support/same_bits.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <bit>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using kz::test::loadOf;
using kz::test::sameBits;
using kz::test::startSession;

/// A session on two-balls with a few inputs of every kind, a reset to `random` and back, stepped.
kz::Session sampleSession() {
    kz::Session session = startSession(loadOf("two-balls"));
    for (int i = 0; i < 10; ++i)
        session.step();
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{0, {1.5f, -0.0f, 3.25f}, {0.1f, 0.2f, -0.3f}}), "");
    EXPECT_EQ(session.apply(kz::SetMaterial{0.5f, 0.25f, 0.0125f}), "");
    EXPECT_EQ(session.apply(kz::SetGravity{{0.0f, -9.81f, 0.0f}}), "");
    EXPECT_EQ(session.apply(kz::SetTimeScale{0.3f}), "");
    for (int i = 0; i < 7; ++i)
        session.step();
    EXPECT_EQ(session.apply(kz::SetPaused{true}), "");
    EXPECT_EQ(session.apply(kz::SingleStep{}), "");
    session.step();
    EXPECT_EQ(session.apply(kz::SetPaused{false}), "");
    EXPECT_EQ(session.apply(loadOf("random", 123)), "");
    for (int i = 0; i < 5; ++i)
        session.step();
    EXPECT_EQ(session.apply(loadOf("two-balls")), "");
    for (int i = 0; i < 3; ++i)
        session.step();
    return session;
}

std::string textOf(const kz::Recording& recording) {
    std::string error;
    const std::optional<std::string> text = kz::recordingText(recording, error);
    EXPECT_TRUE(text.has_value()) << error;
    return text.value_or("");
}

kz::Recording mustParse(const std::string& text, const std::string& name = "rec.kzr") {
    kz::RecordingResult read = kz::parseRecording(text, name);
    EXPECT_TRUE(read.recording.has_value()) << read.error;
    return read.recording ? std::move(*read.recording) : kz::Recording{};
}

/// Whether two inputs are the same kind with the same values, floats to the bit, scenarios with
/// the same key and texts.
bool sameInput(const kz::SessionInput& a, const kz::SessionInput& b) {
    if (a.index() != b.index()) return false;
    if (const auto* v = std::get_if<kz::SetBodyVelocity>(&a)) {
        const auto& w = std::get<kz::SetBodyVelocity>(b);
        return v->body == w.body && sameBits(v->velocity, w.velocity) &&
               sameBits(v->angularVelocity, w.angularVelocity);
    }
    if (const auto* l = std::get_if<kz::LoadScenario>(&a)) {
        const auto& m = std::get<kz::LoadScenario>(b);
        return l->seed == m.seed && l->scenario->key == m.scenario->key &&
               l->scenario->text.json == m.scenario->text.json &&
               l->scenario->text.meshes == m.scenario->text.meshes;
    }
    if (const auto* m = std::get_if<kz::SetMaterial>(&a)) {
        const auto& n = std::get<kz::SetMaterial>(b);
        return sameBits(m->restitution, n.restitution) && sameBits(m->friction, n.friction) &&
               sameBits(m->rollingResistance, n.rollingResistance);
    }
    if (const auto* g = std::get_if<kz::SetGravity>(&a))
        return sameBits(g->gravity, std::get<kz::SetGravity>(b).gravity);
    if (const auto* t = std::get_if<kz::SetTimeScale>(&a))
        return sameBits(t->timeScale, std::get<kz::SetTimeScale>(b).timeScale);
    if (const auto* p = std::get_if<kz::SetPaused>(&a)) return p->paused == std::get<kz::SetPaused>(b).paused;
    return true; // SingleStep
}

void expectSameInputs(const std::vector<kz::TimedInput>& a, const std::vector<kz::TimedInput>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].tick, b[i].tick) << "input " << i;
        EXPECT_TRUE(sameInput(a[i].input, b[i].input))
            << "input " << i << " (" << kz::inputKind(a[i].input) << ")";
    }
}

// ------------------------------------------------------------------------------ round trip

TEST(Recording, WrittenAndReadBackItHoldsTheSameInputsToTheBit) {
    const kz::Session session = sampleSession();
    const kz::Recording recording = kz::recordingOf(session);
    EXPECT_EQ(recording.endTick, session.tick());
    EXPECT_EQ(recording.stateHash, kz::stateHash(session.world()));

    const std::string text = textOf(recording);
    EXPECT_EQ(text.rfind("kolize-recording 1\n", 0), 0u);
    const kz::Recording read = mustParse(text);
    expectSameInputs(read.inputs, recording.inputs);
    EXPECT_EQ(read.endTick, recording.endTick);
    EXPECT_EQ(read.stateHash, recording.stateHash);
    EXPECT_EQ(read.source, "rec.kzr");
    ASSERT_EQ(read.lines.size(), read.inputs.size());
    // Written again, it is the same text.
    EXPECT_EQ(textOf(read), text);
}

TEST(Recording, EachScenarioIsEmbeddedOnceAndItsLoadsShareIt) {
    const kz::Recording recording = kz::recordingOf(sampleSession());
    const std::string text = textOf(recording);
    // two-balls (loaded twice, read from its file twice) and random: two blocks.
    EXPECT_NE(text.find("\nscenario 0 "), std::string::npos);
    EXPECT_NE(text.find("\nscenario 1 "), std::string::npos);
    EXPECT_EQ(text.find("\nscenario 2 "), std::string::npos) << text;
    const kz::Recording read = mustParse(text);
    std::vector<const kz::SessionScenario*> loaded;
    for (const kz::TimedInput& input : read.inputs) {
        if (const auto* load = std::get_if<kz::LoadScenario>(&input.input))
            loaded.push_back(load->scenario.get());
    }
    ASSERT_EQ(loaded.size(), 3u);
    EXPECT_EQ(loaded[0], loaded[2]) << "the two loads of two-balls share one scenario";
    EXPECT_NE(loaded[0], loaded[1]);
}

TEST(Recording, EveryFloatReadsBackToItsOwnBits) {
    // Special values, then random bit patterns (every finite float is allowed).
    std::vector<float> values = {0.0f,
                                 -0.0f,
                                 1.0f / 3.0f,
                                 0.1f,
                                 std::numeric_limits<float>::min(),
                                 std::numeric_limits<float>::denorm_min(),
                                 -std::numeric_limits<float>::denorm_min(),
                                 std::numeric_limits<float>::max(),
                                 std::numeric_limits<float>::lowest(),
                                 1e-30f,
                                 123456789.0f};
    constexpr unsigned kSeed = 77;
    std::mt19937 rng(kSeed);
    while (values.size() < 3000) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
        if (std::isfinite(f)) values.push_back(f);
    }
    // Straight into a recording made by hand (no world need survive them).
    kz::Recording recording = kz::recordingOf(startSession(loadOf("two-balls")));
    for (std::size_t i = 0; i + 6 <= values.size(); i += 6) {
        recording.inputs.push_back({0, kz::SetBodyVelocity{1,
                                                           {values[i], values[i + 1], values[i + 2]},
                                                           {values[i + 3], values[i + 4], values[i + 5]}}});
        recording.inputs.push_back({0, kz::SetMaterial{values[i], values[i + 1], values[i + 2]}});
        recording.inputs.push_back({0, kz::SetTimeScale{values[i + 3]}});
        recording.inputs.push_back({0, kz::SetGravity{{values[i + 3], values[i + 4], values[i + 5]}}});
    }
    const kz::Recording read = mustParse(textOf(recording));
    SCOPED_TRACE("seed " + std::to_string(kSeed));
    expectSameInputs(read.inputs, recording.inputs);
}

TEST(Recording, AMeshScenarioStandsAloneWithItsMeshEmbedded) {
    kz::Session session = startSession(loadOf("lamp-arch"));
    for (int i = 0; i < 30; ++i)
        session.step();
    const std::string text = textOf(kz::recordingOf(session));
    EXPECT_NE(text.find("\nmesh "), std::string::npos);
    const kz::Recording read = mustParse(text);
    const auto& load = std::get<kz::LoadScenario>(read.inputs.front().input);
    ASSERT_EQ(load.scenario->text.meshes.size(), 1u);
    EXPECT_EQ(load.scenario->scenario.obstacles.size(), 1u);
    EXPECT_EQ(load.scenario->scenario.obstacles[0].obstacle.mesh->triangleCount(),
              session.scenario().scenario.obstacles[0].obstacle.mesh->triangleCount());
}

// ------------------------------------------------------------------------------ playback

/// Plays `recording` to its end; the player's verdict (empty: the recorded state hash).
std::string play(const kz::Recording& recording, std::uint64_t* hash = nullptr) {
    kz::RecordingPlayer player(recording);
    std::string error;
    std::optional<kz::Session> session = player.start(error);
    if (!session) return error;
    while (true) {
        if (std::string failed = player.applyDue(*session); !failed.empty()) return failed;
        if (player.atEnd(*session)) break;
        session->step();
    }
    if (hash) *hash = kz::stateHash(session->world());
    EXPECT_EQ(session->inputs().size(), recording.inputs.size()) << "the session logs the recording's inputs";
    return player.verify(*session);
}

TEST(RecordingPlayer, PlaysARecordingToItsRecordedStateHashTwiceOver) {
    const kz::Session live = sampleSession();
    const kz::Recording read = mustParse(textOf(kz::recordingOf(live)));
    std::uint64_t first = 0, second = 0;
    EXPECT_EQ(play(read, &first), "");
    EXPECT_EQ(play(read, &second), "");
    EXPECT_EQ(first, kz::stateHash(live.world()));
    EXPECT_EQ(second, first);
}

TEST(RecordingPlayer, ASessionOfCapsulesCylindersAndHullsPlaysBackToItsStateHash) {
    // The mixed pile (a hull by points, random capsules and cylinders) and the rolling race, with a
    // throw of a capsule: written, read back and played, the same bits.
    kz::Session live = startSession(loadOf("mixed-pile"));
    for (int i = 0; i < 60; ++i)
        live.step();
    const auto& bodies = live.world().bodies();
    const auto capsule = std::find_if(bodies.begin(), bodies.end(),
                                      [](const kz::Body& b) { return b.shape == kz::ShapeType::Capsule; });
    ASSERT_NE(capsule, bodies.end());
    EXPECT_EQ(live.apply(kz::SetBodyVelocity{
                  static_cast<int>(capsule - bodies.begin()), {2.0f, 5.0f, -1.0f}, {0.0f, 3.0f, 7.0f}}),
              "");
    for (int i = 0; i < 60; ++i)
        live.step();
    EXPECT_EQ(live.apply(loadOf("rolling-race")), "");
    for (int i = 0; i < 60; ++i)
        live.step();
    const kz::Recording read = mustParse(textOf(kz::recordingOf(live)));
    std::uint64_t hash = 0;
    EXPECT_EQ(play(read, &hash), "");
    EXPECT_EQ(hash, kz::stateHash(live.world()));
}

TEST(RecordingPlayer, AfterThePlaybackTheSessionRunsOnAsTheLiveOneDoes) {
    // Ended paused, with a single step asked for and taken (the last N of a session): live, the
    // step consumed the request; played back, the request must be consumed too.
    kz::Session live = startSession(loadOf("two-balls"));
    EXPECT_EQ(live.advance(0.05f), 6);
    EXPECT_EQ(live.apply(kz::SetPaused{true}), "");
    EXPECT_EQ(live.apply(kz::SingleStep{}), "");
    EXPECT_EQ(live.advance(0.02f), 1);
    kz::RecordingPlayer player(mustParse(textOf(kz::recordingOf(live))));
    std::string error;
    std::optional<kz::Session> played = player.start(error);
    ASSERT_TRUE(played) << error;
    while (player.playTick(*played, error) == 1) {
    }
    ASSERT_EQ(error, "");
    ASSERT_TRUE(player.atEnd(*played));
    EXPECT_EQ(player.verify(*played), "");
    // Paused, nothing pending: neither takes a step; resumed, both take the same ones.
    EXPECT_EQ(played->advance(0.05f), live.advance(0.05f));
    EXPECT_EQ(played->tick(), live.tick());
    EXPECT_EQ(played->apply(kz::SetPaused{false}), "");
    EXPECT_EQ(live.apply(kz::SetPaused{false}), "");
    for (int frame = 0; frame < 10; ++frame)
        EXPECT_EQ(played->advance(0.03f), live.advance(0.03f)) << "frame " << frame;
    EXPECT_EQ(kz::stateHash(played->world()), kz::stateHash(live.world()));
}

TEST(RecordingPlayer, PlayPacesTheTicksByTheFrameTimeAndTheTimeScale) {
    kz::Session live = startSession(loadOf("two-balls"));
    for (int i = 0; i < 100; ++i)
        live.step();
    EXPECT_EQ(live.apply(kz::SetTimeScale{0.5f}), "");
    for (int i = 0; i < 100; ++i)
        live.step();
    kz::RecordingPlayer player(kz::recordingOf(live));
    std::string error;
    std::optional<kz::Session> played = player.start(error);
    ASSERT_TRUE(played) << error;
    // 1/120 s steps: 0.05 s is 6 steps; at most 8 a frame.
    EXPECT_EQ(player.play(*played, 0.05f, error), 6);
    EXPECT_EQ(player.play(*played, 0.25f, error), 8);
    while (played->tick() < 100)
        player.play(*played, 1.0f / 120.0f, error);
    EXPECT_EQ(played->tick(), 100u);
    // The recorded time scale paces the rest: a second at half speed is about 60 ticks.
    int halfSpeed = 0;
    for (int frame = 0; frame < 20; ++frame)
        halfSpeed += player.play(*played, 0.05f, error);
    EXPECT_NEAR(halfSpeed, 60, 1);
    while (!player.atEnd(*played))
        player.play(*played, 0.05f, error);
    EXPECT_EQ(player.play(*played, 0.05f, error), 0) << "no tick beyond the end";
    EXPECT_EQ(error, "");
    EXPECT_EQ(player.verify(*played), "");
}

TEST(RecordingPlayer, PlayDropsTheTicksLeftOnceTheBudgetIsUsedAndKeepsNoDebt) {
    kz::Session live = startSession(loadOf("two-balls"));
    for (int i = 0; i < 40; ++i)
        live.step();
    kz::RecordingPlayer player(kz::recordingOf(live));
    std::string error;
    std::optional<kz::Session> played = player.start(error);
    ASSERT_TRUE(played) << error;
    EXPECT_EQ(player.play(*played, 0.05f, error, 0.0), 1) << "at least one tick";
    EXPECT_EQ(player.play(*played, 0.0f, error, 0.0), 0) << "the dropped ticks are not owed";
    // 6 ticks' worth of time again (7 with the fraction of a tick the first frame left).
    const int next = player.play(*played, 0.05f, error, 10.0);
    EXPECT_TRUE(next == 6 || next == 7) << next << " ticks";
    while (!player.atEnd(*played))
        player.play(*played, 0.05f, error, 0.0);
    EXPECT_EQ(error, "");
    EXPECT_EQ(player.verify(*played), "") << "the same ticks, however they were paced";
}

TEST(RecordingPlayer, ADifferentEndIsReportedAsADivergence) {
    kz::Recording recording = mustParse(textOf(kz::recordingOf(sampleSession())));
    const std::uint64_t actual = recording.stateHash;
    recording.stateHash ^= 1;
    EXPECT_EQ(play(recording), "rec.kzr: replay diverged: state_hash " + kz::stateHashText(actual) +
                                   " at tick " + std::to_string(recording.endTick) +
                                   ", the recording ends with " + kz::stateHashText(recording.stateHash) +
                                   " at tick " + std::to_string(recording.endTick));
}

TEST(RecordingPlayer, ABodyOutOfRangeIsAnErrorNamingItsLine) {
    const kz::Session session = startSession(loadOf("two-balls"));
    std::string text = textOf(kz::recordingOf(session));
    const std::size_t end = text.find("end 0 ");
    ASSERT_NE(end, std::string::npos);
    text.insert(end, "velocity 0 5 1 0 0 0 0 0\n");
    const kz::Recording read = mustParse(text);
    const std::size_t line = read.lines.back();
    EXPECT_EQ(play(read), "rec.kzr:" + std::to_string(line) +
                              ": velocity: body 5 is out of range (the world has 2 bodies)");
}

// ------------------------------------------------------------------------------ files

TEST(Recording, SavedAndLoadedFromAFileItIsTheSame) {
    const kz::test::TempDir dir;
    const kz::Recording recording = kz::recordingOf(sampleSession());
    const auto file = dir.path() / "session.kzr";
    std::string error;
    ASSERT_TRUE(kz::saveRecording(file, recording, error)) << error;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "session.kzr.part"));
    const kz::RecordingResult loaded = kz::loadRecording(file);
    ASSERT_TRUE(loaded.recording) << loaded.error;
    EXPECT_EQ(loaded.recording->source, file.string());
    expectSameInputs(loaded.recording->inputs, recording.inputs);
    EXPECT_EQ(loaded.recording->stateHash, recording.stateHash);
}

TEST(Recording, AFileThatCannotBeWrittenOrReadIsOneLine) {
    const kz::test::TempDir dir;
    const kz::Recording recording = kz::recordingOf(startSession(loadOf("two-balls")));
    std::string error;
    const auto nowhere = dir.path() / "no-such-folder" / "x.kzr";
    EXPECT_FALSE(kz::saveRecording(nowhere, recording, error));
    EXPECT_EQ(error.rfind(nowhere.string() + ": cannot write", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);

    EXPECT_EQ(kz::loadRecording(dir.path() / "missing.kzr").error,
              (dir.path() / "missing.kzr").string() + ": no such file");
    EXPECT_EQ(kz::loadRecording(dir.path()).error, dir.path().string() + ": is a directory, not a recording");
}

TEST(Recording, ARecordingThatCannotBeWrittenSaysWhy) {
    std::string error;
    EXPECT_FALSE(kz::recordingText(kz::Recording{}, error));
    EXPECT_EQ(error, "a recording starts with a load at tick 0");

    kz::Recording recording = kz::recordingOf(startSession(loadOf("two-balls")));
    recording.inputs.push_back({5, kz::SingleStep{}});
    recording.inputs.push_back({4, kz::SingleStep{}});
    recording.endTick = 9;
    EXPECT_FALSE(kz::recordingText(recording, error));
    EXPECT_EQ(error, "the inputs are out of tick order (tick 4 after 5)");

    recording.inputs.pop_back();
    recording.endTick = 2;
    EXPECT_FALSE(kz::recordingText(recording, error));
    EXPECT_EQ(error, "the end tick 2 is before the last input's tick 5");

    kz::LoadScenario load = loadOf("two-balls");
    kz::SessionScenario renamed = *load.scenario;
    renamed.key = "two\nballs";
    load.scenario = std::make_shared<const kz::SessionScenario>(renamed);
    recording.inputs = {{0, load}};
    recording.endTick = 0;
    EXPECT_FALSE(kz::recordingText(recording, error));
    EXPECT_EQ(error, "cannot record the scenario key 'two\nballs': it must be one non-empty line without "
                     "control characters");
}

// ------------------------------------------------------------------------------ bad files

/// The text of a small recording: two-balls, a velocity at tick 3, a pause at 4, ending at 6.
std::string smallText() {
    kz::Session session = startSession(loadOf("two-balls"));
    for (int i = 0; i < 3; ++i)
        session.step();
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{1, {1.0f, 0.0f, 0.0f}, {}}), "");
    session.step();
    EXPECT_EQ(session.apply(kz::SetPaused{true}), "");
    session.step();
    session.step();
    return textOf(kz::recordingOf(session));
}

/// The line number (from 1) of the first line of `text` starting with `prefix`.
std::size_t lineOf(const std::string& text, const std::string& prefix) {
    std::size_t line = 1;
    for (std::size_t pos = 0; pos < text.size();) {
        if (text.compare(pos, prefix.size(), prefix) == 0) return line;
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) break;
        pos = end + 1;
        ++line;
    }
    ADD_FAILURE() << "no line starts with '" << prefix << "'";
    return 0;
}

/// `text` with the line starting with `prefix` replaced by `line` (removed when empty).
std::string replaceLine(std::string text, const std::string& prefix, const std::string& line) {
    const std::size_t begin = text.find("\n" + prefix) + 1;
    EXPECT_NE(begin, 0u) << prefix;
    const std::size_t end = text.find('\n', begin);
    text.replace(begin, end + 1 - begin, line.empty() ? "" : line + "\n");
    return text;
}

/// The one-line error the reader gives for `text`.
std::string errorOf(const std::string& text) {
    const kz::RecordingResult read = kz::parseRecording(text, "rec.kzr");
    EXPECT_FALSE(read.recording.has_value()) << "accepted:\n" << text.substr(0, 2000);
    EXPECT_EQ(read.error.find('\n'), std::string::npos) << read.error;
    return read.error;
}

std::string at(std::size_t line, const std::string& what) {
    return "rec.kzr:" + std::to_string(line) + ": " + what;
}

TEST(RecordingErrors, TheSmallRecordingItselfIsGood) {
    const kz::Recording read = mustParse(smallText());
    EXPECT_EQ(read.inputs.size(), 3u);
    EXPECT_EQ(read.endTick, 6u);
}

TEST(RecordingErrors, AnotherVersionOrNoRecordingAtAllIsRefusedAtLineOne) {
    std::string text = smallText();
    EXPECT_EQ(errorOf("kolize-recording 2" + text.substr(text.find('\n'))),
              at(1, "recording format version '2'; this kolize reads version 1"));
    EXPECT_EQ(errorOf(""), at(1, "not a kolize recording (the first line must be 'kolize-recording 1')"));
    EXPECT_EQ(errorOf("{\"name\": \"two-balls\"}\n"),
              at(1, "not a kolize recording (the first line must be 'kolize-recording 1')"));
}

TEST(RecordingErrors, ATruncatedFileNamesWhereItStops) {
    const std::string text = smallText();
    const std::size_t endLine = lineOf(text, "end ");
    // Without its end line.
    const std::string noEnd = text.substr(0, text.find("\nend ") + 1);
    EXPECT_EQ(errorOf(noEnd), at(endLine, "truncated: the recording ends after line " +
                                              std::to_string(endLine - 1) + " without its end line"));
    // Cut inside the embedded scenario.
    const std::size_t scenario = text.find("\nscenario 0 ") + 1;
    const std::string cut = text.substr(0, scenario + 60);
    EXPECT_EQ(errorOf(cut),
              at(2, "truncated: the scenario's " +
                        text.substr(scenario + 11, text.find(' ', scenario + 11) - scenario - 11) +
                        " bytes run past the end of the file"));
    // Cut inside the end line's hash.
    EXPECT_EQ(errorOf(text.substr(0, text.size() - 5))
                  .rfind(at(endLine, "state hash: expected 16 lowercase hex digits"), 0),
              0u);
}

TEST(RecordingErrors, EveryBadLineIsNamed) {
    const std::string text = smallText();
    const std::size_t velocity = lineOf(text, "velocity ");
    const std::size_t pause = lineOf(text, "pause ");
    const std::size_t end = lineOf(text, "end ");

    EXPECT_EQ(errorOf(replaceLine(text, "pause ", "jump 4")),
              at(pause, "unknown line 'jump' (one of: scenario, mesh, load, velocity, material, gravity, "
                        "time_scale, pause, resume, step, end)"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1 1 0 0")),
              at(velocity, "velocity takes 8 fields (tick, body, vx vy vz, wx wy wz), got 5"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1 nan 0 0 0 0 0")),
              at(velocity, "velocity: must be finite, got 'nan'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1 1 inf 0 0 0 0")),
              at(velocity, "velocity: must be finite, got 'inf'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1 1 0 0 0 -1e39 0")),
              at(velocity, "angular velocity: expected a number, got '-1e39'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1 1,5 0 0 0 0 0")),
              at(velocity, "velocity: expected a number, got '1,5'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity x 1 1 0 0 0 0 0")),
              at(velocity, "tick: expected a whole number, got 'x'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 -1 1 0 0 0 0 0")),
              at(velocity, "body: expected a whole number, got '-1'"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "velocity 3 1  1 0 0 0 0 0")),
              at(velocity, "empty field in 'velocity 3 1  1 0 0 0 0 0' (fields are separated by one space)"));
    EXPECT_EQ(errorOf(replaceLine(text, "pause ", "pause 2")),
              at(pause, "tick 2 is before the previous input's tick 3"));
    EXPECT_EQ(errorOf(replaceLine(text, "pause ", "material 4 0.5 0 1\r")),
              at(pause, "rolling resistance: expected a number, got '1\\x0d'"));
    EXPECT_EQ(errorOf(replaceLine(text, "end ", "end 2 0123456789abcdef")),
              at(end, "end tick 2 is before the last input's tick 4"));
    EXPECT_EQ(errorOf(replaceLine(text, "end ", "end 6 0123456789ABCDEF")),
              at(end, "state hash: expected 16 lowercase hex digits, got '0123456789ABCDEF'"));
    EXPECT_EQ(errorOf(text + "step 7\n"), at(end + 1, "more after the end line"));
    EXPECT_EQ(errorOf(replaceLine(text, "velocity ", "\nvelocity 3 1 1 0 0 0 0 0")),
              at(velocity, "empty line"));
}

TEST(RecordingErrors, LoadsMustComeFirstAndNameAnEmbeddedScenarioWithItsTimeStep) {
    const std::string text = smallText();
    const std::size_t load = lineOf(text, "load ");
    const std::size_t velocity = lineOf(text, "velocity ");
    EXPECT_EQ(errorOf(replaceLine(text, "load ", "")),
              at(velocity - 1, "the first input must be a load at tick 0"));
    EXPECT_EQ(errorOf(replaceLine(text, "load ", "load 1 0 1 0.008333334")),
              at(load, "the first input must be a load at tick 0"));
    EXPECT_EQ(errorOf(replaceLine(text, "load ", "load 0 1 1 0.008333334")),
              at(load, "scenario 1 is not embedded above (1 are)"));
    EXPECT_EQ(errorOf(replaceLine(text, "load ", "load 0 0 1 0.01")),
              at(load, "time step 0.01 is not scenario 0's (0.008333334)"));
    EXPECT_EQ(errorOf(replaceLine(text, "load ", "load 0 0 1")),
              at(load, "load takes 4 fields (tick, scenario, seed, time step), got 3"));
    // No input at all.
    const std::string scenariosOnly = text.substr(0, text.find("\nload ") + 1) + "end 0 0123456789abcdef\n";
    EXPECT_EQ(errorOf(scenariosOnly),
              at(load, "no input before the end line (a recording starts with a load)"));
}

TEST(RecordingErrors, EmbeddedScenariosAndMeshesAreCheckedWhereTheyStand) {
    const std::string text = smallText();
    const std::size_t scenario = text.find("\nscenario 0 ") + 1;
    const std::size_t json = text.find('\n', scenario) + 1;
    const std::string header = text.substr(scenario, json - scenario - 1);
    const std::size_t bytes = std::stoul(header.substr(11));
    const std::string body = text.substr(json, bytes);

    // A broken scenario: its parse error, at the scenario's line.
    std::string broken = body;
    broken.replace(broken.find("\"name\""), 6, "\"nome\"");
    const std::string brokenText = text.substr(0, json) + broken + text.substr(json + bytes);
    const std::string error = errorOf(brokenText);
    EXPECT_EQ(error.rfind(at(2, "scenario 0: two-balls: "), 0), 0u) << error;

    // A byte count that does not end at a line end.
    std::string miscounted = text;
    miscounted.replace(scenario, header.size(), "scenario 0 " + std::to_string(bytes - 2) + " two-balls");
    EXPECT_EQ(errorOf(miscounted),
              at(2, "the scenario's " + std::to_string(bytes - 2) +
                        " bytes are not followed by a line end (truncated, or a wrong byte count)"));
    // Numbered out of order.
    std::string renumbered = text;
    renumbered.replace(scenario, header.size(), "scenario 1 " + std::to_string(bytes) + " two-balls");
    EXPECT_EQ(errorOf(renumbered),
              at(2, "scenario 1: expected scenario 0 (they are numbered in order from 0)"));
    // Too large to be a scenario.
    std::string huge = text;
    huge.replace(scenario, header.size(), "scenario 0 99999999 two-balls");
    EXPECT_EQ(errorOf(huge),
              at(2, "scenario 0: 99999999 bytes, over the limit for scenario files (4194304)"));

    // A key with a control character (a carriage return, a NUL): it could not be written back.
    std::string controlled = text;
    controlled.replace(scenario, header.size(),
                       "scenario 0 " + std::to_string(bytes) +
                           " two\r\x01"
                           "balls");
    EXPECT_EQ(errorOf(controlled),
              at(2, "scenario key 'two\\x0d\\x01balls': must not hold control characters"));

    // A mesh with no scenario above it.
    const std::string loose = "kolize-recording 1\nmesh 3 a.obj\nabc\n";
    EXPECT_EQ(errorOf(loose), at(2, "a mesh must follow its scenario (or another mesh of it)"));
}

TEST(RecordingErrors, AMeshScenarioWithoutItsMeshIsRefused) {
    kz::Session session = startSession(loadOf("lamp-arch"));
    const std::string text = textOf(kz::recordingOf(session));
    const std::size_t mesh = text.find("\nmesh ") + 1;
    const std::size_t meshText = text.find('\n', mesh) + 1;
    const std::size_t bytes = std::stoul(text.substr(mesh + 5));
    const std::string without = text.substr(0, mesh) + text.substr(meshText + bytes + 1);
    const std::string error = errorOf(without);
    EXPECT_EQ(error,
              at(2, "scenario 0: lamp-arch: /bodies/0/mesh: meshes/arch.obj: not among the mesh files given "
                    "with the scenario"));
    // A name with a tab.
    std::string tabbed = text;
    tabbed.replace(mesh, meshText - mesh - 1, "mesh " + std::to_string(bytes) + " meshes/\tarch.obj");
    EXPECT_EQ(errorOf(tabbed), at(lineOf(text, "mesh "),
                                  "mesh name 'meshes/\\x09arch.obj': must not hold control characters"));
    // Given twice.
    const std::string block = text.substr(mesh, meshText + bytes + 1 - mesh);
    const std::string twice =
        text.substr(0, meshText + bytes + 1) + block + text.substr(meshText + bytes + 1);
    const std::size_t secondLine = lineOf(twice, "load ") - 1 -
                                   static_cast<std::size_t>(std::count(block.begin(), block.end(), '\n')) + 1;
    EXPECT_EQ(errorOf(twice), at(secondLine, "mesh 'meshes/arch.obj' given twice"));
}

TEST(RecordingErrors, ATooLargeTextIsRefusedBeforeReading) {
    const std::string big(kz::kMaxRecordingBytes + 1, 'x');
    EXPECT_EQ(kz::parseRecording(big, "big.kzr").error,
              "big.kzr: larger than 256 MiB, the limit for recordings");
}

} // namespace
