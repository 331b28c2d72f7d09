// Per-plane lookup tables for XSpace import: stat metadata (stat names, which
// also serve as the interned strings of `ref_value` stats) and event metadata
// (names, display names, stats shared by all events of a type), plus the
// conversion of XStat values into trace args.
#pragma once

#include "model/proto/xplane.pb.h"
#include "model/trace/args.h"
#include "model/trace/string_table.h"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope::xspace {

// Stats the importer reads itself (besides storing them as args).
enum class StatRole : uint8_t {
    None,
    CorrelationId,    // launch <-> kernel
    ProducerType,     // _pt
    ProducerId,       // _p
    ConsumerType,     // _ct
    ConsumerId,       // _c
    KernelDetails,    // kernel_details: a device event is a kernel
    MemcpyDetails,    // memcpy_details
    MemsetDetails,    // Memset_details / memset_details
    MemallocDetails,  // memalloc_details / MemFree_details / MemoryResidency_details
    StepName,         // step_name replaces the event name, as in XProf
};

StatRole statRoleOf(std::string_view statName);

// Ids -> dense index: a vector when the ids are compact, a hash map otherwise.
class IdIndex {
public:
    void build(const std::vector<int64_t>& ids);
    // kNone when unknown.
    uint32_t find(int64_t id) const {
        if (dense_) {
            const uint64_t k = uint64_t(id) - uint64_t(min_);
            return k < table_.size() ? table_[k] : kNone;
        }
        auto it = map_.find(id);
        return it == map_.end() ? kNone : it->second;
    }
    static constexpr uint32_t kNone = 0xFFFFFFFFu;

private:
    bool dense_ = true;
    int64_t min_ = 0;
    std::vector<uint32_t> table_;
    std::unordered_map<int64_t, uint32_t> map_;
};

struct StatInfo {
    StringId name = kEmptyString;  // the stat's name, also the text of a ref_value naming it
    StatRole role = StatRole::None;
};

// A decoded stat: its arg plus the raw numbers the importer needs for its role.
struct DecodedStat {
    Arg arg;
    StatRole role = StatRole::None;
    bool hasInteger = false;
    uint64_t integer = 0;  // int64 / uint64 values (two's complement)
};

struct EventType {
    StringId name = kEmptyString;      // shown name: display_name if set, else name
    StringId longName = kEmptyString;  // full name when a display name differs from it
    std::string_view fullName;         // for classification (points into the plane's arena)
    std::vector<DecodedStat> stats;    // the metadata's own stats
    mutable StringId categoryCache[2] = {kEmptyString, kEmptyString};  // filled by the importer
};

class PlaneTables {
public:
    // Builds the tables of `plane` (its metadata maps and stats); strings go to `strings`.
    void build(const tensorflow::profiler::XPlane& plane, StringTable& strings);

    const StatInfo* stat(int64_t metadataId) const {
        const uint32_t k = statIndex_.find(metadataId);
        return k == IdIndex::kNone ? nullptr : &stats_[k];
    }
    const EventType* event(int64_t metadataId) const {
        const uint32_t k = eventIndex_.find(metadataId);
        return k == IdIndex::kNone ? nullptr : &events_[k];
    }
    // An event type for metadata ids the plane does not define ("<unknown N>").
    const EventType& unknownEvent(int64_t metadataId, StringTable& strings);

    DecodedStat decode(const tensorflow::profiler::XStat& stat, StringTable& strings) const;

    size_t eventTypeCount() const { return events_.size(); }

    // Plane-level stats (device properties, versions, profile start time).
    const std::vector<DecodedStat>& planeStats() const { return planeStats_; }

private:
    IdIndex statIndex_;
    std::vector<StatInfo> stats_;
    IdIndex eventIndex_;
    std::vector<EventType> events_;
    std::vector<DecodedStat> planeStats_;
    std::unordered_map<int64_t, EventType> unknown_;
};

// "<N bytes>": what is stored instead of a bytes_value blob.
std::string bytesPlaceholder(size_t n);

}  // namespace tracescope::xspace
