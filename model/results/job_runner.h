// The one executor of the model's background work (analyses, the timeline's index, loaders):
// a fixed set of threads, as many as the machine has cores, running queued jobs by priority
// (then the newest first), in the way KDAB Hotspot's job tracker and Perfetto UI's
// task queue run theirs. No Qt: the views deliver what a job produced to their own thread.
//
// Memory admission: a job may reserve the peak memory it will take; it starts only while the
// reservations of the running jobs plus its own fit the budget, measured again at each decision
// (what finished jobs left behind, their results, is in it; what running jobs hold already is
// counted twice, on the safe side). With nothing reserved a job starts whatever it needs, so a
// job is never starved, except a background one: computed ahead of being asked for, it waits
// until it fits or is asked for at a higher priority. A job that reserves nothing (loading, the
// timeline's index, search) is never held for memory.
//
// Background jobs (pages nobody looks at yet) never take the last thread, so work a user waits
// on finds one free as soon as a running job of its own priority or above ends. Interactive
// work (loading, the timeline's index, search) may have threads of its own besides: analyses
// never take them, so a file opens and a search answers while every analysis thread is busy.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tracescope {

enum class JobPriority : uint8_t {
    Background = 0,   // results computed ahead of being asked for
    Page = 1,         // the analysis of a page being shown
    Interactive = 2,  // the timeline (its index, search), loading: a user waits on it
};

class JobRunner {
public:
    using JobId = uint64_t;

    // `threads` 0: one per core of the machine (model/trace/threads.h). `interactiveThreads`:
    // threads besides them that only interactive jobs take.
    explicit JobRunner(size_t threads = 0, size_t interactiveThreads = 0);
    // Queued jobs are dropped (their `work` never runs); running ones are waited for.
    ~JobRunner();
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // The process's runner, made on first use: a thread per core, and two for interactive jobs
    // (a file's import and its previews at once).
    static JobRunner& shared();

    // Queues `work`, which reserves `bytes` while it runs. Thread-safe; `work` runs on a thread
    // of the runner, never inside submit().
    JobId submit(JobPriority priority, uint64_t bytes, std::function<void()> work);
    // Removes a job that has not started: true when it was still queued (it will never run).
    bool cancelQueued(JobId id);

    // How much memory jobs may reserve in all (bytes; 0: no limit), asked at each admission.
    // Default: no limit.
    void setMemoryBudget(std::function<uint64_t()> budget);
    // The budget now.
    uint64_t memoryBudget();

    // While held, background jobs wait (the viewer holds them until the timeline's first
    // picture); holds nest. Release with releaseBackground() once per hold.
    void holdBackground();
    void releaseBackground();

    // The threads analyses (jobs below Interactive) run on: at most this many run at once.
    size_t threads() const { return analysisThreads_; }
    // Jobs running now (all, and those below Interactive), jobs waiting, bytes reserved by the
    // running ones.
    size_t running() const;
    size_t analysesRunning() const;
    size_t queued() const;
    uint64_t reserved() const;

private:
    struct Job {
        JobId id = 0;
        JobPriority priority = JobPriority::Background;
        uint64_t bytes = 0;
        std::function<void()> work;
    };
    void workerLoop();
    // The index in queue_ of the job to start now, or -1 (lock held).
    long nextStartable();
    uint64_t budgetLocked();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    std::vector<std::thread> workers_;
    std::function<uint64_t()> budgetFn_;
    uint64_t reserved_ = 0;
    size_t running_ = 0;
    size_t analysesRunning_ = 0;  // running jobs below Interactive
    size_t analysisThreads_ = 0;
    int backgroundHolds_ = 0;
    JobId nextId_ = 1;
    bool stopping_ = false;
};

}  // namespace tracescope
