// The project's one XSpace writer: builds the container TensorFlow / JAX / XLA profilers
// write as <host>.xplane.pb (our own wire-compatible xplane.proto), for test generators,
// captures of our CUPTI agent and conversions.
//
// Event and stat metadata are interned per plane by name, as XLA's XPlaneBuilder does: the
// first use of a name creates its metadata with the next free id (ids start at 1; 0 means
// "none" in XProf's readers). Event times are given in absolute nanoseconds; a line's
// timestamp_ns is its first event's time unless set, and offsets are stored in picoseconds
// from it, as XProf expects.
#pragma once

#include "model/proto/xplane.pb.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope::xspace {

class PlaneWriter;

// Adds stats to one XEvent, XPlane or XEventMetadata.
class StatWriter {
public:
    StatWriter(PlaneWriter& plane, google::protobuf::RepeatedPtrField<tensorflow::profiler::XStat>* stats)
        : plane_(&plane), stats_(stats) {}
    StatWriter& add(std::string_view name, int64_t value);
    StatWriter& add(std::string_view name, uint64_t value);
    StatWriter& add(std::string_view name, int value) { return add(name, int64_t(value)); }
    StatWriter& add(std::string_view name, double value);
    StatWriter& add(std::string_view name, std::string_view value);
    StatWriter& add(std::string_view name, const char* value) { return add(name, std::string_view(value)); }
    // A string interned as stat metadata and referenced by id (XStat.ref_value), as XLA
    // writes repeated strings such as kernel names and tf_op.
    StatWriter& addRef(std::string_view name, std::string_view value);
    StatWriter& addBytes(std::string_view name, std::string_view bytes);

private:
    tensorflow::profiler::XStat* next(std::string_view name);
    PlaneWriter* plane_;
    google::protobuf::RepeatedPtrField<tensorflow::profiler::XStat>* stats_;
};

// One XLine: a thread, a GPU stream or a derived line.
class LineWriter {
public:
    LineWriter(PlaneWriter& plane, tensorflow::profiler::XLine* line) : plane_(&plane), line_(line) {}
    // A complete event; startNs is absolute (Unix or the producer's clock). Returns its
    // stat writer.
    StatWriter addEvent(std::string_view name, int64_t startNs, int64_t durationNs);
    StatWriter addEventPs(std::string_view name, int64_t startNs, int64_t durationPs);
    tensorflow::profiler::XLine* proto() { return line_; }

private:
    PlaneWriter* plane_;
    tensorflow::profiler::XLine* line_;
};

class PlaneWriter {
public:
    explicit PlaneWriter(tensorflow::profiler::XPlane* plane) : plane_(plane) {}
    // A new line; timestampNs fixes the line's origin (the first event's time otherwise).
    LineWriter addLine(int64_t id, std::string_view name, std::string_view displayName = {});
    LineWriter addLine(int64_t id, std::string_view name, int64_t timestampNs);
    StatWriter stats() { return StatWriter(*this, plane_->mutable_stats()); }
    // Interned metadata ids; the first use of a name creates it.
    int64_t eventMetadataId(std::string_view name);
    int64_t statMetadataId(std::string_view name);
    tensorflow::profiler::XEventMetadata& eventMetadata(std::string_view name);
    StatWriter eventMetadataStats(std::string_view name);
    tensorflow::profiler::XPlane* proto() { return plane_; }

private:
    tensorflow::profiler::XPlane* plane_;
    std::unordered_map<std::string, int64_t> eventIds_;
    std::unordered_map<std::string, int64_t> statIds_;
};

class SpaceWriter {
public:
    // Planes are handed out by reference and stay valid for the writer's life.
    PlaneWriter& addPlane(int64_t id, std::string_view name);
    void addHostname(std::string_view host) { space_.add_hostnames(std::string(host)); }
    void addWarning(std::string_view text) { space_.add_warnings(std::string(text)); }
    void addError(std::string_view text) { space_.add_errors(std::string(text)); }
    const tensorflow::profiler::XSpace& proto() const { return space_; }
    // Moves every line's timestamp_ns by deltaNs (its events' offsets are relative to it): the
    // lines of a space with a profile start time are relative to it, as profiler servers write.
    void shiftLines(int64_t deltaNs);
    std::string serialize() const;
    // Writes through a temporary file renamed into place; false with `error` otherwise.
    bool writeFile(const std::string& path, std::string& error) const;

private:
    tensorflow::profiler::XSpace space_;
    std::vector<std::unique_ptr<PlaneWriter>> planes_;
};

}  // namespace tracescope::xspace
