#include "model/analysis/analysis_progress.h"

#include <algorithm>

namespace tracescope {

namespace {
thread_local AnalysisProgress* current = nullptr;
thread_local uint64_t stepVisits = 0;  // slice visits of the current step on this thread
}  // namespace

namespace detail {
thread_local uint32_t analysisTicks = 0;

void analysisCheck() {
    if (!current) return;
    stepVisits += 0x10000;
    current->report(stepVisits);
    if (current->cancelled()) throw AnalysisCancelled();
}
}  // namespace detail

std::string AnalysisProgress::stepName() const {
    std::lock_guard lock(nameMutex_);
    return name_;
}

void AnalysisProgress::step(std::string name, double begin, double end) {
    {
        std::lock_guard lock(nameMutex_);
        name_ = std::move(name);
    }
    begin_ = begin;
    end_ = std::max(begin, end);
    stepVisits = 0;
    raise(begin);
    if (cancelled()) throw AnalysisCancelled();
}

void AnalysisProgress::report(uint64_t visits) {
    const double done = work_ ? std::min(1.0, double(visits) / double(work_)) : 0.0;
    raise(begin_ + (end_ - begin_) * done);
}

void AnalysisProgress::raise(double fraction) {
    const auto value = uint32_t(std::clamp(fraction, 0.0, 1.0) * 10000.0);
    uint32_t seen = permyriad_.load(std::memory_order_relaxed);
    while (value > seen && !permyriad_.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

AnalysisProgressScope::AnalysisProgressScope(AnalysisProgress* progress) : previous_(current) {
    current = progress;
    stepVisits = 0;
}

AnalysisProgressScope::~AnalysisProgressScope() { current = previous_; }

void analysisStep(std::string name, double begin, double end) {
    if (current) current->step(std::move(name), begin, end);
}

void analysisThrowIfCancelled() {
    if (current && current->cancelled()) throw AnalysisCancelled();
}

const std::atomic<bool>* analysisCancelFlag() { return current ? current->cancelFlag() : nullptr; }

}  // namespace tracescope
