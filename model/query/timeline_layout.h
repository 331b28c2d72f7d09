// The timeline's layout step: for a time window, a pixel width, a vertical
// scroll position and the track layout, what a frame shows. Which rows at
// which y, which slices get their own box and which runs of narrow slices
// fold into one box at which pixel columns, which boxes have room for a label,
// which are selected or search matches, and where instant markers go.
//
// No Qt and no pixels: the painter in views/timeline only draws the boxes this
// returns, and tests check a frame's content here. Cost: per visible track
// depth, a binary search of the window, then one step per box or fold, so a
// frame costs O(pixels x depth x log n), never O(events). Zoomed out far enough
// that a pixel spans a bucket of the coarse mipmap, folds are walked bucket by
// bucket and the event columns are read only for wide slices.
#pragma once

#include "model/query/slice_depth_index.h"
#include "model/query/slice_depth_mipmap.h"
#include "model/query/time_axis.h"
#include "model/query/track_layout.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace tracescope {

// Slices to emphasise: search matches (by name) and an explicit set (from other views).
struct TimelineHighlight {
    std::vector<uint8_t> nameMatches;  // by StringId; empty when no search is active
    std::unordered_set<uint64_t> refs; // (track << 32) | index
    bool active() const { return !nameMatches.empty() || !refs.empty(); }
    bool contains(const Trace& trace, SliceRef s) const;
    static uint64_t key(SliceRef s) { return (uint64_t(s.track) << 32) | s.index; }
};

// Pixel thresholds of the layout.
struct FrameMetrics {
    static constexpr double kFoldWidth = 2.0;    // px: narrower slices fold into runs
    static constexpr int kFoldJump = 3;          // px: a fold absorbs slices starting this close to it
    static constexpr int kMinLabelWidth = 28;    // px: narrower boxes get no label
    static constexpr double kMarkerMergeGap = 2.0;  // px: instant ticks this close merge into one bar
};

// One box of a frame. x in track-area pixels (0 = the window's start), y in
// content coordinates (0 = top of the first row, before scrolling).
struct FrameBox {
    enum Flags : uint8_t { Folded = 1, Match = 2, Selected = 4, Label = 8 };
    TrackIndex track = kNoIndex;
    uint32_t slice = kNoIndex;  // the slice; for a fold, the run's first member (its colour)
    uint32_t depth = 0;
    int x0 = 0, x1 = 0;         // columns [x0, x1); a box leaves a 1 px seam when 4 px or wider
    int y = 0;                  // top of the box; its height is the slice row minus a 1 px gap
    uint8_t flags = 0;
    bool folded() const { return flags & Folded; }
    bool match() const { return flags & Match; }
    bool selected() const { return flags & Selected; }
    bool label() const { return flags & Label; }
};

// Instants are thin ticks, one per pixel column holding any (as Perfetto draws
// them); ticks closer than kMarkerMergeGap merge into one bar from x0 to x1 (column centres).
struct FrameInstants {
    TrackIndex track = kNoIndex;
    double x0 = 0, x1 = 0;
    StringId name = 0;  // the run's first instant (its colour)
    int y = 0;          // top of the markers (content coordinates)
    int size = 0;       // tick height
};

// A row of the track layout that shows in the viewport.
struct FrameRow {
    uint32_t row = 0;              // index into TrackLayout::rows() (pinned rows first)
    uint32_t firstDepth = 0, endDepth = 0;  // slice depths inside the viewport (track rows)
    uint32_t boxBegin = 0, boxEnd = 0;      // its boxes in FrameLayout::boxes
    uint32_t instantBegin = 0, instantEnd = 0;
};

struct FrameRequest {
    const TimeAxis* axis = nullptr;  // window and width in pixels
    int scrollY = 0;                 // content y at the top of the scrolled part (under the pinned strip)
    int viewportHeight = 0;
    SliceRef selected;
    const TimelineHighlight* highlight = nullptr;
};

struct FrameLayout {
    std::vector<FrameRow> rows;
    std::vector<FrameBox> boxes;
    std::vector<FrameInstants> instants;
    bool highlighting = false;  // a highlight is active: boxes without Match are drawn dimmed
    void clear() {
        rows.clear();
        boxes.clear();
        instants.clear();
        highlighting = false;
    }
};

// Fills `out` (cleared first; its buffers are reused between frames). `depths`
// and `coarse` may be null (index not built yet): then only rows are laid out.
void layoutFrame(const Trace& trace, const TrackLayout& tracks, const SliceDepthIndex* depths,
                 const SliceDepthMipmap* coarse, const FrameRequest& request, FrameLayout& out);

// The slice under track-area x `x` and content y `y`, with 3 px of tolerance
// for slices narrower than a pixel; invalid when none.
SliceRef sliceAtPoint(const Trace& trace, const TrackLayout& tracks, const SliceDepthIndex& depths, const TimeAxis& axis,
                      double x, int y);

}  // namespace tracescope
