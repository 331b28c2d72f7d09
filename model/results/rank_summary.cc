#include "model/results/rank_summary.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"
#include "model/results/collectives_results.h"
#include "model/results/trace_results.h"
#include "model/trace/job_identity.h"
#include "model/trace/producer.h"

#include <algorithm>

namespace tracescope {

namespace {

constexpr size_t kTopRows = 20;

using json = nlohmann::json;

json orNull(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

json overlapJson(const CommOverlap& o) {
    return {{"communication_ns", o.communicationNs},
            {"compute_ns", o.computeNs},
            {"overlapped_ns", o.overlappedNs},
            {"exposed_communication_ns", o.exposedNs}};
}

// The steps as the Pod page takes them: where they come from, the step set its averages are over,
// and per step its breakdown, whether it is in the set, and its communication/compute overlap.
json stepsJson(const ClassifiedTrace& ct) {
    json steps = json::array();
    const StepsResult found = findSteps(ct);
    const std::vector<StepBreakdown> breakdown = breakdownSteps(ct, found);
    const StepSet set = chooseStepSet(ct, breakdown, false);
    const KernelUnions kernels = kernelUnionsOf(ct);
    for (size_t i = 0; i < breakdown.size(); ++i) {
        const StepBreakdown& b = breakdown[i];
        json categories = json::object();
        for (size_t c = 0; c < kStepCategoryCount; ++c)
            if (b.ns[c]) categories[stepCategoryName(StepCategory(c))] = b.ns[c];
        steps.push_back({{"number", b.step.number},
                         {"ts", b.step.startNs},
                         {"dur", b.step.durationNs},
                         {"time_ns", categories},
                         {"in_step_set", set.contains(i)},
                         {"overlap", overlapJson(overlapIn(kernels, b.step.startNs, b.step.endNs()))}});
    }
    return {{"source", stepSourceName(found.source)},
            {"rule", found.rule},
            {"step_set", set.description},
            {"steps", steps}};
}

json topOpsJson(const ClassifiedTrace& ct) {
    OpStatsResult ops = computeOpStats(ct);
    json out = json::array();
    for (OpSide side : {OpSide::Host, OpSide::Device}) {
        std::vector<const OpStatsRow*> rows;
        for (const OpStatsRow& r : ops.rows)
            if (r.side == side && !r.isIdle) rows.push_back(&r);
        std::stable_sort(rows.begin(), rows.end(), [](const OpStatsRow* a, const OpStatsRow* b) {
            return a->selfNs != b->selfNs ? a->selfNs > b->selfNs : a->name < b->name;
        });
        rows.resize(std::min(rows.size(), kTopRows));
        for (const OpStatsRow* r : rows)
            out.push_back({{"side", side == OpSide::Host ? "host" : "device"},
                           {"name", r->name},
                           {"type", r->type},
                           {"occurrences", r->occurrences},
                           {"total_ns", r->totalNs},
                           {"self_ns", r->selfNs}});
    }
    return out;
}

json kernelsJson(const ClassifiedTrace& ct) {
    KernelStatsOptions options;
    options.keepRows = kTopRows;
    const KernelStatsResult k = computeKernelStats(ct, options);
    json top = json::array();
    for (const KernelStatsRow& r : k.rows)
        top.push_back({{"name", r.name}, {"occurrences", r.occurrences}, {"total_ns", r.totalNs}});
    return {{"count", k.kernelCount}, {"total_ns", k.totalKernelNs}, {"top", top}};
}

json collectivesJson(const CollectivesResult& r) {
    json calls = json::array();
    for (const CollectiveCall& c : r.calls) {
        json j = {{"kind", c.kind}, {"ts", c.startNs}, {"dur", c.durationNs}, {"host_ts", c.hostStartNs},
                  {"time_source", collectiveTimeSourceName(c.timeSource)}};
        if (!c.group.empty()) j["group"] = c.group;
        if (c.groupSize > 0) j["group_size"] = c.groupSize;
        if (c.seq) j["seq"] = *c.seq;
        if (c.sizeBytes >= 0) j["size_bytes"] = c.sizeBytes;
        if (c.busFactorKnown) j["bus_factor"] = c.busFactor;
        if (c.algbwBytesPerS >= 0) j["algbw_bytes_per_s"] = c.algbwBytesPerS;
        if (c.busbwBytesPerS >= 0) j["busbw_bytes_per_s"] = c.busbwBytesPerS;
        calls.push_back(std::move(j));
    }
    json summary = json::array();
    for (const CollectiveSummaryRow& s : r.summary)
        summary.push_back({{"kind", s.kind},
                           {"size_bytes", s.sizeBytes >= 0 ? json(s.sizeBytes) : json(nullptr)},
                           {"group", s.group},
                           {"count", s.count},
                           {"total_ns", s.totalNs},
                           {"median_ns", s.medianNs},
                           {"p90_ns", s.p90Ns},
                           {"busbw_bytes_per_s", s.busbwBytesPerS >= 0 ? json(s.busbwBytesPerS) : json(nullptr)}});
    return {{"calls", calls},
            {"summary", summary},
            {"comm_ns", r.overlap.communicationNs},
            {"overlapped_ns", r.overlap.overlappedNs},
            {"comm_comp_overlap_percent", r.overlap.communicationNs > 0 ? json(r.overlap.percent()) : json(nullptr)},
            {"notes", r.notes}};
}

json memoryJson(const MemoryProfileResult& m) {
    json out = json::array();
    for (const MemoryIdProfile& p : m.ids)
        out.push_back({{"memory_id", p.memoryId}, {"peak_bytes", p.peakBytes}, {"peak_ts", p.peakTimeNs},
                       {"peak_step", orNull(p.peakStep)}});
    return out;
}

}  // namespace

json rankSummaryJson(ResultStore& store, const RankSummaryFile& file, const std::string& toolVersion) {
    const Trace& t = store.trace();
    const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(store);
    const DistributedInfo dist = distributedInfo(t);
    json warnings = json::array();
    for (const ImportWarning& w : t.warnings) warnings.push_back(warningText(w));
    return {{"schema", kRankSummarySchema},
            {"schema_version", kRankSummarySchemaVersion},
            {"tool_version", toolVersion},
            {"file", {{"name", file.name}, {"size_bytes", file.sizeBytes}, {"sha256", file.sha256}}},
            {"producer", std::string(producerName(detectProducer(t), t.format))},
            {"rank", orNull(file.rank)},
            {"world_size", orNull(dist.worldSize)},
            {"origin_unix_ns", orNull(t.originUnixNs)},
            {"span_ns", t.spanNs()},
            {"steps", stepsJson(*ct)},
            {"top_ops", topOpsJson(*ct)},
            {"kernels", kernelsJson(*ct)},
            {"collectives", collectivesJson(*collectivesOf(store))},
            {"memory_peaks", memoryJson(*memoryProfileOf(store))},
            {"warnings", warnings}};
}

std::optional<int64_t> rankSummaryOriginUnixNs(const json& s) {
    const auto it = s.find("origin_unix_ns");
    if (it == s.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

namespace {

// False, with `error`, unless `s` is a rank summary of this schema version.
bool checkSchema(const json& s, std::string& error) {
    if (!s.is_object() || s.value("schema", std::string()) != kRankSummarySchema) {
        error = "not a TraceScope rank summary";
        return false;
    }
    const int version = s.at("schema_version").get<int>();
    if (version != kRankSummarySchemaVersion) {
        error = "rank summary of schema version " + std::to_string(version) + " (this tool reads version " +
                std::to_string(kRankSummarySchemaVersion) + "): summarise the rank again";
        return false;
    }
    return true;
}

std::string rankName(const json& s, std::optional<int64_t>& rank) {
    if (s.at("rank").is_number_integer()) rank = s.at("rank").get<int64_t>();
    return rank ? "rank " + std::to_string(*rank) : s.at("file").at("name").get<std::string>();
}

}  // namespace

bool podWorkerFromSummary(const json& s, PodWorkerFacts& out, std::string& error) {
    try {
        if (!checkSchema(s, error)) return false;
        PodWorker& w = out.worker;
        w.name = rankName(s, w.rank);
        w.path = s.at("file").at("name").get<std::string>();
        w.loaded = true;
        const json& steps = s.at("steps");
        const std::string source = steps.at("source").get<std::string>();
        for (int k = 0; k <= int(StepSource::InferredDevicePeriod); ++k)
            if (source == stepSourceName(StepSource(k))) w.stepSource = StepSource(k);
        w.stepRule = steps.at("rule").get<std::string>();
        w.stepSet.description = steps.at("step_set").get<std::string>();
        w.stepSet.rule = StepSetRule::AllSteps;
        for (const json& j : steps.at("steps")) {
            Step st;
            st.number = j.at("number").get<int64_t>();
            st.startNs = j.at("ts").get<int64_t>();
            st.durationNs = j.at("dur").get<int64_t>();
            StepBreakdown b;
            b.step = st;
            const json& categories = j.at("time_ns");
            for (size_t c = 0; c < kStepCategoryCount; ++c)
                if (const auto it = categories.find(stepCategoryName(StepCategory(c))); it != categories.end())
                    b.ns[c] = it->get<int64_t>();
            const bool in = j.at("in_step_set").get<bool>();
            w.stepSet.included.push_back(in);
            w.stepSet.count += in;
            const json& o = j.at("overlap");
            CommOverlap overlap;
            overlap.communicationNs = o.at("communication_ns").get<int64_t>();
            overlap.computeNs = o.at("compute_ns").get<int64_t>();
            overlap.overlappedNs = o.at("overlapped_ns").get<int64_t>();
            overlap.exposedNs = o.at("exposed_communication_ns").get<int64_t>();
            out.steps.push_back(st);
            out.breakdown.push_back(b);
            out.stepOverlap.push_back(overlap);
        }
        return true;
    } catch (const nlohmann::json::exception& e) {
        error = std::string("malformed rank summary: ") + e.what();
        return false;
    }
}

bool rankCollectivesFromSummary(const json& s, RankCollectives& out, std::string& error) {
    try {
        if (!checkSchema(s, error)) return false;
        auto result = std::make_shared<CollectivesResult>();
        out.name = rankName(s, out.rank);
        result->rank = out.rank;
        if (s.at("world_size").is_number_integer()) result->worldSize = s.at("world_size").get<int64_t>();
        const json& c = s.at("collectives");
        for (const json& j : c.at("calls")) {
            CollectiveCall call;
            call.kind = j.at("kind").get<std::string>();
            call.startNs = j.at("ts").get<int64_t>();
            call.durationNs = j.at("dur").get<int64_t>();
            call.hostStartNs = j.at("host_ts").get<int64_t>();
            const std::string source = j.at("time_source").get<std::string>();
            call.timeSource = source == "kernel"        ? CollectiveTimeSource::Kernel
                              : source == "gloo worker" ? CollectiveTimeSource::Worker
                                                        : CollectiveTimeSource::Host;
            call.group = j.value("group", std::string());
            call.groupSize = j.value("group_size", int64_t(0));
            if (j.contains("seq")) call.seq = j.at("seq").get<int64_t>();
            call.sizeBytes = j.value("size_bytes", int64_t(-1));
            call.algbwBytesPerS = j.value("algbw_bytes_per_s", -1.0);
            call.busbwBytesPerS = j.value("busbw_bytes_per_s", -1.0);
            if (j.contains("bus_factor")) {
                call.busFactor = j.at("bus_factor").get<double>();
                call.busFactorKnown = true;
            }
            result->calls.push_back(std::move(call));
        }
        result->summary = summarizeCollectiveCalls(result->calls);
        if (c.contains("notes") && c.at("notes").is_array())
            for (const json& n : c.at("notes"))
                if (n.is_string()) result->notes.push_back(n.get<std::string>());
        // The overlap per step, as the Pod page reads it (steps as they were summarised).
        for (const json& j : s.at("steps").at("steps")) {
            StepOverlap so;
            so.step = j.at("number").get<int64_t>();
            so.startNs = j.at("ts").get<int64_t>();
            so.durationNs = j.at("dur").get<int64_t>();
            const json& o = j.at("overlap");
            so.overlap.communicationNs = o.at("communication_ns").get<int64_t>();
            so.overlap.computeNs = o.at("compute_ns").get<int64_t>();
            so.overlap.overlappedNs = o.at("overlapped_ns").get<int64_t>();
            so.overlap.exposedNs = o.at("exposed_communication_ns").get<int64_t>();
            result->steps.push_back(so);
        }
        result->overlap.communicationNs = c.at("comm_ns").get<int64_t>();
        result->overlap.overlappedNs = c.at("overlapped_ns").get<int64_t>();
        result->overlap.exposedNs = result->overlap.communicationNs - result->overlap.overlappedNs;
        out.result = std::move(result);
        return true;
    } catch (const nlohmann::json::exception& e) {
        error = std::string("malformed rank summary: ") + e.what();
        return false;
    }
}

}  // namespace tracescope
