// kolize's command line, owned by CLI11: every flag bound to a typed value whose default is written
// once (in kz::AppOptions, kz::HeadlessOptions or Flags) and shown by --help from that value; every
// value checked by a CLI::Validator; the flags that cannot go together declared with excludes and
// needs; and CLI11's errors told in kolize's words (one "kolize: ..." line, exit code 2).
#pragma once

#include "app/cli/headless.hpp"
#include "app/window/app.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kz::cli {

/// Everything the command line says, typed.
struct Flags {
    bool headless = false;      ///< --headless: step without a window, write a report.
    bool listScenarios = false; ///< --list-scenarios: print the built-in scenarios, then exit.
    /// The window's options, with their defaults; --scenario, --seed, --threads and --replay serve
    /// headless runs too. --threads defaults to all cores.
    AppOptions window;
    /// --steps (the scenario's name and the seed are filled in when the scenario loads).
    HeadlessOptions run;
    /// --report: the report's file, "-" for stdout. A headless run always writes one; the window
    /// only when --report is given (Flags::window.report is set from it then).
    std::string report = "-";
    bool noConfig = false;     ///< --no-config: the window neither reads nor writes its settings file.
    std::string explainQuery;  ///< `kolize explain QUERY`.
    std::string explainShapes; ///< `kolize explain --shapes FILE|-`.
};

/// Two flags that cannot go together (or a flag without the one it needs), with kolize's line.
struct Conflict {
    std::function<bool()> holds; ///< True when the command line has this conflict.
    std::string message;         ///< "--seed: not with --replay (...)".
};

/// The command line: the CLI::App, the flags it fills and the conflicts it knows. Not copyable:
/// the App holds references into `flags`.
class CommandLine {
public:
    CommandLine();
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;

    /// Parses argv into flags(); an exit code when main is done: 0 after --help, 2 after a bad flag,
    /// value or pair of flags (one line printed on stderr).
    std::optional<int> parse(int argc, char** argv);

    const Flags& flags() const { return flags_; }
    bool explain() const { return explain_->parsed(); } ///< `kolize explain ...` was given.
    bool given(const std::string& flag) const { return app_.count(flag) > 0; }

private:
    void addCommonFlags();
    void addWindowFlags();
    void addListFlag();
    void addExplainCommand();
    void addConflicts();
    void exclude(CLI::Option* flag, CLI::Option* other, const std::string& why);
    int reportLateError(const CLI::ParseError& error, bool valueError) const;

    Flags flags_;
    CLI::App app_;
    CLI::App* window_ = nullptr;  ///< The window's flags (an option group); each is an error with --headless.
    CLI::App* list_ = nullptr;    ///< --list-scenarios (an option group): an error with any other flag.
    CLI::App* explain_ = nullptr; ///< `kolize explain`.
    std::vector<Conflict> conflicts_; ///< In the order kolize names them.
};

} // namespace kz::cli
