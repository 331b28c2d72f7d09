#include "model/results/result_store.h"

#include "model/results/analysis_budget.h"
#include "model/trace/threads.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

namespace tracescope {

namespace detail {

struct ResultEntry {
    enum class State : uint8_t { Queued, Running, Ready, Failed };
    State state = State::Queued;
    std::string key;  // name + '\n' + options
    std::string name;
    std::function<ComputedResult()> compute;  // kept until the result is ready (a cancelled run starts again)
    ErasedResult value;
    uint64_t bytes = 0;
    uint64_t lastUse = 0;
    std::exception_ptr error;
    std::shared_ptr<AnalysisProgress> progress;
    JobPriority priority = JobPriority::Background;
    uint64_t reserveBytes = 0;
    JobRunner::JobId job = 0;
    std::atomic<bool> started{false};                            // a thread computes it (or did)
    int waiting = 0;                                             // blocking get()s waiting on it
    std::vector<std::pair<uint64_t, ResultCallback>> callbacks;  // the asynchronous requests' interest
};

}  // namespace detail

namespace {

std::string joinKey(const ResultKey& key) { return key.name + '\n' + key.options; }

// CPU seconds of the results computed inside the current computation on this thread.
thread_local double tNestedCpuSeconds = 0;

bool isCancellation(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const AnalysisCancelled&) {
        return true;
    } catch (...) {
        return false;
    }
}

// The registry behind ResultStore::of: one store per trace while anyone holds it. A store
// keeps its trace alive, so no other trace can take the address meanwhile.
std::mutex registryMutex;
std::unordered_map<const Trace*, std::weak_ptr<ResultStore>>& registry() {
    static std::unordered_map<const Trace*, std::weak_ptr<ResultStore>> stores;
    return stores;
}

// The shared runner, admitting jobs against the analyses' memory budget.
JobRunner& defaultRunner() {
    static JobRunner& runner = []() -> JobRunner& {
        JobRunner& r = JobRunner::shared();
        r.setMemoryBudget([] { return analysisMemoryBudget().bytes; });
        return r;
    }();
    return runner;
}

}  // namespace

ResultRequest& ResultRequest::operator=(ResultRequest&& other) noexcept {
    if (this != &other) {
        cancel();
        store_ = std::move(other.store_);
        entry_ = std::move(other.entry_);
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

void ResultRequest::cancel() {
    std::shared_ptr<detail::ResultEntry> entry = std::move(entry_);
    entry_.reset();
    if (!entry) return;
    if (std::shared_ptr<ResultStore> store = store_.lock()) store->withdraw(entry, id_);
    store_.reset();
}

std::shared_ptr<AnalysisProgress> ResultRequest::progress() const {
    if (!entry_) return nullptr;
    std::shared_ptr<ResultStore> store = store_.lock();
    if (!store) return nullptr;
    std::lock_guard lock(store->mutex_);  // a cancelled run started again gets a new one
    return entry_->progress;
}

bool ResultRequest::started() const { return entry_ && entry_->started.load(); }

std::shared_ptr<ResultStore> ResultStore::of(const std::shared_ptr<const Trace>& trace, JobRunner* runner) {
    if (!trace) return nullptr;
    std::lock_guard lock(registryMutex);
    std::weak_ptr<ResultStore>& slot = registry()[trace.get()];
    if (std::shared_ptr<ResultStore> store = slot.lock()) return store;
    auto store = std::make_shared<ResultStore>(Private{}, trace, runner ? *runner : defaultRunner());
    slot = store;
    return store;
}

std::shared_ptr<ResultStore> ResultStore::existing(const Trace* trace) {
    std::lock_guard lock(registryMutex);
    auto it = registry().find(trace);
    return it != registry().end() ? it->second.lock() : nullptr;
}

void ResultStore::releaseElsewhere(std::shared_ptr<ResultStore> store, std::shared_ptr<const Trace> trace) {
    if (!store && !trace) return;
    JobRunner& runner = store ? store->runner() : defaultRunner();
    // Interactive: the memory comes back before the next trace's analyses start taking theirs.
    runner.submit(JobPriority::Interactive, 0, [store = std::move(store), trace = std::move(trace)]() mutable {
        store.reset();  // the results first: they refer to the trace
        trace.reset();
    });
}

ResultStore::ResultStore(Private, std::shared_ptr<const Trace> trace, JobRunner& runner)
    : trace_(std::move(trace)), runner_(runner) {
    limit_ = analysisMemoryBudget().bytes / 4;
}

ResultStore::~ResultStore() {
    {
        std::lock_guard lock(registryMutex);
        auto it = registry().find(trace_.get());
        if (it != registry().end() && it->second.expired()) registry().erase(it);
    }
    // Jobs hold the store, so none is queued or running here; computations run by get() on
    // other threads hold it too.
}

detail::ErasedResult ResultStore::getErased(const ResultKey& key, Compute compute) {
    const std::string k = joinKey(key);
    std::unique_lock lock(mutex_);
    for (;;) {
        auto it = entries_.find(k);
        if (it == entries_.end()) {
            auto entry = std::make_shared<Entry>();
            entry->key = k;
            entry->name = key.name;
            entry->compute = compute;
            entry->progress = std::make_shared<AnalysisProgress>(trace_->counts().slices);
            entries_.emplace(k, entry);
            return computeHere(entry, lock, false);
        }
        std::shared_ptr<Entry> entry = it->second;
        switch (entry->state) {
        case Entry::State::Ready: entry->lastUse = ++clock_; return entry->value;
        case Entry::State::Queued:
            // Taken off the queue and computed here: a worker never waits on a queued job.
            runner_.cancelQueued(entry->job);
            return computeHere(entry, lock, false);
        case Entry::State::Running: {
            ++entry->waiting;
            while (entry->state == Entry::State::Running) {
                changed_.wait_for(lock, std::chrono::milliseconds(50));
                if (entry->state == Entry::State::Running) {
                    try {
                        analysisThrowIfCancelled();  // the caller gave up waiting
                    } catch (...) {
                        --entry->waiting;
                        throw;
                    }
                }
            }
            --entry->waiting;
            if (entry->state == Entry::State::Ready) {
                entry->lastUse = ++clock_;
                return entry->value;
            }
            if (entry->state == Entry::State::Failed && !isCancellation(entry->error))
                std::rethrow_exception(entry->error);
            break;  // cancelled for someone else, or queued again: look again
        }
        case Entry::State::Failed:  // not in the map any more; cannot be found
            entries_.erase(it);
            break;
        }
    }
}

detail::ErasedResult ResultStore::computeHere(const std::shared_ptr<Entry>& entry, std::unique_lock<std::mutex>& lock,
                                              bool ownProgress) {
    entry->state = Entry::State::Running;
    entry->started = true;
    Compute compute = entry->compute;
    std::shared_ptr<AnalysisProgress> progress = entry->progress;
    lock.unlock();
    detail::ComputedResult result;
    std::exception_ptr error;
    // This computation's own CPU: its thread time less that of the results computed inside it
    // (blocking gets on this thread), which count under their own names.
    const double outerNested = std::exchange(tNestedCpuSeconds, 0.0);
    const double cpuStart = threadCpuSeconds();
    try {
        // A job reports to the entry's progress (what its askers watch, what cancels it); a
        // blocking get computes under its caller's.
        std::optional<AnalysisProgressScope> scope;
        if (ownProgress) scope.emplace(progress.get());
        if (ownProgress && progress->cancelled()) throw AnalysisCancelled();
        result = compute();
        if (ownProgress) progress->finish();
    } catch (...) {
        error = std::current_exception();
    }
    const double cpu = threadCpuSeconds() - cpuStart;
    const double ownCpu = std::max(0.0, cpu - tNestedCpuSeconds);
    tNestedCpuSeconds = outerNested + cpu;
    lock.lock();
    if (error) {
        failed(entry, error, lock);
        std::rethrow_exception(error);
    }
    detail::ErasedResult value = result.value;
    finished(entry, std::move(result), ownCpu, lock);
    return value;
}

void ResultStore::finished(const std::shared_ptr<Entry>& entry, detail::ComputedResult result, double cpuSeconds,
                           std::unique_lock<std::mutex>& lock) {
    entry->state = Entry::State::Ready;
    entry->value = std::move(result.value);
    entry->bytes = result.bytes;
    entry->lastUse = ++clock_;
    entry->compute = nullptr;
    ++computations_[entry->name];
    cpuSeconds_[entry->name] += cpuSeconds;
    std::vector<std::pair<uint64_t, detail::ResultCallback>> callbacks = std::move(entry->callbacks);
    entry->callbacks.clear();
    auto it = entries_.find(entry->key);
    if (it != entries_.end() && it->second == entry) {
        heldBytes_ += entry->bytes;
        dropToLimit(entry.get());
    }
    changed_.notify_all();
    const detail::ErasedResult value = entry->value;
    lock.unlock();
    for (auto& [id, done] : callbacks) done(value, nullptr);
    lock.lock();
}

void ResultStore::failed(const std::shared_ptr<Entry>& entry, std::exception_ptr error,
                         std::unique_lock<std::mutex>& lock) {
    if (isCancellation(error) && !entry->callbacks.empty()) {
        // Cancelled on behalf of one asker (a blocking caller that gave up) while requests still
        // want it: queued again, with a fresh progress.
        entry->state = Entry::State::Queued;
        entry->started = false;
        entry->progress = std::make_shared<AnalysisProgress>(trace_->counts().slices);
        submitJob(entry);
        changed_.notify_all();
        return;
    }
    entry->state = Entry::State::Failed;
    entry->error = error;
    forget(entry);
    std::vector<std::pair<uint64_t, detail::ResultCallback>> callbacks = std::move(entry->callbacks);
    entry->callbacks.clear();
    changed_.notify_all();
    lock.unlock();
    for (auto& [id, done] : callbacks) done(nullptr, error);
    lock.lock();
}

void ResultStore::forget(const std::shared_ptr<Entry>& entry) {
    auto it = entries_.find(entry->key);
    if (it != entries_.end() && it->second == entry) entries_.erase(it);
}

ResultRequest ResultStore::requestErased(const ResultKey& key, JobPriority priority, uint64_t reserveBytes,
                                         Compute compute, detail::ResultCallback done) {
    const std::string k = joinKey(key);
    std::unique_lock lock(mutex_);
    std::shared_ptr<Entry> entry;
    auto it = entries_.find(k);
    if (it != entries_.end()) entry = it->second;
    if (entry && entry->state == Entry::State::Ready) {
        entry->lastUse = ++clock_;
        detail::ErasedResult value = entry->value;
        lock.unlock();
        done(value, nullptr);
        return {};
    }
    ResultRequest request;
    request.store_ = weak_from_this();
    request.id_ = nextRequest_++;
    if (!entry) {
        entry = std::make_shared<Entry>();
        entry->key = k;
        entry->name = key.name;
        entry->compute = std::move(compute);
        entry->progress = std::make_shared<AnalysisProgress>(trace_->counts().slices);
        entry->priority = priority;
        entry->reserveBytes = reserveBytes;
        entries_.emplace(k, entry);
        entry->callbacks.emplace_back(request.id_, std::move(done));
        submitJob(entry);
    } else {
        entry->callbacks.emplace_back(request.id_, std::move(done));
        // Asked for at a higher priority than it is queued at: moved up.
        if (entry->state == Entry::State::Queued && priority > entry->priority && runner_.cancelQueued(entry->job)) {
            entry->priority = priority;
            submitJob(entry);
        }
    }
    request.entry_ = entry;
    return request;
}

void ResultStore::submitJob(const std::shared_ptr<Entry>& entry) {
    std::weak_ptr<Entry> weak = entry;
    entry->job = runner_.submit(entry->priority, entry->reserveBytes, [self = shared_from_this(), weak] {
        if (std::shared_ptr<Entry> e = weak.lock()) self->runJob(e);
    });
}

void ResultStore::runJob(const std::shared_ptr<Entry>& entry) {
    std::unique_lock lock(mutex_);
    if (entry->state != Entry::State::Queued) return;  // taken by a get(), or withdrawn
    try {
        computeHere(entry, lock, true);
    } catch (...) {
        // Delivered to the askers by failed().
    }
}

void ResultStore::withdraw(const std::shared_ptr<Entry>& entry, uint64_t requestId) {
    std::unique_lock lock(mutex_);
    auto& cbs = entry->callbacks;
    cbs.erase(std::remove_if(cbs.begin(), cbs.end(), [&](const auto& c) { return c.first == requestId; }), cbs.end());
    if (!cbs.empty() || entry->waiting > 0) return;
    if (entry->state == Entry::State::Queued) {
        // Nobody wants it any more: off the queue (a job already started finds it gone).
        runner_.cancelQueued(entry->job);
        entry->state = Entry::State::Failed;
        entry->error = std::make_exception_ptr(AnalysisCancelled());
        forget(entry);
        changed_.notify_all();
    } else if (entry->state == Entry::State::Running) {
        entry->progress->cancel();  // a job computing it stops at its next check
    }
}

void ResultStore::dropToLimit(const Entry* keep) {
    if (limit_ == 0 || heldBytes_ <= limit_) return;
    std::vector<std::shared_ptr<Entry>> ready;
    for (const auto& [k, e] : entries_)
        if (e->state == Entry::State::Ready && e.get() != keep) ready.push_back(e);
    std::sort(ready.begin(), ready.end(), [](const auto& a, const auto& b) { return a->lastUse < b->lastUse; });
    for (const std::shared_ptr<Entry>& e : ready) {
        if (heldBytes_ <= limit_) break;
        heldBytes_ -= std::min(heldBytes_, e->bytes);
        entries_.erase(e->key);  // its holders keep their copy; the next request computes it again
        ++dropped_;
    }
}

bool ResultStore::holds(const ResultKey& key) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(joinKey(key));
    return it != entries_.end() && it->second->state == Entry::State::Ready;
}

uint64_t ResultStore::computations(const std::string& name) const {
    std::lock_guard lock(mutex_);
    auto it = computations_.find(name);
    return it == computations_.end() ? 0 : it->second;
}

uint64_t ResultStore::dropped() const {
    std::lock_guard lock(mutex_);
    return dropped_;
}

uint64_t ResultStore::heldBytes() const {
    std::lock_guard lock(mutex_);
    return heldBytes_;
}

std::vector<std::pair<std::string, uint64_t>> ResultStore::heldByName() const {
    std::vector<std::pair<std::string, uint64_t>> held;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [key, entry] : entries_)
            if (entry->state == Entry::State::Ready) held.emplace_back(entry->name, entry->bytes);
    }
    std::sort(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return held;
}

std::vector<std::pair<std::string, double>> ResultStore::cpuSecondsByName() const {
    std::vector<std::pair<std::string, double>> spent;
    {
        std::lock_guard lock(mutex_);
        spent.assign(cpuSeconds_.begin(), cpuSeconds_.end());
    }
    std::sort(spent.begin(), spent.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return spent;
}

void ResultStore::setMemoryLimit(uint64_t bytes) {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
    dropToLimit(nullptr);
}

}  // namespace tracescope
