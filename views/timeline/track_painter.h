// Painting one track's content (slices, instants, counters) into the track
// area for the visible time window. Each function costs
// O(pixels x visible depth x log n), never O(events): per depth it binary
// searches the window and folds runs of sub-pixel slices into one bar per
// pixel column (a folded bar spans the columns where at least one slice lies).
#pragma once

#include "model/trace/trace.h"
#include "views/timeline/color_palette.h"
#include "views/timeline/time_axis.h"
#include "views/timeline/timeline_index.h"

#include <QColor>
#include <QFont>
#include <QHash>
#include <QString>

#include <unordered_set>
#include <vector>

class QPainter;

namespace tracescope {

// Slices to emphasise: search matches (by name) and an explicit set (from other views).
struct TimelineHighlight {
    std::vector<uint8_t> nameMatches;  // by StringId; empty when no search is active
    std::unordered_set<uint64_t> refs; // (track << 32) | index
    bool active() const { return !nameMatches.empty() || !refs.empty(); }
    bool contains(const Trace& trace, SliceRef s) const;
    static uint64_t key(SliceRef s) { return (uint64_t(s.track) << 32) | s.index; }
};

// UTF-8 names converted to QString once.
class NameCache {
public:
    const QString& get(const Trace& trace, StringId id);
    void clear() { names_.clear(); }

private:
    QHash<StringId, QString> names_;
};

struct TrackPaintContext {
    QPainter* painter = nullptr;
    const Trace* trace = nullptr;
    const TimelineIndex* index = nullptr;
    const TimeAxis* axis = nullptr;
    ColorPalette* palette = nullptr;
    NameCache* names = nullptr;
    const TimelineHighlight* highlight = nullptr;
    SliceRef selected;
    double left = 0;       // widget x of time axis pixel 0
    int rowHeight = 18;    // one nesting level
    QColor background;     // for dimming non-matches
    QColor text;           // default text colour (counter labels)
    QColor accent;         // selection / match outline
};

// Slices of depths [firstDepth, endDepth) of a thread or async track; depth 0's top at `top` (widget y).
void paintSliceTrack(const TrackPaintContext& ctx, TrackIndex t, int top, uint32_t firstDepth, uint32_t endDepth);
// Instants of a track as small markers hanging from `top`; `height` is the marker row height.
void paintInstants(const TrackPaintContext& ctx, TrackIndex t, int top, int height);
// A counter track as an area chart with its min..max scale, inside [top, top + height).
void paintCounter(const TrackPaintContext& ctx, TrackIndex t, int top, int height);
// An arrow from (x0, y0) to (x1, y1).
void paintFlowArrow(QPainter& p, QPointF from, QPointF to, const QColor& color);
// "1.2 G", "350 k", "12.5": compact numbers for counter scales.
QString formatCounterValue(double v);

}  // namespace tracescope
