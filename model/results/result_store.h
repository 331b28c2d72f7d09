// One result store per open trace: the single owner of what is derived from the trace
// (classification, steps, memory profile, op and kernel stats, the pages' analyses...). Each
// result is computed at most once per (trace, options), on first request; every page, derived
// track and CLI command that asks for it gets the same one, and requests made while it is being
// computed wait on that computation. Results carry their memory size; past the store's limit the
// least recently used are dropped, and computed again when next asked for.
//
// Two ways to ask:
//  * get(): blocking, on the calling thread (the CLI; an analysis that needs another result). A
//    result nobody computes yet is computed right there, under the caller's progress; one that
//    is queued is taken off the queue and computed there too (so workers waiting on each other
//    never deadlock); one that is being computed elsewhere is waited for.
//  * request(): asynchronous, on the job runner (model/results/job_runner.h) at a priority,
//    reserving the memory the computation needs; `done` is called on a runner thread (or at
//    once, when the result is held). The returned ResultRequest holds the interest: dropping it
//    or cancel() withdraws it, and a computation nobody wants any more is cancelled (its
//    AnalysisProgress, which the analyses' slice loops check).
// A computation that throws reaches every asker with its exception and is not kept: the next
// request tries again. One cancelled on behalf of a caller who gave up is started again for the
// others who still want it.
#pragma once

#include "model/analysis/analysis_progress.h"
#include "model/results/job_runner.h"
#include "model/trace/trace.h"

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tracescope {

// Which result, with which options ("" when it takes none): {"classification", ""},
// {"overview", "marker=auto all=0"}.
struct ResultKey {
    std::string name;
    std::string options;
};

// The memory a result holds, for the store's limit: sizeof by default; results with large
// vectors overload it (model/results/trace_results.h).
template <typename R>
uint64_t resultBytes(const R&) {
    return sizeof(R);
}

class ResultStore;

namespace detail {
using ErasedResult = std::shared_ptr<const void>;
using ResultCallback = std::function<void(ErasedResult, std::exception_ptr)>;
struct ComputedResult {
    ErasedResult value;
    uint64_t bytes = 0;
};
struct ResultEntry;
}  // namespace detail

// The interest of one asynchronous request (move-only; withdrawn when destroyed).
class ResultRequest {
public:
    ResultRequest() = default;
    ~ResultRequest() { cancel(); }
    ResultRequest(ResultRequest&& other) noexcept { *this = std::move(other); }
    ResultRequest& operator=(ResultRequest&& other) noexcept;
    ResultRequest(const ResultRequest&) = delete;
    ResultRequest& operator=(const ResultRequest&) = delete;

    // Withdraws the interest; `done` will not be called after this returns (unless it is
    // running right now on another thread).
    void cancel();
    // The computation's progress (shared with the other askers); null when the result was
    // held already or the request was withdrawn.
    std::shared_ptr<AnalysisProgress> progress() const;
    // True once a thread computes it (false while it waits in the runner's queue).
    bool started() const;
    // True while the request holds an interest (not withdrawn, not answered at once).
    bool active() const { return entry_ != nullptr; }

private:
    friend class ResultStore;
    std::weak_ptr<ResultStore> store_;
    std::shared_ptr<detail::ResultEntry> entry_;
    uint64_t id_ = 0;
};

class ResultStore : public std::enable_shared_from_this<ResultStore> {
    struct Private {};

public:
    // The store of `trace`: the same one for as long as anyone holds it, made on first use. It
    // keeps the trace alive. Its jobs run on JobRunner::shared() unless `runner` is given (only
    // when the store is made by this call).
    static std::shared_ptr<ResultStore> of(const std::shared_ptr<const Trace>& trace, JobRunner* runner = nullptr);
    // The store of `trace` if it has one now, else null (none is made).
    static std::shared_ptr<ResultStore> existing(const Trace* trace);
    // Drops `store` and `trace` on a thread of the store's runner: when these are the last
    // references, every result and the trace are freed there. Freeing a large trace with its
    // results (parsed HLO programs, maps over every slice) takes a tenth of a second or more: a
    // stall for a UI thread that replaces or closes it. Take the store (existing()) before the
    // pages let go of theirs, or the last of them frees it where it is.
    static void releaseElsewhere(std::shared_ptr<ResultStore> store, std::shared_ptr<const Trace> trace);
    ResultStore(Private, std::shared_ptr<const Trace> trace, JobRunner& runner);
    ~ResultStore();
    ResultStore(const ResultStore&) = delete;
    ResultStore& operator=(const ResultStore&) = delete;

    const Trace& trace() const { return *trace_; }
    const std::shared_ptr<const Trace>& sharedTrace() const { return trace_; }
    JobRunner& runner() const { return runner_; }

    template <typename R>
    std::shared_ptr<const R> get(const ResultKey& key, std::function<R()> compute) {
        return std::static_pointer_cast<const R>(getErased(key, erase(std::move(compute))));
    }

    template <typename R>
    ResultRequest request(const ResultKey& key, JobPriority priority, uint64_t reserveBytes, std::function<R()> compute,
                          std::function<void(std::shared_ptr<const R>, std::exception_ptr)> done) {
        detail::ResultCallback erasedDone = [done = std::move(done)](detail::ErasedResult v, std::exception_ptr e) {
            done(std::static_pointer_cast<const R>(v), e);
        };
        return requestErased(key, priority, reserveBytes, erase(std::move(compute)), std::move(erasedDone));
    }

    // True when the result is held (computed and not dropped).
    bool holds(const ResultKey& key) const;
    // How many computations of results named `name` (any options) completed: "once" is checkable.
    uint64_t computations(const std::string& name) const;
    // How many results were dropped to stay within the limit.
    uint64_t dropped() const;
    // The memory the held results take (their resultBytes).
    uint64_t heldBytes() const;
    // Each held result's name and resultBytes, largest first (where heldBytes goes).
    std::vector<std::pair<std::string, uint64_t>> heldByName() const;
    // The CPU seconds of each result's completed computations, by name, most first: the thread
    // time of its computation less that of the results computed inside it (where the time goes).
    std::vector<std::pair<std::string, double>> cpuSecondsByName() const;
    // The most the held results may take (0: no limit). Default: a quarter of the analyses'
    // memory budget when the store is made.
    void setMemoryLimit(uint64_t bytes);

private:
    friend class ResultRequest;
    using Entry = detail::ResultEntry;
    using Compute = std::function<detail::ComputedResult()>;

    template <typename R>
    static Compute erase(std::function<R()> compute) {
        return [compute = std::move(compute)]() -> detail::ComputedResult {
            auto value = std::make_shared<const R>(compute());
            const uint64_t bytes = resultBytes(*value);
            return {std::move(value), bytes};
        };
    }
    detail::ErasedResult getErased(const ResultKey& key, Compute compute);
    ResultRequest requestErased(const ResultKey& key, JobPriority priority, uint64_t reserveBytes, Compute compute,
                                detail::ResultCallback done);
    void withdraw(const std::shared_ptr<Entry>& entry, uint64_t requestId);
    void runJob(const std::shared_ptr<Entry>& entry);
    void submitJob(const std::shared_ptr<Entry>& entry);
    // Runs the entry's computation on this thread (lock held on entry and exit, released while
    // computing); returns the value or throws the computation's exception.
    detail::ErasedResult computeHere(const std::shared_ptr<Entry>& entry, std::unique_lock<std::mutex>& lock,
                                     bool ownProgress);
    void finished(const std::shared_ptr<Entry>& entry, detail::ComputedResult result, double cpuSeconds,
                  std::unique_lock<std::mutex>& lock);
    void failed(const std::shared_ptr<Entry>& entry, std::exception_ptr error, std::unique_lock<std::mutex>& lock);
    void forget(const std::shared_ptr<Entry>& entry);
    void dropToLimit(const Entry* keep);

    const std::shared_ptr<const Trace> trace_;
    JobRunner& runner_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::unordered_map<std::string, std::shared_ptr<Entry>> entries_;  // by name + '\n' + options
    std::map<std::string, uint64_t> computations_;
    std::map<std::string, double> cpuSeconds_;
    uint64_t dropped_ = 0;
    uint64_t heldBytes_ = 0;
    uint64_t limit_ = 0;
    uint64_t clock_ = 0;  // use counter for least-recently-used
    uint64_t nextRequest_ = 1;
};

}  // namespace tracescope
