#include "model/results/launch_queue_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

namespace {

uint64_t notesBytes(const std::vector<std::string>& notes) {
    uint64_t bytes = 0;
    for (const std::string& n : notes) bytes += sizeof n + n.capacity();
    return bytes;
}

uint64_t distributionBytes(const LaunchDistribution& d) { return d.log2Bins.capacity() * sizeof(uint64_t); }

}  // namespace

uint64_t resultBytes(const LaunchStats& s) {
    uint64_t bytes = sizeof s + s.rows.capacity() * sizeof(LaunchRow) + notesBytes(s.notes);
    bytes += distributionBytes(s.launchDelay) + distributionBytes(s.runtime) + distributionBytes(s.kernel);
    for (const auto* m : {&s.byCall, &s.otherCalls})
        for (const auto& [name, n] : *m) bytes += 64 + name.capacity();
    return bytes;
}

uint64_t resultBytes(const QueueLengthResult& q) {
    uint64_t bytes = sizeof q + notesBytes(q.notes);
    for (const QueueLengthStream& s : q.streams)
        bytes += sizeof s + s.time.capacity() * sizeof(TimeNs) + s.value.capacity() * sizeof(int32_t);
    return bytes;
}

std::function<LaunchStats()> launchStatsWith(ResultStore& store, const LaunchStatsOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> LaunchStats {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeLaunchStats(*classificationOf(*s), options);
    };
}

std::function<QueueLengthResult()> queueLengthWith(ResultStore& store, const QueueLengthOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> QueueLengthResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeQueueLength(*classificationOf(*s), options);
    };
}

std::shared_ptr<const LaunchStats> launchStatsOf(ResultStore& store, const LaunchStatsOptions& options) {
    return store.get<LaunchStats>({kLaunchStatsName, options.key()}, launchStatsWith(store, options));
}

std::shared_ptr<const QueueLengthResult> queueLengthOf(ResultStore& store, const QueueLengthOptions& options) {
    return store.get<QueueLengthResult>({kQueueLengthName, options.key()}, queueLengthWith(store, options));
}

}  // namespace tracescope
