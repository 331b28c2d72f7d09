// Admission of the analysis pages' computations against the machine's memory: each job
// reserves its estimated peak (model/analysis/analysis_cost.h) and starts only while the
// reservations in flight fit the budget and a thread of the analysis pool is free (so the
// reservations are those of computations really running); the others wait their turn
// (first come, first served). The budget is what model/import/memory_budget.h says is available when the
// queue is idle: once jobs run, the memory they take is counted by their reservations, so
// it is not measured again until all are done.
#pragma once

#include <QObject>

#include <cstdint>
#include <deque>
#include <functional>

namespace tracescope {

class AnalysisQueue : public QObject {
    Q_OBJECT
public:
    // The application's queue (owned by the application object).
    static AnalysisQueue* instance();

    // What a job may reserve now: the budget when idle (0 when unknown: no limit).
    uint64_t budget();
    // True when a job needing `bytes` could never start: more than the whole budget.
    bool exceedsBudget(uint64_t bytes);

    // Queues `start` (called on the UI thread once admitted, with the ticket; it starts the
    // computation and calls finished(ticket) when it ends; it may be called before submit()
    // returns). `force`: admitted at once, whatever it needs. Returns the ticket.
    uint64_t submit(uint64_t bytes, bool force, std::function<void(uint64_t ticket)> start);
    // The job ended (or will never start): its reservation is released, the next ones start.
    void finished(uint64_t ticket);

    // Reserved by the jobs running now, how many run and how many wait.
    uint64_t reserved() const { return reserved_; }
    size_t running() const { return running_.size(); }
    size_t waiting() const { return waiting_.size(); }
    // How many jobs run at once at most: the analysis pool's threads.
    static size_t maxRunning();

private:
    using QObject::QObject;
    struct Job {
        uint64_t ticket = 0;
        uint64_t bytes = 0;
        std::function<void(uint64_t)> start;
    };
    struct Running {
        uint64_t ticket = 0;
        uint64_t bytes = 0;
    };
    void pump();
    void startJob(Job job);
    std::deque<Job> waiting_;
    std::deque<Running> running_;
    uint64_t reserved_ = 0;
    uint64_t budget_ = 0;
    bool budgetKnown_ = false;
    uint64_t nextTicket_ = 1;
};

}  // namespace tracescope
