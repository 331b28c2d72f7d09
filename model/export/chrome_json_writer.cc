#include "model/export/chrome_json_writer.h"

#include "model/export/json_text.h"
#include "model/export/output_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

namespace tracescope {

namespace {

using jsontext::appendDouble;
using jsontext::appendInt;
using jsontext::appendMicros;
using jsontext::appendString;
using jsontext::appendUInt;

// Top-level keys with a meaning in the format; trace metadata never overrides them.
const std::set<std::string_view> kReservedKeys = {
    "traceEvents", "displayTimeUnit", "baseTimeNanoseconds", "systemTraceEvents", "stackFrames",
    "samples",     "traceAnnotations", "powerTraceAsString", "controllerTraceDataKey"};

// Chrome readers coerce ids outside [0, 2^31) (Perfetto: to 0), so such ids are replaced.
constexpr int64_t kMaxId = (int64_t(1) << 31) - 1;

bool isJsonContainer(std::string_view text) {
    if (text.empty() || (text.front() != '{' && text.front() != '[')) return false;
    return nlohmann::json::accept(text);
}

// Gives each item its own id, keeping the original where it is usable and unique.
std::vector<int64_t> uniqueIds(const std::vector<int64_t>& wanted) {
    std::map<int64_t, int> uses;
    for (int64_t id : wanted) ++uses[id];
    int64_t next = 0;
    for (int64_t id : wanted)
        if (id >= 0 && id <= kMaxId) next = std::max(next, id + 1);
    std::vector<int64_t> out(wanted.size());
    std::set<int64_t> taken;
    for (size_t i = 0; i < wanted.size(); ++i) {
        const int64_t id = wanted[i];
        if (id >= 0 && id <= kMaxId && uses[id] == 1) {
            out[i] = id;
            taken.insert(id);
        }
    }
    for (size_t i = 0; i < wanted.size(); ++i) {
        const int64_t id = wanted[i];
        if (id >= 0 && id <= kMaxId && uses[id] == 1) continue;
        while (taken.count(next)) ++next;
        out[i] = next;
        taken.insert(next++);
    }
    return out;
}

class Emitter {
public:
    using Sink = std::function<bool(std::string_view)>;

    Emitter(const Trace& trace, Sink sink, const ChromeJsonWriteOptions& options, ChromeJsonWriteResult& result)
        : t_(trace), sink_(std::move(sink)), options_(options), result_(result) {}

    bool run() {
        assignIds();
        total_ = countEvents();
        buf_.reserve(kFlushBytes + 64 * 1024);
        writeHeader();
        writeMetadataEvents();
        for (const Process& p : t_.processes)
            for (TrackIndex ti : p.tracks)
                if (!writeTrack(ti)) return false;
        if (!writeFlows()) return false;
        if (options_.overlay && !writeOverlayFlows(*options_.overlay)) return false;
        buf_.append("\n]}\n");
        if (!flush()) return false;
        report();
        return true;
    }

private:
    static constexpr size_t kFlushBytes = 1 << 20;

    const Trace& t_;
    Sink sink_;
    const ChromeJsonWriteOptions& options_;
    ChromeJsonWriteResult& result_;
    std::string buf_;
    uint64_t total_ = 0;
    bool first_ = true;
    bool failed_ = false;
    std::vector<int64_t> pid_;  // per process
    std::vector<int64_t> tid_;  // per track (overflow lanes: their track's tid)
    uint64_t nextAsyncId_ = 1;

    void assignIds() {
        std::vector<int64_t> pids;
        for (const Process& p : t_.processes) pids.push_back(p.pid);
        pid_ = uniqueIds(pids);
        tid_.assign(t_.tracks.size(), 0);
        for (const Process& p : t_.processes) {
            std::vector<TrackIndex> threads;
            std::vector<int64_t> wanted;
            for (TrackIndex ti : p.tracks) {
                const Track& tr = t_.tracks[ti];
                if (tr.kind == TrackKind::Thread && tr.overflowOf == kNoIndex) {
                    threads.push_back(ti);
                    wanted.push_back(tr.tid);
                }
            }
            const std::vector<int64_t> tids = uniqueIds(wanted);
            for (size_t k = 0; k < threads.size(); ++k) tid_[threads[k]] = tids[k];
        }
        for (TrackIndex ti = 0; ti < t_.tracks.size(); ++ti)
            if (t_.tracks[ti].overflowOf != kNoIndex) tid_[ti] = tid_[t_.tracks[ti].overflowOf];
    }

    uint64_t countEvents() const {
        uint64_t n = t_.flows.size() * 2;
        for (const Track& tr : t_.tracks)
            n += tr.slices.size() * (tr.kind == TrackKind::Async ? 2 : 1) + tr.instants.size() + tr.counter.size();
        return n;
    }

    uint64_t eventsNoMeta_ = 0;  // metadata events, written before the counted ones
    void report() {
        if (options_.progress) options_.progress(result_.events - eventsNoMeta_, total_);
    }

    bool flush() {
        if (failed_) return false;
        if (!sink_(buf_)) {
            failed_ = true;
            return false;
        }
        buf_.clear();
        return true;
    }

    // Called between events: flushes a full buffer, checks for cancel, reports progress.
    bool checkpoint() {
        if (buf_.size() < kFlushBytes) return !failed_;
        if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
            result_.cancelled = true;
            return false;
        }
        report();
        return flush();
    }

    void beginEvent(char phase) {
        buf_.append(first_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
        first_ = false;
        buf_.push_back(phase);
        buf_.push_back('"');
        ++result_.events;
    }
    void pidTid(int64_t pid, const int64_t* tid) {
        buf_.append(",\"pid\":");
        appendInt(buf_, pid);
        if (tid) {
            buf_.append(",\"tid\":");
            appendInt(buf_, *tid);
        }
    }
    void field(const char* key, std::string_view value) {
        buf_.append(",\"");
        buf_.append(key);
        buf_.append("\":");
        appendString(buf_, value);
    }
    void time(const char* key, TimeNs ns) {
        buf_.append(",\"");
        buf_.append(key);
        buf_.append("\":");
        appendMicros(buf_, ns);
    }
    void nameAndCategory(StringId name, StringId category) {
        field("name", t_.str(name));
        if (category != kEmptyString) field("cat", t_.str(category));
    }

    void writeHeader() {
        buf_.append("{\"displayTimeUnit\":\"ns\"");
        if (t_.originUnixNs) {
            buf_.append(",\"baseTimeNanoseconds\":");
            appendInt(buf_, *t_.originUnixNs);
        }
        for (const auto& [key, value] : t_.metadata) {
            if (kReservedKeys.count(key)) continue;
            buf_.push_back(',');
            appendString(buf_, key);
            buf_.push_back(':');
            if (isJsonContainer(value)) buf_.append(value);
            else appendString(buf_, value);
        }
        buf_.append(",\"traceEvents\":[");
    }

    void metadataEvent(const char* name, int64_t pid, const int64_t* tid, const char* argKey,
                       std::string_view text, const int64_t* number) {
        beginEvent('M');
        pidTid(pid, tid);
        field("name", name);
        buf_.append(",\"args\":{\"");
        buf_.append(argKey);
        buf_.append("\":");
        if (number) appendInt(buf_, *number);
        else appendString(buf_, text);
        buf_.append("}}");
    }

    void writeMetadataEvents() {
        for (size_t pi = 0; pi < t_.processes.size(); ++pi) {
            const Process& p = t_.processes[pi];
            const int64_t pid = pid_[pi];
            const auto order = int64_t(pi);
            if (!p.name.empty()) metadataEvent("process_name", pid, nullptr, "name", p.name, nullptr);
            if (!p.labels.empty()) metadataEvent("process_labels", pid, nullptr, "labels", p.labels, nullptr);
            metadataEvent("process_sort_index", pid, nullptr, "sort_index", {}, &order);
            int64_t position = 0;
            for (TrackIndex ti : p.tracks) {
                const Track& tr = t_.tracks[ti];
                if (tr.kind != TrackKind::Thread || tr.overflowOf != kNoIndex) continue;
                const int64_t tid = tid_[ti];
                if (!tr.name.empty()) metadataEvent("thread_name", pid, &tid, "name", tr.name, nullptr);
                metadataEvent("thread_sort_index", pid, &tid, "sort_index", {}, &position);
                ++position;
            }
        }
        eventsNoMeta_ = result_.events;
    }

    void writeArgs(const Track& tr, ArgsOffset offset, SliceRef slice = {}) {
        const std::string extra =
            options_.overlay && options_.overlay->sliceArgs && slice.valid() ? options_.overlay->sliceArgs(slice) : std::string();
        bool first = true;
        if (offset != kNoArgs) {
            ArgsReader reader(tr.argsView(), offset);
            Arg a;
            while (reader.next(a)) {
                buf_.append(first ? ",\"args\":{" : ",");
                first = false;
                appendString(buf_, t_.str(a.key));
                buf_.push_back(':');
                writeValue(a.value);
            }
        }
        if (!extra.empty()) {
            buf_.append(first ? ",\"args\":{" : ",");
            first = false;
            buf_.append(extra);
        }
        if (!first) buf_.push_back('}');
    }

    // The overlay's flows, bound at a time inside their slices (an end 1 ns before it, as HTA
    // steps back from a device event's end).
    bool writeOverlayFlows(const ChromeJsonOverlay& overlay) {
        uint64_t id = 1ull << 40;  // apart from the trace's own flow ids
        for (const ChromeJsonOverlay::Flow& f : overlay.flows) {
            if (!f.from.valid() || !f.to.valid() || f.from.track >= t_.tracks.size() || f.to.track >= t_.tracks.size())
                continue;
            const uint64_t flowId = id++;
            for (int end = 0; end < 2; ++end) {
                const SliceRef ref = end ? f.to : f.from;
                const Track& tr = t_.tracks[ref.track];
                if (tr.kind != TrackKind::Thread || ref.index >= tr.slices.size()) break;
                const bool atEnd = end ? f.toEnd : f.fromEnd;
                const TimeNs dur = tr.slices.duration[ref.index];
                const TimeNs at = atEnd ? tr.slices.start[ref.index] + dur - std::min<TimeNs>(1, dur) : tr.slices.start[ref.index];
                beginEvent(end ? 'f' : 's');
                pidTid(pid_[tr.process], &tid_[ref.track]);
                time("ts", at);
                buf_.append(",\"id\":");
                appendUInt(buf_, flowId);
                buf_.append(",\"name\":");
                appendString(buf_, f.name);
                buf_.append(",\"cat\":");
                appendString(buf_, f.category);
                if (!f.args.empty()) {
                    buf_.append(",\"args\":");
                    buf_.append(f.args);
                }
                if (end) buf_.append(",\"bp\":\"e\"");
                buf_.push_back('}');
            }
            if (!checkpoint()) return false;
        }
        return true;
    }

    void writeValue(const ArgValue& v) {
        switch (v.type) {
        case ArgValue::Type::Null: buf_.append("null"); return;
        case ArgValue::Type::False: buf_.append("false"); return;
        case ArgValue::Type::True: buf_.append("true"); return;
        case ArgValue::Type::Int: appendInt(buf_, v.i); return;
        case ArgValue::Type::UInt: appendUInt(buf_, v.u); return;
        case ArgValue::Type::Double:
            if (!appendDouble(buf_, v.d)) appendString(buf_, std::isnan(v.d) ? "NaN" : v.d > 0 ? "Infinity" : "-Infinity");
            return;
        case ArgValue::Type::String: appendString(buf_, t_.str(v.s)); return;
        case ArgValue::Type::Json: {
            const std::string_view text = t_.str(v.s);
            if (isJsonContainer(text)) buf_.append(text);
            else appendString(buf_, text);
            return;
        }
        }
        buf_.append("null");
    }

    bool writeTrack(TrackIndex ti) {
        const Track& tr = t_.tracks[ti];
        const int64_t pid = pid_[tr.process];
        const int64_t tid = tid_[ti];
        const SliceColumns& s = tr.slices;
        switch (tr.kind) {
        case TrackKind::Thread:
            for (size_t i = 0; i < s.size(); ++i) {
                if (s.unfinished(i)) {
                    // A B without E: readers extend it to the end of the trace, as we did.
                    beginEvent('B');
                    pidTid(pid, &tid);
                    time("ts", s.start[i]);
                } else {
                    beginEvent('X');
                    pidTid(pid, &tid);
                    time("ts", s.start[i]);
                    time("dur", s.duration[i]);
                }
                nameAndCategory(s.name[i], s.category[i]);
                writeArgs(tr, s.args[i], SliceRef{ti, uint32_t(i)});
                buf_.push_back('}');
                if (!checkpoint()) return false;
            }
            return writeInstants(tr, pid, &tid, "t");
        case TrackKind::Async:
            for (size_t i = 0; i < s.size(); ++i) {
                const uint64_t id = nextAsyncId_++;
                for (int end = 0; end < 2; ++end) {
                    beginEvent(end ? 'e' : 'b');
                    pidTid(pid, nullptr);
                    time("ts", end ? s.end(i) : s.start[i]);
                    buf_.append(",\"id\":");
                    appendUInt(buf_, id);
                    nameAndCategory(s.name[i], s.category[i]);
                    if (!end) writeArgs(tr, s.args[i]);
                    buf_.push_back('}');
                }
                if (!checkpoint()) return false;
            }
            return writeInstants(tr, pid, nullptr, "p");
        case TrackKind::Counter: {
            size_t skipped = 0;
            for (size_t i = 0; i < tr.counter.size(); ++i) {
                std::string value;
                if (!appendDouble(value, tr.counter.value[i])) {
                    ++skipped;
                    continue;
                }
                beginEvent('C');
                pidTid(pid, nullptr);
                time("ts", tr.counter.time[i]);
                field("name", counterName(ti));
                buf_.append(",\"args\":{\"value\":");
                buf_.append(value);
                buf_.append("}}");
                if (!checkpoint()) return false;
            }
            result_.droppedCounterSamples += skipped;
            if (skipped)
                result_.warnings.push_back(std::to_string(skipped) + " NaN/infinite sample(s) of counter \"" +
                                           tr.name + "\" left out");
            return writeInstants(tr, pid, nullptr, "p");
        }
        case TrackKind::Markers:
            result_.droppedSlices += s.size();
            if (!s.empty())
                result_.warnings.push_back(std::to_string(s.size()) + " slice(s) on marker track \"" + tr.name +
                                           "\" left out");
            return writeInstants(tr, pid, nullptr, "p");
        }
        return true;
    }

    bool writeInstants(const Track& tr, int64_t pid, const int64_t* tid, const char* scope) {
        const InstantColumns& in = tr.instants;
        for (size_t i = 0; i < in.size(); ++i) {
            beginEvent('i');
            pidTid(pid, tid);
            time("ts", in.time[i]);
            field("s", scope);
            nameAndCategory(in.name[i], in.category[i]);
            writeArgs(tr, in.args[i]);
            buf_.push_back('}');
            if (!checkpoint()) return false;
        }
        return true;
    }

    // Counter names must be unique within a process, or readers merge the series.
    std::map<TrackIndex, std::string> counterNames_;
    const std::string& counterName(TrackIndex ti) {
        auto it = counterNames_.find(ti);
        if (it != counterNames_.end()) return it->second;
        const Track& tr = t_.tracks[ti];
        int same = 0;
        for (TrackIndex other : t_.processes[tr.process].tracks) {
            if (other == ti) break;
            if (t_.tracks[other].kind == TrackKind::Counter && t_.tracks[other].name == tr.name) ++same;
        }
        return counterNames_[ti] = same ? tr.name + " (" + std::to_string(same + 1) + ")" : tr.name;
    }

    // The earliest time at or after `notBefore` inside slice k where k is the
    // deepest slice, so that a flow event bound to "the enclosing slice" at that
    // time lands on k itself; -1 when there is none. Ends are inclusive, as
    // readers bind them, so a child is stepped past by 1 ns.
    TimeNs bindTime(const Track& tr, uint32_t k, TimeNs notBefore) const {
        const SliceColumns& s = tr.slices;
        const uint16_t depth = s.depth(k);
        const TimeNs end = s.end(k);
        TimeNs at = std::max(s.start[k], notBefore);
        size_t scanned = 0;
        for (size_t j = size_t(k) + 1; j < s.size() && s.start[j] <= end && scanned < 100000; ++j, ++scanned) {
            if (s.depth(j) <= depth) break;
            if (s.depth(j) != depth + 1 || s.end(j) < at) continue;
            if (s.start[j] > at) break;  // a gap before this child
            at = plusSat(s.end(j), 1);
        }
        return at <= end ? at : -1;
    }

    bool writeFlows() {
        size_t skipped = 0, backwards = 0;
        uint64_t id = 1;
        for (const Flow& f : t_.flows) {
            if (!f.from.valid() || !f.to.valid() || t_.tracks[f.from.track].kind != TrackKind::Thread ||
                t_.tracks[f.to.track].kind != TrackKind::Thread) {
                ++skipped;
                continue;
            }
            // Readers follow s then f in time order: the f must not come before the s.
            const Track& from = t_.tracks[f.from.track];
            const TimeNs fromStart = from.slices.start[f.from.index];
            TimeNs times[2] = {bindTime(from, f.from.index, fromStart), -1};
            if (times[0] < 0) times[0] = fromStart;  // fully covered by children: bind at its start
            times[1] = bindTime(t_.tracks[f.to.track], f.to.index, times[0]);
            if (times[1] < 0) {
                ++backwards;
                continue;
            }
            const uint64_t flowId = id++;
            for (int end = 0; end < 2; ++end) {
                const SliceRef ref = end ? f.to : f.from;
                const Track& tr = t_.tracks[ref.track];
                beginEvent(end ? 'f' : 's');
                pidTid(pid_[tr.process], &tid_[ref.track]);
                time("ts", times[end]);
                buf_.append(",\"id\":");
                appendUInt(buf_, flowId);
                nameAndCategory(t_.flowName(f), t_.flowCategory(f));
                if (end) buf_.append(",\"bp\":\"e\"");
                buf_.push_back('}');
            }
            if (!checkpoint()) return false;
        }
        result_.droppedFlows += skipped + backwards;
        if (skipped)
            result_.warnings.push_back(std::to_string(skipped) +
                                       " flow(s) not between thread slices left out (Chrome JSON cannot bind them)");
        if (backwards)
            result_.warnings.push_back(std::to_string(backwards) +
                                       " flow(s) whose target ends before its source starts left out");
        return true;
    }
};

}  // namespace

ChromeJsonWriteResult writeChromeJson(const Trace& trace, const std::string& path,
                                      const ChromeJsonWriteOptions& options) {
    ChromeJsonWriteResult result;
    const bool gzip = options.gzip == ChromeJsonWriteOptions::Gzip::Yes ||
                      (options.gzip == ChromeJsonWriteOptions::Gzip::ByName && isGzipPath(path));
    OutputFile out;
    if (!out.open(path, gzip)) {
        result.error = out.error();
        return result;
    }
    Emitter emitter(trace, [&](std::string_view bytes) { return out.write(bytes); }, options, result);
    if (!emitter.run()) {
        if (result.cancelled) result.error = "cancelled";
        else result.error = out.error().empty() ? "export failed" : out.error();
        return result;
    }
    if (!out.commit()) {
        result.error = out.error();
        return result;
    }
    result.ok = true;
    return result;
}

std::string chromeJsonString(const Trace& trace, ChromeJsonWriteResult* result) {
    ChromeJsonWriteResult local;
    ChromeJsonWriteResult& r = result ? *result : local;
    std::string out;
    ChromeJsonWriteOptions options;
    Emitter emitter(trace, [&](std::string_view bytes) { out.append(bytes); return true; }, options, r);
    r.ok = emitter.run();
    return out;
}

}  // namespace tracescope
