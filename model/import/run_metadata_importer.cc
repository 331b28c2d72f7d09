#include "model/import/run_metadata_importer.h"

#include "model/proto/protobuf_wire.h"
#include "model/proto/run_metadata.pb.h"
#include "model/trace/trace_builder.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>
#include <vector>

namespace tracescope {

namespace {

using wire::Field;
using wire::OnCut;
using wire::Reader;

// A device name as TensorFlow writes it: "/job:...", "/device:...", "/gpu:0/stream:7".
bool looksLikeDeviceName(const Field& f) {
    if (f.type != wire::LengthDelimited || f.size == 0 || f.data[0] != '/') return false;
    for (size_t i = 0; i < f.size; ++i)
        if (f.data[i] < 0x20 || f.data[i] >= 0x7F) return false;
    return true;
}

// The first field of a message, when it is a length-delimited field 1 (maybe cut by the file's end).
bool firstFieldIsBytes1(const uint8_t* data, size_t size, Field& out) {
    Reader r(data, size, OnCut::Salvage);
    return r.next(out) && out.number == 1 && out.type == wire::LengthDelimited;
}

// DeviceStepStats bytes start with its device name (field 1).
bool isDeviceStepStats(const uint8_t* data, size_t size) {
    Field f;
    return firstFieldIsBytes1(data, size, f) && looksLikeDeviceName(f);
}

// StepStats bytes start with a DeviceStepStats (field 1).
bool isStepStats(const uint8_t* data, size_t size) {
    Field f;
    return firstFieldIsBytes1(data, size, f) && isDeviceStepStats(f.data, f.size);
}

struct LabelParts {
    std::string_view op;
    std::vector<std::string_view> inputs;
    bool matched = false;
};

// TF1's timeline reads labels "name = Op(in0, in1)" with the pattern
// `(.*) = (.*)\((.*)\)`: the last " = " that is followed by "(...)", the op up
// to the last "(" before the last ")", the inputs split on ", ".
LabelParts parseOpLabel(std::string_view label) {
    LabelParts parts;
    size_t searchEnd = label.size();
    while (searchEnd >= 3) {
        const size_t eq = label.rfind(" = ", searchEnd - 3);
        if (eq == std::string_view::npos) break;
        const std::string_view rest = label.substr(eq + 3);
        const size_t close = rest.rfind(')');
        const size_t open = close == std::string_view::npos ? close : rest.rfind('(', close);
        if (open != std::string_view::npos) {
            parts.matched = true;
            parts.op = rest.substr(0, open);
            std::string_view in = rest.substr(open + 1, close - open - 1);
            while (!in.empty()) {
                const size_t comma = in.find(", ");
                parts.inputs.push_back(in.substr(0, comma));
                if (comma == std::string_view::npos) break;
                in.remove_prefix(comma + 2);
            }
            return parts;
        }
        if (eq == 0) break;
        searchEnd = eq + 2;  // look for an earlier " = "
    }
    return parts;
}

// GPU tracer devices ("/stream:N", "/memcpy") carry kernel records whose
// node_name is "name:Op" and whose label may hold "...@@name#...".
bool isGpuTraceDevice(std::string_view device) {
    return device.find("/stream:") != std::string_view::npos || device.find("/memcpy") != std::string_view::npos;
}

ProcessKind deviceKind(std::string_view device) {
    std::string lower(device);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (lower.find("gpu") != std::string::npos || lower.find("tpu") != std::string::npos) return ProcessKind::Device;
    if (isGpuTraceDevice(lower)) return ProcessKind::Device;
    if (lower.find("cpu") != std::string::npos) return ProcessKind::Host;
    return ProcessKind::Other;
}

bool mulOverflows(int64_t a, int64_t b, int64_t& out) { return __builtin_mul_overflow(a, b, &out); }

// One node execution, resolved to ns and placed on a device.
struct NodeRecord {
    const tensorflow::NodeExecStats* stats = nullptr;
    TimeNs start = 0;
    TimeNs duration = 0;
};

struct Device {
    std::string name;
    std::vector<std::unique_ptr<tensorflow::NodeExecStats>> nodes;
    std::map<uint32_t, std::string> threadNames;
};

// Walks the file's wire structure, keeping every complete NodeExecStats.
class Walker {
public:
    Walker(const std::vector<uint8_t>& bytes, const ImportOptions& options) : bytes_(bytes), options_(options) {}

    std::vector<Device> devices;
    std::vector<ImportWarning> warnings;
    std::string error;  // fatal: nothing usable
    size_t cutNodes = 0;
    size_t badNodes = 0;
    size_t firstBadNode = 0;  // byte offset of the first corrupted node record
    bool truncated = false;
    // The end of the last complete node record: a cut file was read up to here.
    size_t completeUpTo = 0;
    bool cancelled = false;

    void walkRunMetadata() {
        Reader r(bytes_.data(), bytes_.size(), OnCut::Salvage);
        Field f;
        while (r.next(f)) {
            if (f.number == 1 && f.type == wire::LengthDelimited) {
                if (f.cut) truncated = true;
                walkStepStats(f.data, f.size, offsetOf(f.data));
                if (stop()) return;
            }
        }
        checkEnd(r, 0, "RunMetadata");
    }

    void walkStepStats(const uint8_t* data, size_t size, size_t base) {
        Reader r(data, size, OnCut::Salvage);
        Field f;
        while (r.next(f)) {
            if (f.number == 1 && f.type == wire::LengthDelimited) {
                if (f.cut) truncated = true;
                walkDevice(f.data, f.size, offsetOf(f.data));
                if (stop()) return;
            }
        }
        checkEnd(r, base, "StepStats");
    }

private:
    const std::vector<uint8_t>& bytes_;
    std::unordered_map<std::string, size_t> deviceIndex_;  // name -> index into devices
    const ImportOptions& options_;
    bool stopped_ = false;

    size_t offsetOf(const uint8_t* p) const { return size_t(p - bytes_.data()); }
    bool stop() {
        if (options_.cancelled()) cancelled = stopped_ = true;
        return stopped_;
    }
    // After a message's last field: reports why the reader stopped early, if it did.
    // `base`: where the walked message starts in the file (field offsets are relative to it).
    void checkEnd(const Reader& r, size_t base, const char* message) {
        if (!r.error()) return;
        if (r.truncated()) {
            truncated = true;
            return;
        }
        const size_t at = base + r.errorOffset();
        if (devices.empty()) {
            error = std::string("corrupted ") + message + ": invalid protobuf field at byte " + std::to_string(at);
        } else {
            warnings.push_back(ImportWarning::corrupted(
                at, std::string("invalid protobuf field in a ") + message + "; the rest of the file was not read"));
        }
        stopped_ = true;
    }

    // By name through an index (a linear search per device made a million devices quadratic).
    Device& deviceNamed(const std::string& name) {
        auto [it, inserted] = deviceIndex_.try_emplace(name, devices.size());
        if (inserted) devices.push_back(Device{name, {}, {}});
        return devices[it->second];
    }

    void walkDevice(const uint8_t* data, size_t size, size_t base) {
        Reader r(data, size, OnCut::Salvage);
        std::string name;
        std::vector<std::unique_ptr<tensorflow::NodeExecStats>> nodes;
        std::map<uint32_t, std::string> threadNames;
        Field f;
        while (r.next(f)) {
            if (f.type != wire::LengthDelimited) continue;
            if (f.number == 1) {
                name.assign(f.text());
            } else if (f.number == 2) {
                if (f.cut) {
                    ++cutNodes;
                    continue;
                }
                auto node = std::make_unique<tensorflow::NodeExecStats>();
                if (!node->ParseFromArray(f.data, int(std::min<size_t>(f.size, INT32_MAX)))) {
                    if (++badNodes == 1) firstBadNode = base + f.offset;
                    continue;
                }
                nodes.push_back(std::move(node));
                completeUpTo = std::max(completeUpTo, offsetOf(f.data) + f.size);
                if (nodes.size() % 4096 == 0) {
                    options_.report(offsetOf(f.data), bytes_.size());
                    if (stop()) return;
                }
            } else if (f.number == 3 && !f.cut) {
                readThreadName(f, threadNames);
            }
        }
        checkEnd(r, base, "DeviceStepStats");  // the records before a bad field still count
        if (name.empty() && nodes.empty()) return;
        Device& d = deviceNamed(name.empty() ? std::string("(unnamed device)") : name);
        for (auto& n : nodes) d.nodes.push_back(std::move(n));
        for (auto& [k, v] : threadNames) d.threadNames[k] = v;
    }

    // A map<uint32, string> entry: key = 1 (varint), value = 2 (string).
    static void readThreadName(const Field& entry, std::map<uint32_t, std::string>& out) {
        Reader r(entry.data, entry.size);
        Field f;
        uint32_t key = 0;
        std::string value;
        while (r.next(f)) {
            if (f.number == 1 && f.type == wire::Varint) key = uint32_t(f.value);
            else if (f.number == 2 && f.type == wire::LengthDelimited) value.assign(f.text());
        }
        out[key] = std::move(value);
    }
};

// The node's start and duration in ns (Unix time); false when out of range.
bool nodeTimes(const tensorflow::NodeExecStats& n, TimeNs& start, TimeNs& duration) {
    if (n.all_start_nanos() != 0) {
        start = n.all_start_nanos();
    } else if (mulOverflows(n.all_start_micros(), 1000, start)) {
        return false;
    }
    if (n.all_end_rel_nanos() != 0 || (n.all_start_nanos() != 0 && n.all_end_rel_micros() == 0)) {
        duration = n.all_end_rel_nanos();
    } else if (mulOverflows(n.all_end_rel_micros(), 1000, duration)) {
        return false;
    }
    TimeNs end;
    return !__builtin_add_overflow(start, std::max<TimeNs>(duration, 0), &end);
}

// More lanes than any real step needs; past it (hostile input), ops share the
// lane that frees first and the trace builder nests or spills them there.
constexpr uint32_t kMaxLanes = 1024;

// Assigns lanes so that ops on one lane never overlap: in start order, each op
// takes the lowest lane whose last op has ended (end <= start).
std::vector<uint32_t> assignLanes(const std::vector<NodeRecord>& nodes, const std::vector<uint32_t>& order,
                                  uint32_t& laneCount, size_t& crowded) {
    std::vector<uint32_t> lane(nodes.size(), 0);
    using Busy = std::pair<TimeNs, uint32_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> freeLanes;
    laneCount = 0;
    for (uint32_t k : order) {
        const NodeRecord& n = nodes[k];
        while (!busy.empty() && busy.top().first <= n.start) {
            freeLanes.push(busy.top().second);
            busy.pop();
        }
        uint32_t l;
        TimeNs end = plusSat(n.start, n.duration);
        if (!freeLanes.empty()) {
            l = freeLanes.top();
            freeLanes.pop();
        } else if (laneCount < kMaxLanes) {
            l = laneCount++;
        } else {
            l = busy.top().second;
            end = std::max(end, busy.top().first);
            busy.pop();
            ++crowded;
        }
        lane[k] = l;
        busy.push({end, l});
    }
    return lane;
}

// Memory samples of one allocator, gathered over all nodes.
struct AllocatorSeries {
    std::vector<std::pair<TimeNs, int64_t>> records;    // (time, +/- bytes) allocation records
    std::vector<std::pair<TimeNs, int64_t>> inUse;      // (node end, allocator_bytes_in_use)
    std::vector<std::pair<TimeNs, int64_t>> nodeTotal;  // (node end, total_bytes of the node)
};

class Converter {
public:
    Converter(TraceBuilder& b, const ImportOptions& options) : b_(b), options_(options) {}

    size_t badTimes = 0;
    size_t negativeDurations = 0;
    size_t crowdedOps = 0;  // ops that found all kMaxLanes lanes busy

    bool addDevices(std::vector<Device>& devices) {
        const StringId catOp = b_.intern("Op");
        int64_t pid = 1;
        for (Device& d : devices) {
            if (options_.cancelled()) return false;
            addDevice(d, pid++, catOp);
        }
        addFlows();
        addAllocators(pid);
        return true;
    }

private:
    TraceBuilder& b_;
    const ImportOptions& options_;
    // Output tensor name -> (track, provisional slice id, end time) of its producer.
    struct Producer {
        TrackIndex track;
        uint32_t slice;
    };
    std::unordered_map<std::string, Producer> producers_;
    struct Consumer {
        TrackIndex track;
        uint32_t slice;
        std::string input;
    };
    std::vector<Consumer> consumers_;
    std::map<std::string, AllocatorSeries> allocators_;

    void addDevice(const Device& d, int64_t pid, StringId catOp) {
        const ProcessIndex proc = b_.addProcess(deviceKind(d.name), pid, d.name);
        b_.process(proc).sortIndex = pid;
        const bool gpuTrace = isGpuTraceDevice(d.name);

        std::vector<NodeRecord> nodes;
        nodes.reserve(d.nodes.size());
        for (const auto& n : d.nodes) {
            NodeRecord r;
            r.stats = n.get();
            if (!nodeTimes(*n, r.start, r.duration)) {
                ++badTimes;
                continue;
            }
            if (r.duration < 0) {
                ++negativeDurations;
                r.duration = 0;
            }
            nodes.push_back(r);
        }
        std::vector<uint32_t> order(nodes.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t x) {
            if (nodes[a].start != nodes[x].start) return nodes[a].start < nodes[x].start;
            return nodes[a].duration > nodes[x].duration;
        });
        uint32_t laneCount = 0;
        const std::vector<uint32_t> lanes = assignLanes(nodes, order, laneCount, crowdedOps);
        std::vector<TrackIndex> laneTracks(laneCount);
        for (uint32_t l = 0; l < laneCount; ++l) {
            laneTracks[l] = b_.addTrack(proc, TrackKind::Thread, "lane " + std::to_string(l), l);
            b_.track(laneTracks[l]).sortIndex = l;
        }

        ArgsWriter args;
        for (uint32_t k : order) {
            const NodeRecord& r = nodes[k];
            const tensorflow::NodeExecStats& n = *r.stats;
            std::string name = n.node_name();
            std::string op;
            LabelParts label;
            if (gpuTrace) {
                kernelNameAndOp(n, name, op);
            } else if (name == "RecvTensor") {
                op = "RecvTensor";
            } else {
                label = parseOpLabel(n.timeline_label());
                op = label.matched && !label.op.empty() ? std::string(label.op) : name;
            }
            if (op.empty()) op = "unknown";

            args.clear();
            args.add(b_.intern("name"), ArgValue::string(b_.intern(name)));
            args.add(b_.intern("op"), ArgValue::string(b_.intern(op)));
            for (size_t i = 0; i < label.inputs.size(); ++i)
                args.add(b_.intern("input" + std::to_string(i)), ArgValue::string(b_.intern(label.inputs[i])));
            if (gpuTrace && !n.timeline_label().empty())
                args.add(b_.intern("label"), ArgValue::string(b_.intern(n.timeline_label())));
            args.add(b_.intern("thread_id"), ArgValue::unsignedInteger(n.thread_id()));
            if (auto it = d.threadNames.find(n.thread_id()); it != d.threadNames.end())
                args.add(b_.intern("thread_name"), ArgValue::string(b_.intern(it->second)));
            if (n.scheduled_nanos() != 0)
                args.add(b_.intern("scheduled_nanos"), ArgValue::integer(n.scheduled_nanos()));
            else if (n.scheduled_micros() != 0)
                args.add(b_.intern("scheduled_micros"), ArgValue::integer(n.scheduled_micros()));
            if (n.op_start_rel_micros() != 0 || n.op_end_rel_micros() != 0) {
                args.add(b_.intern("op_start_rel_micros"), ArgValue::integer(n.op_start_rel_micros()));
                args.add(b_.intern("op_end_rel_micros"), ArgValue::integer(n.op_end_rel_micros()));
            }
            int64_t outputBytes = 0;
            for (const auto& o : n.output())
                outputBytes += o.tensor_description().allocation_description().requested_bytes();
            if (n.output_size() > 0) args.add(b_.intern("output_bytes"), ArgValue::integer(outputBytes));

            const TrackIndex track = laneTracks[lanes[k]];
            const uint32_t id = b_.addSlice(track, r.start, r.duration, b_.intern(op), catOp, args);

            if (!gpuTrace && name != "RecvTensor") {
                // Dataflow, as TF1's timeline draws it: output i of node N is "N" (i = 0) or "N:i".
                for (int i = 0; i < n.output_size(); ++i)
                    producers_[i == 0 ? n.node_name() : n.node_name() + ":" + std::to_string(i)] = {track, id};
                for (std::string_view in : label.inputs) consumers_.push_back({track, id, std::string(in)});
            }
            collectMemory(n, r);
        }
    }

    static void kernelNameAndOp(const tensorflow::NodeExecStats& n, std::string& name, std::string& op) {
        const std::string& label = n.timeline_label();
        const size_t at = label.find("@@");
        const size_t hash = label.find('#');
        if (at != std::string::npos && hash != std::string::npos && at + 2 < hash)
            name = label.substr(at + 2, hash - at - 2);
        const size_t colon = name.find(':');
        if (colon != std::string::npos) {
            const size_t next = name.find(':', colon + 1);
            op = name.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
            name = name.substr(0, colon);
        } else {
            op = name;
        }
    }

    void addFlows() {
        const StringId cat = b_.intern("DataFlow");
        uint64_t id = 1;
        for (const Consumer& c : consumers_) {
            auto it = producers_.find(c.input);
            if (it == producers_.end()) {
                // TF1 also tries the name without a "/_N" suffix (send/recv rewrites).
                const size_t cut = c.input.rfind("/_");
                if (cut != std::string::npos && cut > 0) it = producers_.find(c.input.substr(0, cut));
            }
            if (it == producers_.end() || it->second.track == c.track) continue;
            b_.addFlow(TraceBuilder::FlowEnd::ofSlice(it->second.track, it->second.slice),
                       TraceBuilder::FlowEnd::ofSlice(c.track, c.slice), b_.intern(it->first), cat, id++);
        }
    }

    void collectMemory(const tensorflow::NodeExecStats& n, const NodeRecord& r) {
        for (const auto& m : n.memory()) {
            AllocatorSeries& s = allocators_[m.allocator_name().empty() ? "(unnamed allocator)" : m.allocator_name()];
            for (const auto& rec : m.allocation_records()) {
                TimeNs t;
                if (mulOverflows(rec.alloc_micros(), 1000, t)) {
                    ++badTimes;
                    continue;
                }
                s.records.push_back({t, rec.alloc_bytes()});
            }
            if (m.allocator_bytes_in_use() > 0)
                s.inUse.push_back({plusSat(r.start, r.duration), m.allocator_bytes_in_use()});
            s.nodeTotal.push_back({plusSat(r.start, r.duration), m.total_bytes()});
        }
    }

    // One counter track per allocator in an "Allocators" process: the running
    // sum of allocation records when the file has them (what TF1's timeline
    // plots), else the allocator's bytes in use reported at node ends, else
    // the bytes each node allocated.
    void addAllocators(int64_t pid) {
        if (allocators_.empty()) return;
        const ProcessIndex proc = b_.addProcess(ProcessKind::Other, pid, "Allocators");
        b_.process(proc).sortIndex = pid;
        int64_t tid = 0;
        for (auto& [name, s] : allocators_) {
            auto byTime = [](const auto& a, const auto& x) { return a.first < x.first; };
            if (!s.records.empty()) {
                const TrackIndex t = b_.addTrack(proc, TrackKind::Counter, name, tid++);
                std::stable_sort(s.records.begin(), s.records.end(), byTime);
                int64_t total = 0;
                for (const auto& [time, bytes] : s.records) {
                    addSat(total, bytes);  // hostile byte counts must not wrap the running sum
                    b_.addCounterSample(t, time, double(total));
                }
            } else if (!s.inUse.empty()) {
                const TrackIndex t = b_.addTrack(proc, TrackKind::Counter, name, tid++);
                std::stable_sort(s.inUse.begin(), s.inUse.end(), byTime);
                for (const auto& [time, bytes] : s.inUse) b_.addCounterSample(t, time, double(bytes));
            } else {
                const TrackIndex t = b_.addTrack(proc, TrackKind::Counter, name + " (bytes per node)", tid++);
                std::stable_sort(s.nodeTotal.begin(), s.nodeTotal.end(), byTime);
                for (const auto& [time, bytes] : s.nodeTotal) b_.addCounterSample(t, time, double(bytes));
            }
            b_.track(b_.trackCount() - 1).sortIndex = tid;
        }
    }
};

bool readFile(const std::string& path, std::vector<uint8_t>& out, std::string& error) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    const std::streamoff size = in.tellg();
    if (size < 0) {
        error = "cannot read " + path;
        return false;
    }
    in.seekg(0);
    out.resize(size_t(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(out.data()), size)) {
        error = "cannot read " + path;
        return false;
    }
    return true;
}

}  // namespace

bool looksLikeRunMetadata(const uint8_t* data, size_t size) {
    if (!data || size == 0) return false;
    Field f;
    if (!firstFieldIsBytes1(data, size, f)) return false;
    return isStepStats(f.data, f.size) || isDeviceStepStats(f.data, f.size);
}

ImportResult importRunMetadata(const std::string& path, const ImportOptions& options) {
    std::vector<uint8_t> bytes;
    std::string error;
    if (!readFile(path, bytes, error)) return ImportResult::failure(error);
    if (bytes.empty()) return ImportResult::failure("empty file: " + path);
    options.report(0, bytes.size());

    Field first;
    const bool head = firstFieldIsBytes1(bytes.data(), bytes.size(), first);
    const bool isRunMetadata = head && isStepStats(first.data, first.size);
    const bool isBareStepStats = !isRunMetadata && head && isDeviceStepStats(first.data, first.size);
    if (!isRunMetadata && !isBareStepStats)
        return ImportResult::failure(path +
                                     " is not a TensorFlow RunMetadata or StepStats file: no device step "
                                     "stats at byte 0");

    Walker walker(bytes, options);
    if (isRunMetadata) walker.walkRunMetadata();
    else walker.walkStepStats(bytes.data(), bytes.size(), 0);
    if (walker.cancelled || options.cancelled()) return ImportResult::cancel();
    if (!walker.error.empty()) return ImportResult::failure(path + ": " + walker.error);

    size_t nodeCount = 0;
    for (const Device& d : walker.devices) nodeCount += d.nodes.size();
    if (nodeCount == 0) {
        if (walker.truncated)
            return ImportResult::failure(path + ": file truncated at byte " + std::to_string(bytes.size()) +
                                         " before the first complete node record");
        if (walker.badNodes) return ImportResult::failure(path + ": every node record is corrupted");
        return ImportResult::failure(path + ": the step stats hold no node executions (was the run traced?)");
    }

    TraceBuilder builder("runmetadata");
    builder.setOriginUnixNs(0);  // all_start_micros is Unix time
    builder.addMetadata("source", isRunMetadata ? "TensorFlow RunMetadata" : "TensorFlow StepStats");
    if (walker.truncated) builder.addWarning(ImportWarning::truncated(walker.completeUpTo, bytes.size()));
    for (auto& w : walker.warnings) builder.addWarning(std::move(w));
    if (walker.cutNodes)
        builder.addWarning(ImportWarning::events(WarningKind::DroppedEvents, walker.cutNodes,
                                                 "node record(s) cut by the end of the file dropped"));
    if (walker.badNodes)
        builder.addWarning(
            ImportWarning::corrupted(walker.firstBadNode, "corrupted node record(s) skipped", walker.badNodes));

    Converter converter(builder, options);
    if (!converter.addDevices(walker.devices)) return ImportResult::cancel();
    if (converter.badTimes)
        builder.addWarning(ImportWarning::events(WarningKind::DroppedEvents, converter.badTimes,
                                                 "record(s) with out-of-range times skipped"));
    if (converter.negativeDurations)
        builder.addWarning(ImportWarning::events(WarningKind::AdjustedEvents, converter.negativeDurations,
                                                 "node(s) with a negative duration shown with duration 0"));
    if (converter.crowdedOps)
        builder.addWarning(ImportWarning::events(
            WarningKind::AdjustedEvents, converter.crowdedOps,
            "op(s) overlap more than " + std::to_string(kMaxLanes) + " others on their device: they share lanes"));
    walker.devices.clear();

    ImportResult result;
    result.trace = builder.finish(options.cancel, options.threads);
    if (!result.trace) return ImportResult::cancel();
    options.report(bytes.size(), bytes.size());
    return result;
}

}  // namespace tracescope
