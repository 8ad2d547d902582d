#include "json_syntax.hpp"

#include "json_values.hpp"
#include "scenario.hpp"

#include <algorithm>
#include <set>
#include <vector>

namespace kz::scenario_detail {

namespace {

struct LineColumn {
    std::size_t line;
    std::size_t column;
};

/// nlohmann's position is the count of characters read, the offending one included.
LineColumn lineColumn(std::string_view text, std::size_t charsRead) {
    const std::size_t last = std::min(charsRead == 0 ? 0 : charsRead - 1, text.size());
    const std::string_view before = text.substr(0, last);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n');
    const std::size_t column = lineStart == std::string_view::npos ? last + 1 : last - lineStart;
    return {line, column};
}

/// Strips nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: " prefix.
std::string plainMessage(const std::string& what) {
    std::string msg = what;
    if (!msg.empty() && msg.front() == '[') {
        const std::size_t close = msg.find("] ");
        if (close != std::string::npos) msg.erase(0, close + 2);
    }
    if (msg.rfind("parse error", 0) == 0) {
        const std::size_t colon = msg.find(": ");
        if (colon != std::string::npos) msg.erase(0, colon + 2);
    }
    return msg;
}

/// A SAX handler that builds nothing: it tracks the JSON pointer of the current value so that
/// a duplicate key or a number too large for a double (nlohmann error 406, e.g. 1e999) is
/// reported where it is, and a syntax error by line and column.
class SyntaxCheck final : public json::json_sax_t {
public:
    explicit SyntaxCheck(std::string_view text) : text_(text) {}

    std::string error; ///< "<pointer or position>: <what>" once a check failed.

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }

    bool start_object(std::size_t) override { return enter(true); }
    bool key(string_t& name) override {
        Frame& frame = frames_.back();
        frame.key = name;
        if (!frame.keys.insert(name).second) {
            error = pointer() + ": duplicate key";
            return false;
        }
        return true;
    }
    bool end_object() override {
        frames_.pop_back();
        return value();
    }
    bool start_array(std::size_t) override { return enter(false); }
    bool end_array() override {
        frames_.pop_back();
        return value();
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const json::exception& ex) override {
        const LineColumn at = lineColumn(text_, position);
        const std::string where = "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
        if (ex.id == 406) {
            const std::string p = pointer();
            error =
                (p.empty() ? "/" : p) + ": must be a finite number, got " + lastToken + " (" + where + ")";
        } else {
            error = where + ": not valid JSON: " + plainMessage(ex.what());
        }
        return false;
    }

private:
    struct Frame {
        bool isObject;
        std::set<std::string> keys;
        std::string key;   ///< Object: the key whose value is being read.
        std::size_t index; ///< Array: the index of the value being read.
    };

    /// An object or array opens, unless that nests it deeper than kMaxScenarioDepth.
    bool enter(bool isObject) {
        if (frames_.size() >= kMaxScenarioDepth) {
            const std::string p = pointer();
            error = (p.empty() ? "/" : p) + ": nested deeper than " + std::to_string(kMaxScenarioDepth) +
                    " levels (the limit for scenario files)";
            return false;
        }
        frames_.push_back({isObject, {}, {}, 0});
        return true;
    }

    /// A value ended: an array moves on to its next element.
    bool value() {
        if (!frames_.empty() && !frames_.back().isObject) ++frames_.back().index;
        return true;
    }

    std::string pointer() const {
        std::string p;
        for (const Frame& f : frames_)
            p = f.isObject ? child(p, f.key) : child(p, f.index);
        return p;
    }

    std::string_view text_;
    std::vector<Frame> frames_;
};

} // namespace

std::optional<std::string> checkSyntax(std::string_view text) {
    SyntaxCheck check(text);
    if (!json::sax_parse(text.begin(), text.end(), &check) || !check.error.empty())
        return check.error.empty() ? std::string("not valid JSON") : check.error;
    return std::nullopt;
}

} // namespace kz::scenario_detail
