#include "model/trace/job_identity.h"

#include "model/trace/producer.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

namespace tracescope {

namespace {

constexpr TimeNs kMaxClockSkewNs = 1'000'000'000;  // hosts' wall clocks may disagree by this much

std::optional<int64_t> intField(simdjson::dom::object o, std::string_view key) {
    int64_t v = 0;
    if (o[key].get_int64().get(v) != simdjson::SUCCESS) return std::nullopt;
    return v;
}

std::string stringField(simdjson::dom::object o, std::string_view key) {
    std::string_view v;
    if (o[key].get_string().get(v) != simdjson::SUCCESS) return {};
    return std::string(v);
}

// What one loaded file says about its job.
struct Facts {
    std::string file;  // the file's name, for the reasons
    std::string producer;
    DistributedInfo dist;
    std::optional<__int128> start, end;  // wall-clock window (Unix ns), when the file has a wall clock
    TimeNs span = 0;
};

Facts factsOf(const WorkerTrace& w) {
    const Trace& t = *w.trace;
    Facts f;
    f.file = std::filesystem::path(w.path).filename().string();
    f.producer = std::string(producerName(detectProducer(t), t.format));
    f.dist = distributedInfo(t);
    f.span = t.spanNs();
    if (t.originUnixNs) {
        f.start = __int128(*t.originUnixNs) + t.startNs;
        f.end = *f.start + f.span;
    }
    return f;
}

TimeNs clampNs(__int128 v) {
    constexpr __int128 lo = std::numeric_limits<TimeNs>::min(), hi = std::numeric_limits<TimeNs>::max();
    return TimeNs(std::clamp(v, lo, hi));
}

std::string bothFiles(const Facts& a, const Facts& b) { return " (" + a.file + ", " + b.file + ")"; }

// The first field two files disagree on, as "<what> X (a) vs Y (b)", or "".
std::string firstDifference(const std::vector<Facts>& facts) {
    for (const Facts& f : facts)
        if (f.producer != facts.front().producer)
            return "different producers: " + facts.front().producer + " (" + facts.front().file + ") vs " + f.producer +
                   " (" + f.file + ")";
    const Facts* sized = nullptr;
    const Facts* withBackend = nullptr;
    std::map<std::string, const Facts*> groupFrom;  // pg_name -> the first file that has it
    std::map<int64_t, const Facts*> rankFrom;
    for (const Facts& f : facts) {
        if (f.dist.worldSize) {
            if (sized && *sized->dist.worldSize != *f.dist.worldSize)
                return "different jobs: world size " + std::to_string(*sized->dist.worldSize) + " (" + sized->file +
                       ") vs " + std::to_string(*f.dist.worldSize) + " (" + f.file + ")";
            if (!sized) sized = &f;
        }
        if (!f.dist.backend.empty()) {
            if (withBackend && withBackend->dist.backend != f.dist.backend)
                return "different jobs: backend " + withBackend->dist.backend + " (" + withBackend->file + ") vs " +
                       f.dist.backend + " (" + f.file + ")";
            if (!withBackend) withBackend = &f;
        }
        // torch.distributed.new_group is entered by every process of the job, in the same order
        // (PyTorch's documentation), so one group name is one group on every rank that lists it;
        // ranks outside a subgroup may not list it at all, which is no difference.
        for (const auto& [name, pg] : f.dist.groups) {
            auto [it, added] = groupFrom.emplace(name, &f);
            if (added) continue;
            const ProcessGroup& first = it->second->dist.groups.at(name);
            if (first.size && pg.size && *first.size != *pg.size)
                return "different jobs: process group " + name + " of " + std::to_string(*first.size) + " ranks (" +
                       it->second->file + ") vs " + std::to_string(*pg.size) + " (" + f.file + ")";
            if (!first.ranks.empty() && !pg.ranks.empty() && first.ranks != pg.ranks)
                return "different jobs: process group " + name + " holds other ranks" + bothFiles(*it->second, f);
        }
        if (f.dist.rank) {
            auto [it, added] = rankFrom.emplace(*f.dist.rank, &f);
            if (!added)
                return "different jobs: rank " + std::to_string(*f.dist.rank) + " appears twice" +
                       bothFiles(*it->second, f);
        }
    }
    // Windows: the pair furthest apart beyond what clock skew explains.
    const Facts *early = nullptr, *late = nullptr;
    TimeNs worst = 0;
    for (const Facts& a : facts)
        for (const Facts& b : facts) {
            if (&a == &b || !a.end || !b.start || *b.start <= *a.end) continue;
            const TimeNs gap = clampNs(*b.start - *a.end);
            const TimeNs allowed = std::min({kMaxClockSkewNs, a.span, b.span});
            if (gap > allowed && gap > worst) worst = gap, early = &a, late = &b;
        }
    if (early)
        return "different jobs: their wall-clock windows are " + jobGapText(worst) + " apart" +
               bothFiles(*early, *late);
    return {};
}

}  // namespace

DistributedInfo distributedInfo(const Trace& t) {
    DistributedInfo out;
    const std::string* text = t.metadataValue("distributedInfo");
    if (!text) return out;
    simdjson::dom::parser parser;
    simdjson::dom::object root;
    if (parser.parse(*text).get_object().get(root) != simdjson::SUCCESS) return out;
    out.rank = intField(root, "rank");
    out.worldSize = intField(root, "world_size");
    out.backend = stringField(root, "backend");
    simdjson::dom::array groups;
    if (root["pg_config"].get_array().get(groups) != simdjson::SUCCESS) return out;
    for (simdjson::dom::element g : groups) {
        simdjson::dom::object o;
        if (g.get_object().get(o) != simdjson::SUCCESS) continue;
        std::string name = stringField(o, "pg_name");
        if (name.empty()) continue;
        ProcessGroup pg;
        pg.size = intField(o, "pg_size");
        simdjson::dom::array ranks;
        if (o["ranks"].get_array().get(ranks) == simdjson::SUCCESS)
            for (simdjson::dom::element r : ranks) {
                int64_t v = 0;
                if (r.get_int64().get(v) != simdjson::SUCCESS) continue;
                pg.ranks += (pg.ranks.empty() ? "" : ",") + std::to_string(v);
            }
        out.groups.emplace(std::move(name), std::move(pg));
    }
    return out;
}

std::string jobGapText(TimeNs ns) {
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (a < 100'000'000'000ull) return formatWarningDuration(ns);
    return (negative ? "-" : "") + formatWarningCount((a + 500'000'000) / 1'000'000'000) + " s";
}

JobCheck checkOneJob(const std::vector<WorkerTrace>& workers) {
    std::vector<Facts> facts;
    for (const WorkerTrace& w : workers)
        if (w.trace) facts.push_back(factsOf(w));
    JobCheck out;
    if (facts.size() > 1) out.reason = firstDifference(facts);
    return out;
}

std::vector<ImportWarning> farOffsetWarnings(const MultiWorkerRun& run) {
    std::optional<__int128> earliest;
    TimeNs longest = 0;
    for (const WorkerTrace& w : run.workers) {
        if (!w.trace) continue;
        longest = std::max(longest, w.trace->spanNs());
        if (w.clock != WorkerClock::WallClock) continue;
        const __int128 start = __int128(w.offsetNs) + w.trace->startNs;
        earliest = earliest ? std::min(*earliest, start) : start;
    }
    std::vector<ImportWarning> out;
    for (const WorkerTrace& w : run.workers) {
        if (!w.trace || w.clock != WorkerClock::WallClock) continue;
        const TimeNs after = clampNs(__int128(w.offsetNs) + w.trace->startNs - *earliest);
        if (after <= longest) continue;
        ImportWarning x;
        x.kind = WarningKind::AdjustedEvents;
        x.detail = "clock offset of " + w.name + " is " + jobGapText(w.offsetNs) +
                   " (from the files' wall clocks): it starts " + jobGapText(after) +
                   " after the earliest worker, longer than any of the traces lasts (" +
                   formatWarningDuration(longest) + ")";
        out.push_back(std::move(x));
    }
    return out;
}

}  // namespace tracescope
