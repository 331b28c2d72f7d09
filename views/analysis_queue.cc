#include "views/analysis_queue.h"

#include "model/results/analysis_budget.h"
#include "views/background_pools.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>

namespace tracescope {

AnalysisQueue* AnalysisQueue::instance() {
    static QPointer<AnalysisQueue> queue;
    if (!queue) queue = new AnalysisQueue(QCoreApplication::instance());
    return queue;
}

size_t AnalysisQueue::maxRunning() { return size_t(std::max(1, analysisPool()->maxThreadCount())); }

uint64_t AnalysisQueue::budget() {
    // Measured again only when nothing runs: the running jobs' memory is in their reservations.
    if (running_.empty() || !budgetKnown_) {
        budget_ = analysisMemoryBudget().bytes;
        budgetKnown_ = true;
    }
    return budget_;
}

bool AnalysisQueue::exceedsBudget(uint64_t bytes) {
    const uint64_t b = budget();
    return b != 0 && bytes > b;
}

uint64_t AnalysisQueue::submit(uint64_t bytes, bool force, std::function<void(uint64_t)> start) {
    Job job{nextTicket_++, bytes, std::move(start)};
    const uint64_t ticket = job.ticket;
    if (force) startJob(std::move(job));
    else {
        waiting_.push_back(std::move(job));
        pump();
    }
    return ticket;
}

void AnalysisQueue::finished(uint64_t ticket) {
    auto r = std::find_if(running_.begin(), running_.end(), [&](const Running& j) { return j.ticket == ticket; });
    if (r != running_.end()) {
        reserved_ -= std::min(reserved_, r->bytes);
        running_.erase(r);
    }
    auto w = std::find_if(waiting_.begin(), waiting_.end(), [&](const Job& j) { return j.ticket == ticket; });
    if (w != waiting_.end()) waiting_.erase(w);
    pump();
}

void AnalysisQueue::pump() {
    while (!waiting_.empty()) {
        const uint64_t b = budget();
        const Job& next = waiting_.front();
        // With nothing running, the next job starts even if it needs more than the budget
        // (only a job the page chose to run anyway can); otherwise it waits for room.
        if (!running_.empty() && b != 0 && reserved_ + next.bytes > b) return;
        if (running_.size() >= maxRunning()) return;
        Job job = std::move(waiting_.front());
        waiting_.pop_front();
        startJob(std::move(job));
    }
}

void AnalysisQueue::startJob(Job job) {
    running_.push_back({job.ticket, job.bytes});
    reserved_ += job.bytes;
    // Called last: `start` may call finished() at once (a job that fails to start).
    job.start(job.ticket);
}

}  // namespace tracescope
