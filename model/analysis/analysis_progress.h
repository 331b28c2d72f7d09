// Progress and cancellation of a long analysis, shared between the thread that computes it
// and the one that shows it (the GUI's page, which polls it and may cancel it).
//
// The analyses do not take it as a parameter: a caller makes it current on the computing
// thread with an AnalysisProgressScope, and the analyses' slice loops call analysisTick(),
// which costs an increment until every 65536th call. Nested analyses (an overview classifies
// the trace, finds the steps, then sums them) thus report without threading a parameter
// through every function, and code that sets no scope (the CLI, tests) pays nothing else.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tracescope {

// Thrown by analysisTick() on the computing thread once cancel() was called: the analysis
// unwinds, freeing what it holds.
struct AnalysisCancelled : std::runtime_error {
    AnalysisCancelled() : std::runtime_error("analysis cancelled") {}
};

class AnalysisProgress {
public:
    // `work`: how many slice visits one step makes (the trace's slice count).
    explicit AnalysisProgress(uint64_t work = 0) : work_(work) {}

    // Any thread: asks the computation to stop at its next check.
    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
    // The flag itself, for code that checks a plain atomic (the timeline's index build).
    const std::atomic<bool>* cancelFlag() const { return &cancelled_; }

    // 0..1, never decreasing.
    double fraction() const { return double(permyriad_.load(std::memory_order_relaxed)) / 10000.0; }
    // What the computation does now ("Classifying slices"), as its last step() named it.
    std::string stepName() const;

    // Computing thread: the next step covers [begin, end] of the whole; its slice visits
    // move the fraction from begin to end (a step that visits more stays at end).
    void step(std::string name, double begin, double end);
    // Computing thread: `visits` slices visited in the current step.
    void report(uint64_t visits);
    // The computation ended: fraction 1.
    void finish() { raise(1.0); }

private:
    void raise(double fraction);
    const uint64_t work_;
    std::atomic<bool> cancelled_{false};
    std::atomic<uint32_t> permyriad_{0};
    double begin_ = 0, end_ = 1;  // computing thread only
    mutable std::mutex nameMutex_;
    std::string name_;
};

// Makes `progress` the current thread's for the scope's life (the previous one after).
class AnalysisProgressScope {
public:
    explicit AnalysisProgressScope(AnalysisProgress* progress);
    ~AnalysisProgressScope();
    AnalysisProgressScope(const AnalysisProgressScope&) = delete;
    AnalysisProgressScope& operator=(const AnalysisProgressScope&) = delete;

private:
    AnalysisProgress* previous_;
};

// Starts a step of the current thread's progress, if any (see AnalysisProgress::step).
void analysisStep(std::string name, double begin, double end);

// Throws AnalysisCancelled when the current thread's progress was cancelled (for code that
// waits rather than visits slices: a computation waiting on a result another one computes).
void analysisThrowIfCancelled();
// The current thread's progress's cancel flag; null when none is current.
const std::atomic<bool>* analysisCancelFlag();

namespace detail {
extern thread_local uint32_t analysisTicks;
void analysisCheck();
}  // namespace detail

// One slice visited: called in the analyses' slice loops. Every 65536th call reports to the
// current progress and throws AnalysisCancelled when it was cancelled (< 1 ms of work apart).
inline void analysisTick() {
    if ((++detail::analysisTicks & 0xFFFF) == 0) detail::analysisCheck();
}

}  // namespace tracescope
