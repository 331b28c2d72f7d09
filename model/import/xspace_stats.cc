#include "model/import/xspace_stats.h"

#include <algorithm>
#include <string>

namespace tracescope::xspace {

using tensorflow::profiler::XStat;

StatRole statRoleOf(std::string_view n) {
    if (n == "correlation_id") return StatRole::CorrelationId;
    if (n == "_pt") return StatRole::ProducerType;
    if (n == "_p") return StatRole::ProducerId;
    if (n == "_ct") return StatRole::ConsumerType;
    if (n == "_c") return StatRole::ConsumerId;
    if (n == "kernel_details") return StatRole::KernelDetails;
    if (n == "memcpy_details") return StatRole::MemcpyDetails;
    if (n == "Memset_details" || n == "memset_details") return StatRole::MemsetDetails;
    if (n == "memalloc_details" || n == "MemFree_details" || n == "MemoryResidency_details")
        return StatRole::MemallocDetails;
    if (n == "step_name") return StatRole::StepName;
    return StatRole::None;
}

void IdIndex::build(const std::vector<int64_t>& ids) {
    table_.clear();
    map_.clear();
    if (ids.empty()) {
        dense_ = true;
        min_ = 0;
        return;
    }
    const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
    min_ = *lo;
    const uint64_t span = uint64_t(*hi) - uint64_t(*lo);
    dense_ = span < 4 * uint64_t(ids.size()) + 4096;
    if (dense_) {
        table_.assign(size_t(span) + 1, kNone);
        for (size_t k = 0; k < ids.size(); ++k) table_[size_t(uint64_t(ids[k]) - uint64_t(min_))] = uint32_t(k);
    } else {
        map_.reserve(ids.size());
        for (size_t k = 0; k < ids.size(); ++k) map_.emplace(ids[k], uint32_t(k));
    }
}

std::string bytesPlaceholder(size_t n) { return "<" + std::to_string(n) + " bytes>"; }

DecodedStat PlaneTables::decode(const XStat& s, StringTable& strings) const {
    DecodedStat out;
    const StatInfo* info = stat(s.metadata_id());
    if (info) {
        out.arg.key = info->name;
        out.role = info->role;
    } else {
        out.arg.key = strings.intern("stat_" + std::to_string(s.metadata_id()));
    }
    switch (s.value_case()) {
    case XStat::kDoubleValue: out.arg.value = ArgValue::real(s.double_value()); break;
    case XStat::kUint64Value:
        out.arg.value = ArgValue::unsignedInteger(s.uint64_value());
        out.hasInteger = true;
        out.integer = s.uint64_value();
        break;
    case XStat::kInt64Value:
        out.arg.value = ArgValue::integer(s.int64_value());
        out.hasInteger = true;
        out.integer = uint64_t(s.int64_value());
        break;
    case XStat::kStrValue: out.arg.value = ArgValue::string(strings.intern(s.str_value())); break;
    case XStat::kBytesValue: out.arg.value = ArgValue::string(strings.intern(bytesPlaceholder(s.bytes_value().size()))); break;
    case XStat::kRefValue: {
        // An interned string: the name of the stat metadata whose id is the value.
        const StatInfo* ref = stat(int64_t(s.ref_value()));
        out.arg.value = ArgValue::string(ref ? ref->name : kEmptyString);
        break;
    }
    case XStat::VALUE_NOT_SET: out.arg.value = ArgValue::null(); break;
    }
    return out;
}

void PlaneTables::build(const tensorflow::profiler::XPlane& plane, StringTable& strings) {
    std::vector<int64_t> ids;
    ids.reserve(plane.stat_metadata_size());
    stats_.clear();
    stats_.reserve(plane.stat_metadata_size());
    for (const auto& [id, md] : plane.stat_metadata()) {
        ids.push_back(id);
        stats_.push_back({strings.intern(md.name()), statRoleOf(md.name())});
    }
    statIndex_.build(ids);

    ids.clear();
    events_.clear();
    events_.reserve(plane.event_metadata_size());
    for (const auto& [id, md] : plane.event_metadata()) {
        ids.push_back(id);
        EventType t;
        t.fullName = md.name();
        if (!md.display_name().empty() && md.display_name() != md.name()) {
            t.name = strings.intern(md.display_name());
            t.longName = strings.intern(md.name());
        } else {
            t.name = strings.intern(md.name());
        }
        t.stats.reserve(md.stats_size());
        for (const XStat& s : md.stats()) t.stats.push_back(decode(s, strings));
        events_.push_back(std::move(t));
    }
    eventIndex_.build(ids);

    planeStats_.clear();
    for (const XStat& s : plane.stats()) planeStats_.push_back(decode(s, strings));
}

const EventType& PlaneTables::unknownEvent(int64_t metadataId, StringTable& strings) {
    auto it = unknown_.find(metadataId);
    if (it != unknown_.end()) return it->second;
    EventType t;
    t.name = strings.intern("<unknown event " + std::to_string(metadataId) + ">");
    return unknown_.emplace(metadataId, std::move(t)).first->second;
}

}  // namespace tracescope::xspace
