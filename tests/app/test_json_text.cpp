// Tests for the JSON text of the app's outputs (src/app/cli/json_text.hpp): nlohmann's layout, and
// numbers as their shortest round-trip decimals. Random cases use a fixed seed, printed on failure.
#include "app/cli/json_text.hpp"
#include "app/cli/report_numbers.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace {

using Json = nlohmann::ordered_json;

/// What std::to_chars writes for f, with ".0" when it reads as an integer.
std::string toCharsText(float f) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, f);
    std::string out(text, written.ptr);
    if (out.find_first_of(".e") == std::string::npos) out += ".0";
    return out;
}

TEST(JsonText, LaysOutValuesAsNlohmannsDumpDoes) {
    const Json value = {
        {"frame", 12},
        {"event", "pick \"quoted\"\n\tand \\ escaped \x01 \xc3\xa9"},
        {"big", 18446744073709551615ull},
        {"negative", -7},
        {"on", false},
        {"body", nullptr},
        {"point", {0.5, -2.25, 0.0}},
        {"empty_object", Json::object()},
        {"empty_array", Json::array()},
        {"nested", {{"list", {Json::array(), Json::object(), {{"x", 1.5}}}}, {"last", true}}}};
    EXPECT_EQ(kz::jsonText(value), value.dump());
    EXPECT_EQ(kz::jsonText(value, 2), value.dump(2));
    EXPECT_EQ(kz::jsonText(value, 0), value.dump(0));
    EXPECT_EQ(kz::jsonText(Json(3.5), 2), "3.5");
    EXPECT_EQ(kz::jsonText(Json("text"), 2), "\"text\"");
}

TEST(JsonText, WritesAPickNormalAsItsShortestDecimal) {
    // nlohmann 3.11's dump() writes this double as -0.0006056669999999999.
    EXPECT_EQ(kz::jsonText(Json{{"normal", {kz::shortestDouble(-0.000605667f), 0.0, 1.0}}}),
              R"({"normal":[-0.000605667,0.0,1.0]})");
}

TEST(JsonNumberText, IntegralExponentAndNonFiniteNumbers) {
    EXPECT_EQ(kz::jsonNumberText(1.0), "1.0");
    EXPECT_EQ(kz::jsonNumberText(-0.0), "-0.0");
    EXPECT_EQ(kz::jsonNumberText(123456789.0), "123456789.0");
    EXPECT_EQ(kz::jsonNumberText(1e20), "1e+20");
    EXPECT_EQ(kz::jsonNumberText(1.5e-7), "1.5e-07");
    EXPECT_EQ(kz::jsonNumberText(0.1), "0.1");
    EXPECT_EQ(kz::jsonNumberText(std::numeric_limits<double>::quiet_NaN()), "null");
    EXPECT_EQ(kz::jsonNumberText(-std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonNumberText, RandomFloatsAreWrittenAsToCharsWritesThemAndReadBack) {
    constexpr std::uint32_t kSeed = 20251123u;
    std::mt19937 rng(kSeed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    int failures = 0;
    for (int i = 0; i < 200000 && failures < 10; ++i) {
        // Half over every finite float (any exponent), half in the range of positions and normals.
        float f = i % 2 == 0 ? std::bit_cast<float>(static_cast<std::uint32_t>(rng())) : unit(rng) * 50.0f;
        if (!std::isfinite(f)) continue;
        const std::string text = kz::jsonText(Json::array({kz::shortestDouble(f)}));
        const std::string want = "[" + toCharsText(f) + "]";
        float back = std::numeric_limits<float>::quiet_NaN();
        const auto read = std::from_chars(text.data() + 1, text.data() + text.size() - 1, back);
        const bool readsBack = read.ec == std::errc() && read.ptr == text.data() + text.size() - 1 &&
                               std::bit_cast<std::uint32_t>(back) == std::bit_cast<std::uint32_t>(f);
        if (text != want || !readsBack || !Json::accept(text)) {
            ++failures;
            ADD_FAILURE() << "seed " << kSeed << " case " << i << ": float bits 0x" << std::hex
                          << std::bit_cast<std::uint32_t>(f) << std::dec << " written " << text << ", want "
                          << want << (readsBack ? "" : " (does not read back)");
        }
    }
    EXPECT_EQ(failures, 0);
}

} // namespace
