// Vertical layout of the timeline: a header row per process, then its tracks,
// in the default order (track_order.h: the file's sort indices, else the
// producer's convention; empty processes and tracks left out) unless the user
// reordered them. Collapsed processes show only their header. Derived tracks
// (counters an analysis computed, such as memory in use; model/analysis/memory_tracks.h)
// follow their process's own tracks.
//
// Pinned tracks come first, out of their processes, in a strip that stays at
// the top of the viewport while the rest scrolls under it (as Perfetto's pinned
// tracks do): content y in [0, pinnedHeight()) is never scrolled, content y at
// or below it is shown at y - scrollY.
#pragma once

#include "model/query/track_order.h"
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
    bool pinned = false;  // in the pinned strip at the top
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
    std::vector<uint8_t> pinnedTracks;  // per track: in the pinned strip (hidden still wins)
    // The user's order: a rank per process and per track, lower first; processes or tracks
    // of equal rank (or without ranks: empty vectors) keep the default order.
    std::vector<int32_t> processRank;
    std::vector<int32_t> trackRank;
    // Derived tracks shown under their process (not part of the Trace): counters, or boxes in
    // `lanes` rows (a query's ts/dur rows).
    struct DerivedTrack {
        ProcessIndex process = kNoIndex;
        std::string name;
        uint32_t lanes = 0;  // 0: a counter
    };
    std::vector<DerivedTrack> derived;
    // Names of the derived tracks not shown (names, not indices: derived tracks come and go
    // with their analysis, and a saved layout outlives them).
    std::vector<std::string> hiddenDerived;
};

// Moves process `moving` to just before `target` in the current order (after it when
// `after`), rewriting processRank. Returns false when either is not a process of the trace.
bool moveProcess(const Trace& trace, TrackLayoutOptions& options, ProcessIndex moving, ProcessIndex target, bool after);
// The same for two tracks of one process (trackRank); false across processes.
bool moveTrack(const Trace& trace, TrackLayoutOptions& options, TrackIndex moving, TrackIndex target, bool after);
// The processes and their tracks in the order the options give (hidden, pinned and filtered
// ones included: the order, not what is shown).
std::vector<OrderedProcess> userTrackOrder(const Trace& trace, const TrackLayoutOptions& options);

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
    // Height of the pinned strip (0 without pins); its rows come first.
    int pinnedHeight() const { return pinnedHeight_; }
    // Viewport y (0 = top of the track area) of a row, and the content y under a viewport y.
    int viewY(const LayoutRow& row, int scrollY) const { return row.pinned ? row.y : row.y - scrollY; }
    int contentY(int viewY, int scrollY) const { return viewY < pinnedHeight_ ? viewY : viewY + scrollY; }
    // Content y of the top of nesting level `depth` in a track row.
    int depthTop(const LayoutRow& row, uint32_t depth) const {
        return row.y + row.slicesTop + int(depth) * metrics_.sliceRow;
    }

private:
    std::vector<LayoutRow> rows_;
    std::vector<int> trackRow_;    // track -> row index or -1
    std::vector<int> processRow_;  // process -> row index
    int height_ = 0;
    int pinnedHeight_ = 0;
    TrackMetrics metrics_;
};

}  // namespace tracescope
