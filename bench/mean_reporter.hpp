// A console reporter that also keeps each benchmark's times per iteration (one per repetition),
// so a benchmark binary can print a summary with ratios after the table: their mean and median,
// and the median of a counter. With --benchmark_report_aggregates_only=true the reporter is given
// the aggregates instead of the repetitions; it then keeps the "mean" and "median" rows.
#pragma once

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
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
            if (r.error_occurred) continue;
            Samples& s = samples_[r.run_name.function_name];
            if (r.run_type == Run::RT_Iteration) {
                s.real.push_back(r.GetAdjustedRealTime());
                s.cpu.push_back(r.GetAdjustedCPUTime());
                for (const auto& [key, counter] : r.counters)
                    s.counters[key].push_back(counter.value);
            } else if (r.aggregate_name == "mean") {
                s.aggregateMean = Mean{r.GetAdjustedRealTime(), r.GetAdjustedCPUTime()};
                s.aggregateRepetitions = r.repetitions;
            } else if (r.aggregate_name == "median") {
                s.aggregateMedian = r.GetAdjustedRealTime();
                s.aggregateMedianCpu = r.GetAdjustedCPUTime();
                for (const auto& [key, counter] : r.counters)
                    s.aggregateCounters[key] = counter.value;
                s.aggregateRepetitions = r.repetitions;
            }
        }
        ConsoleReporter::ReportRuns(reports);
    }

    /// The mean of the benchmark named `name` (its function name, without repetition
    /// suffixes), or empty if it did not run.
    std::optional<Mean> mean(const std::string& name) const {
        const Samples* s = find(name);
        if (s == nullptr) return std::nullopt;
        if (s->real.empty()) return s->aggregateMean;
        double real = 0.0, cpu = 0.0;
        for (std::size_t i = 0; i < s->real.size(); ++i) {
            real += s->real[i];
            cpu += s->cpu[i];
        }
        const auto n = static_cast<double>(s->real.size());
        return Mean{real / n, cpu / n};
    }

    /// The median wall time per iteration over the repetitions, NaN if it did not run.
    double realMedian(const std::string& name) const {
        const Samples* s = find(name);
        if (s == nullptr) return std::nan("");
        return s->real.empty() ? s->aggregateMedian.value_or(std::nan("")) : medianOf(s->real);
    }

    /// The median CPU time per iteration over the repetitions, NaN if it did not run (on a shared
    /// machine, wall time also counts the slices other processes took).
    double cpuMedian(const std::string& name) const {
        const Samples* s = find(name);
        if (s == nullptr) return std::nan("");
        return s->cpu.empty() ? s->aggregateMedianCpu.value_or(std::nan("")) : medianOf(s->cpu);
    }

    /// The median of the counter `key` over the repetitions, NaN if there is none.
    double counterMedian(const std::string& name, const std::string& key) const {
        const Samples* s = find(name);
        if (s == nullptr) return std::nan("");
        if (s->real.empty()) {
            const auto it = s->aggregateCounters.find(key);
            return it == s->aggregateCounters.end() ? std::nan("") : it->second;
        }
        const auto it = s->counters.find(key);
        return it == s->counters.end() ? std::nan("") : medianOf(it->second);
    }

    /// The median of `values` (NaN if empty).
    static double medianOf(std::vector<double> values) {
        if (values.empty()) return std::nan("");
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    }

    /// The most repetitions any benchmark ran.
    int repetitions() const {
        std::int64_t most = 0;
        for (const auto& [name, s] : samples_)
            most = std::max(most, s.real.empty() ? s.aggregateRepetitions
                                                 : static_cast<std::int64_t>(s.real.size()));
        return static_cast<int>(most);
    }

private:
    struct Samples {
        std::vector<double> real, cpu;
        std::map<std::string, std::vector<double>> counters;
        std::optional<Mean> aggregateMean;
        std::optional<double> aggregateMedian;
        std::optional<double> aggregateMedianCpu;
        std::map<std::string, double> aggregateCounters;
        std::int64_t aggregateRepetitions = 0;
    };

    const Samples* find(const std::string& name) const {
        const auto it = samples_.find(name);
        if (it == samples_.end()) return nullptr;
        const Samples& s = it->second;
        return s.real.empty() && !s.aggregateMean && !s.aggregateMedian ? nullptr : &s;
    }

    std::map<std::string, Samples> samples_;
};

} // namespace kz::bench
