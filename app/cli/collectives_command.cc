// tracescope-cli collectives TRACE|DIR... [--json|--csv] [--force-merge]
// Per rank: each collective call with its size and nccl-tests bandwidths, a summary per (kind,
// size, group), the communication/compute overlap (HTA's get_comm_comp_overlap) over the trace
// and per step; across ranks: calls matched by (group, Seq) or order, with skew, late rank and
// induced wait (model/analysis/collectives.h, collective_stragglers.h).
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/collective_stragglers.h"
#include "model/results/collectives_results.h"
#include "model/results/rank_summary.h"
#include "model/results/summary_run.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli collectives TRACE|DIR|SUMMARY... [--json|--csv] [--force-merge]\n"
    "  Collective communication per rank file (a folder: its rank files), or per rank summary\n"
    "  (*.summary.json written by summarize or tracescope-pod; a folder of them: its summaries):\n"
    "  calls      each call: kind (Kineto's Collective name, else the c10d op's or the kernel's),\n"
    "             process group, group size n, dtype, In/Out msg nelems, Seq, size S in bytes, time t\n"
    "             (its NCCL kernels' time, else gloo's worker run of it, else its host op's: time_source),\n"
    "             algbw_bytes_per_s = S / t and busbw_bytes_per_s = algbw x the nccl-tests factor:\n"
    "             all-reduce S = In x sizeof, 2(n-1)/n; all-gather S = Out x sizeof, (n-1)/n;\n"
    "             reduce-scatter and all-to-all S = In x sizeof, (n-1)/n; broadcast, reduce, send,\n"
    "             recv S = In x sizeof, 1; other kinds, traces without the metadata, and calls timed by\n"
    "             their host op (the time to issue them): time only (null)\n"
    "  summary    per (kind, size, group): count, total, median and p90 time (numpy's linear\n"
    "             percentile, rounded), bandwidths at the median time\n"
    "  overlap    comm_comp_overlap_percent: the share of communication-kernel time (their union)\n"
    "             during which compute kernels run (HTA's get_comm_comp_overlap); per step too;\n"
    "             null without communication kernels\n"
    "  stragglers with two or more ranks: calls matched by (process group, Seq), else the n-th call\n"
    "             of a kind in a group; per collective the arrival skew (latest - earliest start on\n"
    "             the run's clock), late_rank and induced_wait_ns (the others' wait for it); ranks by\n"
    "             the wait they induced\n"
    "  Times in integer ns. Files that are not one job are refused (status 2) unless --force-merge.\n"
    "  --json   {\"ranks\": [...], \"stragglers\": {...}}\n"
    "  --csv    the calls of every rank, a row each, the rank in the first column\n";

nlohmann::json orNull(double v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json orNull(int64_t v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json textOrNull(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }
nlohmann::json rankJson(const std::optional<int64_t>& r) { return r ? nlohmann::json(*r) : nlohmann::json(nullptr); }

// `t`: the rank's trace (null when read from a summary: the host op's name is not kept there).
nlohmann::json callJson(const Trace* t, const CollectiveCall& c) {
    nlohmann::json j = {{"kind", c.kind},
                        {"kind_source", c.kindSource},
                        {"group", textOrNull(c.group)},
                        {"group_ranks", textOrNull(c.groupRanks)},
                        {"group_size", c.groupSize > 0 ? nlohmann::json(c.groupSize) : nlohmann::json(nullptr)},
                        {"dtype", textOrNull(c.dtype)},
                        {"in_msg_nelems", orNull(c.inNelems)},
                        {"out_msg_nelems", orNull(c.outNelems)},
                        {"seq", c.seq ? nlohmann::json(*c.seq) : nlohmann::json(nullptr)},
                        {"size_bytes", orNull(c.sizeBytes)},
                        {"bus_factor", c.busFactorKnown ? nlohmann::json(c.busFactor) : nlohmann::json(nullptr)},
                        {"time_source", collectiveTimeSourceName(c.timeSource)},
                        {"ts", c.startNs},
                        {"dur", c.durationNs},
                        {"host_ts", c.hostStartNs},
                        {"kernels", c.kernels.size()},
                        {"algbw_bytes_per_s", orNull(c.algbwBytesPerS)},
                        {"busbw_bytes_per_s", orNull(c.busbwBytesPerS)}};
    j["host_op"] = t && c.hostOp.valid()
                       ? nlohmann::json(std::string(t->str(t->tracks[c.hostOp.track].slices.name[c.hostOp.index])))
                       : nlohmann::json(nullptr);
    return j;
}

nlohmann::json summaryJson(const CollectiveSummaryRow& r) {
    return {{"kind", r.kind},
            {"size_bytes", orNull(r.sizeBytes)},
            {"group", textOrNull(r.group)},
            {"group_size", r.groupSize > 0 ? nlohmann::json(r.groupSize) : nlohmann::json(nullptr)},
            {"time_source", collectiveTimeSourceName(r.timeSource)},
            {"count", r.count},
            {"total_ns", r.totalNs},
            {"median_ns", r.medianNs},
            {"p90_ns", r.p90Ns},
            {"algbw_bytes_per_s", orNull(r.algbwBytesPerS)},
            {"busbw_bytes_per_s", orNull(r.busbwBytesPerS)}};
}

nlohmann::json overlapJson(const CommOverlap& o) {
    // No communication: no share (HTA's is NaN).
    const nlohmann::json percent = o.communicationNs > 0 ? nlohmann::json(o.percent()) : nlohmann::json(nullptr);
    return {{"comm_ns", o.communicationNs}, {"overlapped_ns", o.overlappedNs}, {"comm_comp_overlap_percent", percent}};
}

std::string bandwidthText(double bytesPerS) {
    if (bytesPerS < 0) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", bytesPerS / 1e9);
    return b;
}

void printText(const std::vector<WorkerTrace>& workers, const std::vector<RankCollectives>& ranks,
               const StragglerResult& stragglers) {
    for (size_t i = 0; i < ranks.size(); ++i) {
        const CollectivesResult& r = *ranks[i].result;
        std::printf("%s (%s): %zu collective calls, %llu communication kernels", ranks[i].name.c_str(),
                    workers[i].path.c_str(), r.calls.size(), (unsigned long long)r.commKernels);
        if (r.overlap.communicationNs > 0)
            std::printf("; comm/compute overlap %.2f %% of %lld ns", r.overlap.percent(),
                        (long long)r.overlap.communicationNs);
        std::printf("\n");
        std::printf("%-32s %14s %10s %6s %6s %14s %12s %12s %10s %10s\n", "kind", "size(bytes)", "group", "n",
                    "count", "total(ns)", "median(ns)", "p90(ns)", "algbw GB/s", "busbw GB/s");
        for (const CollectiveSummaryRow& s : r.summary)
            std::printf("%-32s %14s %10s %6lld %6llu %14lld %12lld %12lld %10s %10s%s\n", s.kind.substr(0, 32).c_str(),
                        s.sizeBytes >= 0 ? std::to_string(s.sizeBytes).c_str() : "-",
                        s.group.empty() ? "-" : s.group.substr(0, 10).c_str(), (long long)s.groupSize,
                        (unsigned long long)s.count, (long long)s.totalNs, (long long)s.medianNs, (long long)s.p90Ns,
                        bandwidthText(s.algbwBytesPerS).c_str(), bandwidthText(s.busbwBytesPerS).c_str(),
                        s.timeSource == CollectiveTimeSource::Host ? "  (host time)" : "");
        for (const std::string& n : r.notes) std::printf("Note: %s\n", n.c_str());
        std::printf("\n");
    }
    if (ranks.size() < 2) return;
    std::printf("Stragglers (%zu collectives matched %s)\n%-24s %14s %8s %14s\n", stragglers.collectives.size(),
                stragglers.bySeq ? "by Seq" : "by order", "rank", "induced(ns)", "late", "waited(ns)");
    for (const RankWait& w : stragglers.ranks)
        std::printf("%-24s %14lld %8llu %14lld\n", ranks[w.rank].name.c_str(), (long long)w.inducedWaitNs,
                    (unsigned long long)w.lateCount, (long long)w.waitedNs);
    for (const std::string& n : stragglers.notes) std::printf("Note: %s\n", n.c_str());
}

nlohmann::json stragglersJson(const std::vector<RankCollectives>& ranks, const StragglerResult& s) {
    nlohmann::json collectives = nlohmann::json::array();
    for (const MatchedCollective& m : s.collectives) {
        nlohmann::json arrivals = nlohmann::json::array();
        for (size_t i = 0; i < m.calls.size(); ++i)
            arrivals.push_back(m.calls[i] ? nlohmann::json(m.arrivalNs[i]) : nlohmann::json(nullptr));
        collectives.push_back({{"group", textOrNull(m.group)},
                               {"kind", m.kind},
                               {"seq", m.seq ? nlohmann::json(*m.seq) : nlohmann::json(nullptr)},
                               {"ordinal", m.ordinal},
                               {"ranks_present", m.ranksPresent},
                               {"arrival_ns", arrivals},
                               {"skew_ns", m.skewNs},
                               {"late_rank", rankJson(ranks[m.lateRank].rank)},
                               {"late_worker", ranks[m.lateRank].name},
                               {"induced_wait_ns", m.inducedWaitNs}});
    }
    nlohmann::json byRank = nlohmann::json::array();
    for (const RankWait& w : s.ranks)
        byRank.push_back({{"rank", rankJson(ranks[w.rank].rank)},
                          {"worker", ranks[w.rank].name},
                          {"induced_wait_ns", w.inducedWaitNs},
                          {"late_count", w.lateCount},
                          {"waited_ns", w.waitedNs}});
    return {{"matched_by", s.bySeq ? "seq" : "order"},
            {"workers", [&] {
                 nlohmann::json a = nlohmann::json::array();
                 for (const RankCollectives& r : ranks) a.push_back(r.name);
                 return a;
             }()},
            {"collectives", collectives},
            {"ranks", byRank},
            {"unmatched_calls", s.unmatchedCalls},
            {"notes", s.notes}};
}

}  // namespace

int runCollectives(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args);
    if (files.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    MultiWorkerRun run;
    std::vector<WorkerTrace> workers;
    std::vector<RankCollectives> ranks;
    std::vector<std::string> runNotes;
    const std::vector<std::string> summaries = summaryPaths(files);
    for (const std::string& f : files)
        if (!summaries.empty() && summaryPaths({f}).empty()) {
            std::fprintf(stderr, "tracescope-cli: %s is not a rank summary: give summaries or traces, not both\n",
                         f.c_str());
            return 2;
        }
    if (!summaries.empty()) {
        const SummaryRun sr = loadSummaryRun(summaries);
        for (const std::string& w : sr.warnings) std::fprintf(stderr, "tracescope-cli: warning: %s\n", w.c_str());
        if (sr.ranks.empty()) {
            std::fprintf(stderr, "tracescope-cli: no rank summary could be read\n");
            return 1;
        }
        for (const SummaryRank& r : sr.ranks) {
            WorkerTrace w;
            w.name = r.collectives.name;
            w.path = r.summaryPath;
            w.rank = r.collectives.rank;
            workers.push_back(std::move(w));
            ranks.push_back(r.collectives);
        }
        runNotes = sr.warnings;
        runNotes.insert(runNotes.end(), sr.notes.begin(), sr.notes.end());
    } else if (const int status = loadWorkersOrReport(files, run, hasFlag(args, "--force-merge"))) {
        return status;
    }
    for (WorkerTrace& w : run.workers) {
        if (!w.trace) continue;
        RankCollectives r;
        r.name = w.name;
        r.rank = w.rank;
        r.offsetNs = w.offsetNs;
        r.result = collectivesOf(*ResultStore::of(w.trace));
        ranks.push_back(std::move(r));
        workers.push_back(w);
    }
    StragglerResult stragglers = matchCollectives(ranks);
    stragglers.notes.insert(stragglers.notes.begin(), runNotes.begin(), runNotes.end());
    if (hasFlag(args, "--json")) {
        nlohmann::json out;
        out["ranks"] = nlohmann::json::array();
        for (size_t i = 0; i < ranks.size(); ++i) {
            const CollectivesResult& r = *ranks[i].result;
            const Trace* t = workers[i].trace.get();
            nlohmann::json calls = nlohmann::json::array(), summary = nlohmann::json::array(),
                           steps = nlohmann::json::array();
            for (const CollectiveCall& c : r.calls) calls.push_back(callJson(t, c));
            for (const CollectiveSummaryRow& s : r.summary) summary.push_back(summaryJson(s));
            for (const StepOverlap& s : r.steps) {
                nlohmann::json j = overlapJson(s.overlap);
                j["step"] = s.step;
                j["ts"] = s.startNs;
                j["dur"] = s.durationNs;
                steps.push_back(j);
            }
            nlohmann::json one = {{"worker", ranks[i].name},
                                  {"rank", rankJson(ranks[i].rank)},
                                  {"file", workers[i].path},
                                  {"world_size", rankJson(r.worldSize)},
                                  {"from_summary", t == nullptr},
                                  {"comm_kernels", r.commKernels},
                                  {"kernels_without_call", r.kernelsWithoutCall},
                                  {"calls_with_metadata", r.withMetadata},
                                  {"calls", calls},
                                  {"summary", summary},
                                  {"steps", steps},
                                  {"notes", r.notes}};
            one.update(overlapJson(r.overlap));
            out["ranks"].push_back(one);
        }
        out["stragglers"] = stragglersJson(ranks, stragglers);
        printJson(out);
        return exitStatus(args, 0);
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "worker,rank,kind,kind_source,group,group_size,dtype,in_msg_nelems,out_msg_nelems,seq,size_bytes,"
                     "time_source,ts,dur,algbw_bytes_per_s,busbw_bytes_per_s\n";
        auto num = [](double v) {
            if (v < 0) return std::string();
            char b[40];
            std::snprintf(b, sizeof b, "%.17g", v);
            return std::string(b);
        };
        auto opt = [](int64_t v) { return v >= 0 ? std::to_string(v) : std::string(); };
        for (const RankCollectives& rc : ranks)
            for (const CollectiveCall& c : rc.result->calls)
                std::cout << csvField(rc.name) << ',' << (rc.rank ? std::to_string(*rc.rank) : "") << ','
                          << csvField(c.kind) << ',' << csvField(c.kindSource) << ',' << csvField(c.group) << ','
                          << (c.groupSize > 0 ? std::to_string(c.groupSize) : "") << ',' << csvField(c.dtype) << ','
                          << opt(c.inNelems) << ',' << opt(c.outNelems) << ','
                          << (c.seq ? std::to_string(*c.seq) : "") << ',' << opt(c.sizeBytes) << ','
                          << collectiveTimeSourceName(c.timeSource) << ',' << c.startNs << ',' << c.durationNs << ','
                          << num(c.algbwBytesPerS) << ',' << num(c.busbwBytesPerS) << '\n';
        return exitStatus(args, 0);
    }
    printText(workers, ranks, stragglers);
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
