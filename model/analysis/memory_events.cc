#include "model/analysis/memory_events.h"

#include "model/analysis/analysis_progress.h"

#include "model/trace/text_match.h"

#include "model/trace/arg_number.h"
#include "model/trace/args.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace tracescope::memory_detail {

bool isAllocatorOnlyOp(std::string_view name) {
    static constexpr std::array<std::string_view, 8> kOnlyAllocate = {
        "aten::empty",         "aten::empty_strided", "aten::empty_like", "aten::new_empty",
        "aten::new_empty_strided", "aten::resize_",   "aten::zeros",      "aten::new_zeros"};
    return std::find(kOnlyAllocate.begin(), kOnlyAllocate.end(), name) != kOnlyAllocate.end();
}

namespace {

// String ids of the arg keys and event names we read (kNoIndex when the trace lacks them).
struct Keys {
    explicit Keys(const StringTable& s)
        : alloc(s.find("MemoryAllocation")),
          dealloc(s.find("MemoryDeallocation")),
          kineto(s.find("[memory]")),
          allocatorName(s.find("allocator_name")),
          indexOnHost(s.find("index_on_host")),
          deviceOrdinal(s.find("device_ordinal")),
          bytesReserved(s.find("bytes_reserved")),
          bytesAllocated(s.find("bytes_allocated")),
          bytesAvailable(s.find("bytes_available")),
          fragmentation(s.find("fragmentation")),
          peakInUse(s.find("peak_bytes_in_use")),
          requested(s.find("requested_bytes")),
          allocation(s.find("allocation_bytes")),
          addr(s.find("addr")),
          tfOp(s.find("tf_op")),
          totalAllocated(s.find("Total Allocated")),
          totalReserved(s.find("Total Reserved")),
          bytes(s.find("Bytes")),
          kAddr(s.find("Addr")),
          deviceType(s.find("Device Type")),
          deviceId(s.find("Device Id")),
          pythonFunction(s.find("python_function")) {}
    StringId alloc, dealloc, kineto;
    StringId allocatorName, indexOnHost, deviceOrdinal, bytesReserved, bytesAllocated, bytesAvailable,
        fragmentation, peakInUse, requested, allocation, addr, tfOp;
    StringId totalAllocated, totalReserved, bytes, kAddr, deviceType, deviceId;
    StringId pythonFunction;
    bool any() const { return alloc != kNoIndex || dealloc != kNoIndex || kineto != kNoIndex; }
};

// A double as int64, saturated (NaN -> 0): hostile files carry any number.
int64_t saturatedInt(double d) {
    if (!(d == d)) return 0;
    if (d >= 9.2e18) return INT64_MAX;
    if (d <= -9.2e18) return INT64_MIN;
    return int64_t(d);
}

int64_t intOf(const ArgValue& v) {
    int64_t x = 0;
    if (v.toInt64(x)) return x;
    if (v.type == ArgValue::Type::UInt) return INT64_MAX;  // beyond int64
    return saturatedInt(v.toDouble());
}

float fractionOf(const ArgValue& v) {
    const double d = v.toDouble();
    return d >= 0 && d <= 1 ? float(d) : d > 1 && d <= 100 ? float(d / 100) : -1.0f;
}

uint64_t addressOf(const ArgValue& v) {
    if (v.type == ArgValue::Type::UInt) return v.u;
    return uint64_t(intOf(v));
}

// Deepest slice open at each queried time on one thread track (start <= t <= end), skipping
// allocator-only ops and Python frames. Queries must come in ascending time.
class EnclosingOp {
public:
    EnclosingOp(const Trace& trace, const Track& track, const Keys& keys)
        : trace_(trace), s_(track.slices), keys_(keys) {}

    StringId at(TimeNs t) {
        while (next_ < s_.size() && s_.start[next_] <= t) {
            stack_.resize(std::min<size_t>(stack_.size(), s_.depth(next_)));
            stack_.push_back(uint32_t(next_));
            ++next_;
        }
        while (!stack_.empty() && s_.end(stack_.back()) < t) stack_.pop_back();
        for (size_t k = stack_.size(); k-- > 0;) {
            const uint32_t i = stack_[k];
            if (s_.end(i) < t) continue;  // a sibling left open by a partial overlap
            if (s_.category[i] == keys_.pythonFunction) continue;
            if (isAllocatorOnlyOp(trace_.str(s_.name[i]))) continue;
            return s_.name[i];
        }
        return kEmptyString;
    }

private:
    const Trace& trace_;
    const SliceColumns& s_;
    const Keys& keys_;
    size_t next_ = 0;
    std::vector<uint32_t> stack_;
};

std::string kinetoMemoryId(int64_t deviceType, int64_t deviceId) {
    // c10::DeviceType: 0 CPU, 1 CUDA (others by number).
    if (deviceType == 0) return "cpu";
    const std::string kind = deviceType == 1 ? "cuda" : "device" + std::to_string(deviceType);
    return kind + ":" + std::to_string(deviceId < 0 ? 0 : deviceId);
}

class Collector {
public:
    explicit Collector(const Trace& t) : trace_(t), keys_(t.strings) {}

    std::vector<RawMemoryId> run() {
        if (keys_.any())
            for (TrackIndex ti = 0; ti < trace_.tracks.size(); ++ti) instantsOf(ti);
        for (TrackIndex ti = 0; ti < trace_.tracks.size(); ++ti) countersOf(ti);
        return std::move(ids_);
    }

private:
    const Trace& trace_;
    Keys keys_;
    std::vector<RawMemoryId> ids_;
    std::unordered_map<std::string, size_t> byName_;

    RawMemoryId& idNamed(const std::string& name, MemorySource source, ProcessIndex process) {
        auto [it, fresh] = byName_.try_emplace(name, ids_.size());
        if (fresh) {
            ids_.emplace_back();
            ids_.back().memoryId = name;
            ids_.back().source = source;
            ids_.back().eventsProcess = process;
        }
        return ids_[it->second];
    }

    void instantsOf(TrackIndex ti) {
        const Track& track = trace_.tracks[ti];
        const InstantColumns& in = track.instants;
        std::optional<EnclosingOp> enclosing;
        std::string idName;
        for (size_t i = 0; i < in.size(); ++i) {
            const StringId name = in.name[i];
            const bool xspace = name == keys_.alloc || name == keys_.dealloc;
            if (!xspace && name != keys_.kineto) continue;
            MemorySnapshot s;
            s.time = in.time[i];
            s.track = ti;
            s.index = uint32_t(i);
            bool haveTotal = false, haveAllocated = false;
            int64_t deviceType = -1, deviceId = -1, kinetoBytes = 0, ordinal = -1;
            StringId allocator = kEmptyString;
            ArgsReader r(track.argsView(), in.args[i]);
            Arg a;
            while (r.next(a)) {
                const StringId k = a.key;
                if (k != keys_.allocatorName && k != keys_.tfOp) a.value = numericArg(a.value, trace_.strings);
                if (xspace) {
                    if (k == keys_.allocatorName) allocator = a.value.type == ArgValue::Type::String ? a.value.s : kEmptyString;
                    else if (k == keys_.indexOnHost || k == keys_.deviceOrdinal) ordinal = intOf(a.value);
                    else if (k == keys_.bytesReserved) s.stackBytes = intOf(a.value);
                    else if (k == keys_.bytesAllocated) s.heapBytes = intOf(a.value), haveAllocated = true;
                    else if (k == keys_.bytesAvailable) s.freeBytes = intOf(a.value);
                    else if (k == keys_.fragmentation) s.fragmentation = fractionOf(a.value);
                    else if (k == keys_.peakInUse) lifetimePeak_ = std::max(lifetimePeak_, intOf(a.value));
                    else if (k == keys_.requested) s.requestedBytes = intOf(a.value);
                    else if (k == keys_.allocation) s.allocationBytes = intOf(a.value);
                    else if (k == keys_.addr) s.address = addressOf(a.value);
                    else if (k == keys_.tfOp && a.value.type == ArgValue::Type::String) s.op = a.value.s;
                } else {
                    if (k == keys_.totalAllocated) s.heapBytes = intOf(a.value), haveTotal = true;
                    else if (k == keys_.totalReserved) s.reservedBytes = intOf(a.value);
                    else if (k == keys_.bytes) kinetoBytes = intOf(a.value);
                    else if (k == keys_.kAddr) s.address = addressOf(a.value);
                    else if (k == keys_.deviceType) deviceType = intOf(a.value);
                    else if (k == keys_.deviceId) deviceId = intOf(a.value);
                }
            }
            MemorySource source = MemorySource::XSpace;
            if (xspace) {
                s.kind = name == keys_.alloc ? MemoryEventKind::Allocation : MemoryEventKind::Deallocation;
                if (s.allocationBytes < 0) s.allocationBytes = 0;
                if (!haveAllocated) s.heapBytes = 0;
                idName = ordinal >= 0 ? std::to_string(ordinal)
                                      : allocator != kEmptyString ? std::string(trace_.str(allocator))
                                                                  : std::string("(unnamed allocator)");
            } else {
                s.kind = kinetoBytes >= 0 ? MemoryEventKind::Allocation : MemoryEventKind::Deallocation;
                s.allocationBytes = kinetoBytes >= 0 ? kinetoBytes : (kinetoBytes == INT64_MIN ? INT64_MAX : -kinetoBytes);
                if (!haveTotal) s.heapBytes = 0;  // bytes-only: summed from the sizes later
                source = haveTotal ? MemorySource::Kineto : MemorySource::KinetoBytesOnly;
                idName = kinetoMemoryId(deviceType, deviceId);
            }
            if (s.op == kEmptyString) {
                if (!enclosing) enclosing.emplace(trace_, track, keys_);
                s.op = enclosing->at(s.time);
            }
            RawMemoryId& id = idNamed(idName, source, track.process);
            if (source == MemorySource::KinetoBytesOnly) id.bytesOnly = true;
            if (lifetimePeak_ >= 0) {
                id.lifetimePeak = std::max(id.lifetimePeak, lifetimePeak_);
                lifetimePeak_ = -1;
            }
            id.events.push_back(s);
        }
    }

    // RunMetadata allocator tracks (process "Allocators") and memory counters of Chrome JSON.
    void countersOf(TrackIndex ti) {
        const Track& track = trace_.tracks[ti];
        if (track.kind != TrackKind::Counter || track.counter.empty()) return;
        const std::string& process =
            track.process < trace_.processes.size() ? trace_.processes[track.process].name : std::string();
        bool memory = process == "Allocators";
        if (!memory && trace_.format == "chrome-json") {
            memory = containsIgnoringCase(track.name, "memory") || containsIgnoringCase(track.name, "bytes") ||
                     containsIgnoringCase(track.name, "allocat");
        }
        if (!memory) return;
        RawMemoryId& id = idNamed(track.name, MemorySource::Counter, track.process);
        const CounterSeries& c = track.counter;
        for (size_t i = 0; i < c.size(); ++i) {
            analysisTick();
            MemorySnapshot s;
            s.time = c.time[i];
            s.heapBytes = saturatedInt(c.value[i]);
            int64_t delta = s.heapBytes;
            subSat(delta, i ? saturatedInt(c.value[i - 1]) : 0);
            s.kind = delta == 0 ? MemoryEventKind::Sample
                     : delta > 0 ? MemoryEventKind::Allocation
                                 : MemoryEventKind::Deallocation;
            s.allocationBytes = delta >= 0 ? delta : delta == INT64_MIN ? INT64_MAX : -delta;
            s.track = ti;
            s.index = uint32_t(i);
            id.events.push_back(s);
        }
    }

    int64_t lifetimePeak_ = -1;
};

}  // namespace

std::vector<RawMemoryId> collectMemoryEvents(const Trace& trace) { return Collector(trace).run(); }

}  // namespace tracescope::memory_detail
