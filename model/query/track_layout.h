// Vertical layout of the timeline: a header row per process, then its tracks,
// in the default order (track_order.h: the file's sort indices, else the
// producer's convention; empty processes and tracks left out). Collapsed
// processes show only their header. Derived tracks (counters an analysis computed, such
// as memory in use; model/analysis/memory_tracks.h) follow their process's own tracks.
#pragma once

#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

struct LayoutRow {
    enum class Kind : uint8_t { Process, Track, Derived };
    Kind kind = Kind::Track;
    ProcessIndex process = kNoIndex;
    TrackIndex track = kNoIndex;  // Derived rows: the index into TrackLayoutOptions::derived
    int y = 0;       // top, in content coordinates (0 = first row under the ruler)
    int height = 0;
    uint32_t depths = 0;  // slice rows drawn (Track rows)
    int slicesTop = 0;    // from y to the top of depth 0 (padding, and the marker strip when there are instants)
};

struct TrackMetrics {
    int processHeader = 24;
    int sliceRow = 18;     // one nesting level
    int trackPadding = 3;  // above and below the slices of a track
    int counterTrack = 40;
    int markerTrack = 18;
    int markerStrip = 8;   // above depth 0 of a thread track with instants, so markers do not hide labels
};

// What the user changed about the default layout.
struct TrackLayoutOptions {
    std::vector<uint8_t> collapsed;     // per process: header only
    std::vector<uint8_t> hiddenTracks;  // per track: not shown
    // Only tracks whose name, or whose process's name, contains this (case-insensitive); "" = all.
    std::string nameFilter;
    // Derived counter tracks shown under their process (not part of the Trace).
    struct DerivedTrack {
        ProcessIndex process = kNoIndex;
        std::string name;
    };
    std::vector<DerivedTrack> derived;
};

class TrackLayout {
public:
    void build(const Trace& trace, const std::vector<uint8_t>& collapsed, const TrackMetrics& m = {});
    // A process whose tracks are all hidden or filtered out is left out too.
    void build(const Trace& trace, const TrackLayoutOptions& options, const TrackMetrics& m = {});

    const std::vector<LayoutRow>& rows() const { return rows_; }
    int contentHeight() const { return height_; }
    // The row at content y; nullptr past the end.
    const LayoutRow* rowAt(int y) const;
    // Index of the first row whose bottom is below y.
    size_t firstRowBelow(int y) const;
    // The row of a track (nullptr when its process is collapsed or it is not shown).
    const LayoutRow* rowOfTrack(TrackIndex t) const;
    const LayoutRow* rowOfProcess(ProcessIndex p) const;  // nullptr when not shown
    const TrackMetrics& metrics() const { return metrics_; }
    // Content y of the top of nesting level `depth` in a track row.
    int depthTop(const LayoutRow& row, uint32_t depth) const {
        return row.y + row.slicesTop + int(depth) * metrics_.sliceRow;
    }

private:
    std::vector<LayoutRow> rows_;
    std::vector<int> trackRow_;    // track -> row index or -1
    std::vector<int> processRow_;  // process -> row index
    int height_ = 0;
    TrackMetrics metrics_;
};

}  // namespace tracescope
