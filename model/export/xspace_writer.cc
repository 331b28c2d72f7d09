#include "model/export/xspace_writer.h"

#include "model/export/output_file.h"
#include "model/trace/types.h"

#include <limits>

namespace tracescope::xspace {

namespace xp = tensorflow::profiler;

namespace {

// Nanoseconds as picoseconds, saturated: a hostile capture record's time must not overflow.
int64_t picosOf(int64_t ns) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 1000;
    if (ns > kMax) return std::numeric_limits<int64_t>::max();
    if (ns < -kMax) return std::numeric_limits<int64_t>::min();
    return ns * 1000;
}

}  // namespace

xp::XStat* StatWriter::next(std::string_view name) {
    xp::XStat* stat = stats_->Add();
    stat->set_metadata_id(plane_->statMetadataId(name));
    return stat;
}

StatWriter& StatWriter::add(std::string_view name, int64_t value) {
    next(name)->set_int64_value(value);
    return *this;
}

StatWriter& StatWriter::add(std::string_view name, uint64_t value) {
    next(name)->set_uint64_value(value);
    return *this;
}

StatWriter& StatWriter::add(std::string_view name, double value) {
    next(name)->set_double_value(value);
    return *this;
}

StatWriter& StatWriter::add(std::string_view name, std::string_view value) {
    next(name)->set_str_value(std::string(value));
    return *this;
}

StatWriter& StatWriter::addRef(std::string_view name, std::string_view value) {
    const int64_t ref = plane_->statMetadataId(value);
    next(name)->set_ref_value(uint64_t(ref));
    return *this;
}

StatWriter& StatWriter::addBytes(std::string_view name, std::string_view bytes) {
    next(name)->set_bytes_value(std::string(bytes));
    return *this;
}

StatWriter LineWriter::addEvent(std::string_view name, int64_t startNs, int64_t durationNs) {
    return addEventPs(name, startNs, picosOf(durationNs));
}

StatWriter LineWriter::addEventPs(std::string_view name, int64_t startNs, int64_t durationPs) {
    if (line_->events_size() == 0 && line_->timestamp_ns() == 0) line_->set_timestamp_ns(startNs);
    xp::XEvent* event = line_->add_events();
    event->set_metadata_id(plane_->eventMetadataId(name));
    event->set_offset_ps(picosOf(minusSat(startNs, line_->timestamp_ns())));
    event->set_duration_ps(durationPs);
    return StatWriter(*plane_, event->mutable_stats());
}

LineWriter PlaneWriter::addLine(int64_t id, std::string_view name, std::string_view displayName) {
    xp::XLine* line = plane_->add_lines();
    line->set_id(id);
    line->set_display_id(id);
    line->set_name(std::string(name));
    if (!displayName.empty()) line->set_display_name(std::string(displayName));
    return LineWriter(*this, line);
}

void SpaceWriter::shiftLines(int64_t deltaNs) {
    for (xp::XPlane& plane : *space_.mutable_planes())
        for (xp::XLine& line : *plane.mutable_lines()) line.set_timestamp_ns(line.timestamp_ns() + deltaNs);
}

LineWriter PlaneWriter::addLine(int64_t id, std::string_view name, int64_t timestampNs) {
    LineWriter writer = addLine(id, name);
    writer.proto()->set_timestamp_ns(timestampNs);
    return writer;
}

int64_t PlaneWriter::eventMetadataId(std::string_view name) {
    return eventMetadata(name).id();
}

xp::XEventMetadata& PlaneWriter::eventMetadata(std::string_view name) {
    auto [it, inserted] = eventIds_.try_emplace(std::string(name), int64_t(eventIds_.size()) + 1);
    xp::XEventMetadata& metadata = (*plane_->mutable_event_metadata())[it->second];
    if (inserted) {
        metadata.set_id(it->second);
        metadata.set_name(std::string(name));
    }
    return metadata;
}

StatWriter PlaneWriter::eventMetadataStats(std::string_view name) {
    return StatWriter(*this, eventMetadata(name).mutable_stats());
}

int64_t PlaneWriter::statMetadataId(std::string_view name) {
    auto [it, inserted] = statIds_.try_emplace(std::string(name), int64_t(statIds_.size()) + 1);
    if (inserted) {
        xp::XStatMetadata& metadata = (*plane_->mutable_stat_metadata())[it->second];
        metadata.set_id(it->second);
        metadata.set_name(std::string(name));
    }
    return it->second;
}

PlaneWriter& SpaceWriter::addPlane(int64_t id, std::string_view name) {
    xp::XPlane* plane = space_.add_planes();
    plane->set_id(id);
    plane->set_name(std::string(name));
    planes_.push_back(std::make_unique<PlaneWriter>(plane));
    return *planes_.back();
}

std::string SpaceWriter::serialize() const {
    std::string bytes;
    space_.SerializeToString(&bytes);
    return bytes;
}

bool SpaceWriter::writeFile(const std::string& path, std::string& error) const {
    OutputFile file;
    if (!file.open(path, /*gzip=*/false) || !file.write(serialize()) || !file.commit()) {
        error = file.error();
        return false;
    }
    return true;
}

}  // namespace tracescope::xspace
