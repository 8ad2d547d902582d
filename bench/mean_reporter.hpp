// A console reporter that also keeps each benchmark's mean time per iteration (over its
// repetitions), so a benchmark binary can print a summary with ratios after the table.
#pragma once

#include <benchmark/benchmark.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kz::bench {

class MeanReporter : public benchmark::ConsoleReporter {
public:
    struct Mean {
        double real; ///< Wall time per iteration, in the benchmark's unit.
        double cpu;  ///< CPU time per iteration, in the benchmark's unit.
    };

    MeanReporter() : benchmark::ConsoleReporter(OO_Tabular) {}

    void ReportRuns(const std::vector<Run>& reports) override {
        for (const Run& r : reports) {
            if (r.run_type != Run::RT_Iteration || r.error_occurred) continue;
            Sum& s = sums_[r.run_name.function_name];
            s.real += r.GetAdjustedRealTime();
            s.cpu += r.GetAdjustedCPUTime();
            ++s.count;
        }
        ConsoleReporter::ReportRuns(reports);
    }

    /// The mean of the benchmark named `name` (its function name, without repetition
    /// suffixes), or empty if it did not run.
    std::optional<Mean> mean(const std::string& name) const {
        const auto it = sums_.find(name);
        if (it == sums_.end() || it->second.count == 0) return std::nullopt;
        return Mean{it->second.real / it->second.count, it->second.cpu / it->second.count};
    }

private:
    struct Sum {
        double real = 0.0, cpu = 0.0;
        int count = 0;
    };
    std::map<std::string, Sum> sums_;
};

} // namespace kz::bench
