#include "model/results/job_runner.h"

#include "model/results/process_memory.h"
#include "model/trace/threads.h"

#include <algorithm>
#include <numeric>

namespace tracescope {

JobRunner::JobRunner(size_t threads, size_t interactiveThreads) {
    if (threads == 0) threads = machineThreads();
    analysisThreads_ = threads;
    workers_.reserve(threads + interactiveThreads);
    for (size_t i = 0; i < threads + interactiveThreads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

JobRunner::~JobRunner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
}

JobRunner& JobRunner::shared() {
    static JobRunner runner(0, 2);
    return runner;
}

JobRunner::JobId JobRunner::submit(JobPriority priority, uint64_t bytes, std::function<void()> work) {
    JobId id;
    {
        std::lock_guard lock(mutex_);
        id = nextId_++;
        queue_.push_back(Job{id, priority, bytes, std::move(work)});
    }
    wake_.notify_all();
    return id;
}

bool JobRunner::cancelQueued(JobId id) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Job& j) { return j.id == id; });
    if (it == queue_.end()) return false;
    queue_.erase(it);
    return true;
}

void JobRunner::setMemoryBudget(std::function<uint64_t()> budget) {
    {
        std::lock_guard lock(mutex_);
        budgetFn_ = std::move(budget);
    }
    wake_.notify_all();
}

uint64_t JobRunner::memoryBudget() {
    std::lock_guard lock(mutex_);
    return budgetLocked();
}

uint64_t JobRunner::budgetLocked() {
    // Measured at every decision: a finished job's result stays resident (the result store
    // keeps it) while its reservation ends, so a figure measured once, while jobs overlap, let
    // each next job count memory already taken (a 100 M-slice trace's derived results took the
    // viewer past 16 GB that way).
    return budgetFn_ ? budgetFn_() : 0;
}

void JobRunner::holdBackground() {
    std::lock_guard lock(mutex_);
    ++backgroundHolds_;
}

void JobRunner::releaseBackground() {
    {
        std::lock_guard lock(mutex_);
        if (backgroundHolds_ > 0) --backgroundHolds_;
    }
    wake_.notify_all();
}

size_t JobRunner::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

size_t JobRunner::analysesRunning() const {
    std::lock_guard lock(mutex_);
    return analysesRunning_;
}

size_t JobRunner::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

uint64_t JobRunner::reserved() const {
    std::lock_guard lock(mutex_);
    return reserved_;
}

long JobRunner::nextStartable() {
    // The best priority first, the newest of it first: the page a user has just turned to goes
    // before the ones they left.
    std::vector<size_t> order(queue_.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return queue_[a].priority != queue_[b].priority ? queue_[a].priority > queue_[b].priority : a > b;
    });
    const uint64_t budget = order.empty() ? 0 : budgetLocked();
    for (size_t i : order) {
        const Job& job = queue_[i];
        if (job.priority != JobPriority::Interactive && analysesRunning_ >= analysisThreads_)
            return -1;  // the threads left are interactive work's own
        if (job.priority == JobPriority::Background &&
            (backgroundHolds_ > 0 ||
             (analysisThreads_ > 1 && (analysesRunning_ + 1 >= analysisThreads_ || running_ + 1 >= workers_.size()))))
            return -1;  // held, or the last thread stays free for work someone waits on
        // A job that reserves nothing (loading, the timeline's index, search) is never held for
        // memory: with the figure measured afresh, the running analyses' reservations can pass
        // it, and an import must not wait for them.
        if (budget == 0 || job.bytes == 0 || reserved_ + job.bytes <= budget) return long(i);
        // It does not fit. Someone waits on it: it waits for the running jobs to end, nothing
        // passes it, and with none running it starts whatever it needs (never starved).
        if (job.priority != JobPriority::Background) return reserved_ == 0 ? long(i) : -1;
        // Computed ahead of being asked for: it waits until it fits or its page is shown (the
        // page then decides); a smaller one behind it may start meanwhile.
    }
    return -1;
}

void JobRunner::workerLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        long next = -1;
        wake_.wait(lock, [&] { return stopping_ || (next = nextStartable()) >= 0; });
        if (stopping_) return;
        Job job = std::move(queue_[size_t(next)]);
        queue_.erase(queue_.begin() + next);
        ++running_;
        const bool analysis = job.priority != JobPriority::Interactive;
        if (analysis) ++analysesRunning_;
        reserved_ += job.bytes;
        lock.unlock();
        try {
            job.work();
        } catch (...) {
            // A job reports its own failures (the result store keeps them for its askers);
            // whatever escapes must not take the runner down.
        }
        job.work = nullptr;  // what it captured is released outside the lock
        lock.lock();
        --running_;
        if (analysis) --analysesRunning_;
        reserved_ -= std::min(reserved_, job.bytes);
        const bool idle = running_ == 0 && queue_.empty();
        lock.unlock();
        wake_.notify_all();
        // glibc keeps what analyses freed in its arenas, so after a trace's pages were computed
        // the process stayed at its peak: with no job left, the free pages go back (on 8 M
        // XSpace events the viewer held 1.7 GB after its pages, then about the import's and
        // its results' share).
        if (idle) returnFreedMemory();
        lock.lock();
    }
}

}  // namespace tracescope
