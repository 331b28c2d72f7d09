// Painting one track's content into the track area. Slices, folded runs and
// instant markers are drawn exactly as the layout step (model/query/
// timeline_layout.h) placed them, counters as model/query/counter_layout.h
// did: the painter decides colours, text and outlines, never which boxes,
// runs or vertices a frame has.
#pragma once

#include "model/query/counter_layout.h"
#include "model/query/time_axis.h"
#include "model/query/timeline_layout.h"
#include "model/trace/trace.h"
#include "views/timeline/color_palette.h"
#include "views/timeline/timeline_index.h"

#include <QColor>
#include <QFont>
#include <QHash>
#include <QString>

#include <unordered_map>
#include <unordered_set>
#include <vector>

class QPainter;

namespace tracescope {

// UTF-8 names converted to QString once; the short forms when given some.
class NameCache {
public:
    const QString& get(const Trace& trace, StringId id);
    // Short forms by id (nullptr: full names); clears the cache.
    void setShortNames(const std::unordered_map<StringId, std::string>* shortNames) {
        shortNames_ = shortNames;
        names_.clear();
    }
    void clear() { names_.clear(); }

private:
    QHash<StringId, QString> names_;
    const std::unordered_map<StringId, std::string>* shortNames_ = nullptr;
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
    int top = 0;           // widget y of content y 0 (the layout's y origin, scrolled)
    int rowHeight = 18;    // one nesting level
    QColor background;     // for dimming non-matches
    QColor text;           // default text colour (counter labels)
    QColor accent;         // selection / match outline
};

// The boxes and instant markers the layout placed in one row of a frame.
void paintFrameRow(const TrackPaintContext& ctx, const FrameLayout& frame, const FrameRow& row);
// A counter row's frame (model/query/counter_layout.h) as an area chart, steps or
// a line, with its max (and negative min) scale labels, inside [top, top + height);
// `bytes` labels values in bytes.
void paintCounterFrame(const TrackPaintContext& ctx, const CounterFrame& frame, const CounterRangeIndex& range,
                       const std::string& name, int top, int height, bool bytes);
// A derived track's boxes (a query's ts/dur rows), one slice row per lane from top + padding;
// boxes that fall in a pixel already drawn are merged into it.
void paintSpanLanes(const TrackPaintContext& ctx, const DerivedSpans& spans, int top, int padding, int areaWidth);
// The value under the cursor (track-area x `x`): a marker on the curve and a readout beside it.
void paintCounterHover(const TrackPaintContext& ctx, const CounterHover& hover, const CounterScale& scale,
                       CounterDrawMode mode, double x, int top, int height, int areaRight, bool bytes);
// The readout's text: "100 since 2.000 µs", "75 on the line from … to …", "120 samples in this pixel: 3 … 9".
QString counterReadout(const CounterHover& hover, CounterDrawMode mode, bool bytes);
// An arrow from (x0, y0) to (x1, y1).
void paintFlowArrow(QPainter& p, QPointF from, QPointF to, const QColor& color);
// "1.2 G", "350 k", "12.5": compact numbers for counter scales.
QString formatCounterValue(double v);

}  // namespace tracescope
