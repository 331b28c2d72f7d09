#include "model/query/timeline_layout.h"

#include "model/query/slice_queries.h"
#include "model/trace/gallop.h"

#include <algorithm>
#include <cmath>

namespace tracescope {

bool TimelineHighlight::contains(const Trace& trace, SliceRef s) const {
    if (!nameMatches.empty()) {
        const StringId name = trace.tracks[s.track].slices.name[s.index];
        if (name < nameMatches.size() && nameMatches[name]) return true;
    }
    return !refs.empty() && refs.count(key(s));
}

namespace {

using M = FrameMetrics;

// The boxes of depths [firstDepth, endDepth) of one slice track.
struct SliceTrackLayout {
    const Trace& trace;
    const SliceDepthIndex& index;
    const SliceDepthMipmap* coarse;
    const TimeAxis& axis;
    const FrameRequest& request;
    const bool highlighting;
    std::vector<FrameBox>& out;

    void run(TrackIndex t, int depthTop, int rowHeight, uint32_t firstDepth, uint32_t endDepth) {
        const SliceColumns& c = trace.tracks[t].slices;
        const double right = axis.width();
        endDepth = std::min(endDepth, index.depthCount(t));
        for (uint32_t d = firstDepth; d < endDepth; ++d) {
            const SliceDepthIndex::Level level = index.atDepth(t, d);
            const int y = depthTop + int(d) * rowHeight;
            // An open fold: pixel columns [foldX0, foldX1) holding only narrow slices.
            int foldX0 = 0, foldX1 = -1;
            uint32_t foldSlice = 0;
            bool foldMatch = false;  // a member we looked at is highlighted (we never scan them all)
            auto flushFold = [&] {
                if (foldX1 <= foldX0) return;
                out.push_back({t, foldSlice, d, foldX0, foldX1, y, uint8_t(FrameBox::Folded | (foldMatch ? FrameBox::Match : 0))});
                foldX1 = -1;
                foldMatch = false;
            };
            auto openFold = [&](int x0, int x1, uint32_t k) {
                flushFold();
                foldX0 = x0;
                foldX1 = x1;
                foldSlice = k;
            };
            // A slice at least kFoldWidth px wide: its own box.
            auto addSlice = [&](uint32_t k, double x0, double x1) {
                const SliceRef ref{t, k};
                const int ix0 = int(std::floor(std::max(x0, -2.0)));
                const int ix1 = int(std::ceil(std::min(x1, right + 2)));
                // Leave a 1 px seam between neighbours that are wide enough to spare it.
                const int w = (ix1 - ix0) >= 4 ? ix1 - ix0 - 1 : ix1 - ix0;
                uint8_t flags = 0;
                if (highlighting && request.highlight->contains(trace, ref)) flags |= FrameBox::Match;
                if (ref == request.selected) flags |= FrameBox::Selected;
                if (w >= M::kMinLabelWidth) flags |= FrameBox::Label;
                out.push_back({t, k, d, ix0, ix0 + w, y, flags});
            };
            // Zoomed out far enough that a pixel spans a whole bucket of a coarse level:
            // walk the buckets instead of the slices, so the cost does not grow with the
            // trace. A bucket counts as a match when its longest slice does (a sample,
            // as the exact path's folds are).
            const SliceDepthMipmap::Level cl =
                coarse ? coarse->levelFor(t, d, axis.nsPerPx()) : SliceDepthMipmap::Level{};
            if (cl.valid()) {
                const double pxPerNs = 1.0 / axis.nsPerPx();
                size_t b = cl.bucketOf(TimeNs(std::floor(axis.begin())));
                const size_t bEnd = std::min(cl.size(), cl.bucketOf(TimeNs(std::ceil(axis.end()))) + 1);
                // A covered bucket whose longest slice lasts at most narrowMax + 1 bucket
                // widths is under kFoldWidth px: narrow without a look at the event columns.
                const int narrowMax = std::min(254, int(std::floor(M::kFoldWidth / (double(cl.width) * pxPerNs))) - 1);
                auto narrow = [&](size_t bucket) { return int(cl.widths[bucket]) <= narrowMax; };
                auto bucketMatches = [&](size_t bucket) {
                    if (!highlighting) return false;
                    const TimelineHighlight& hl = *request.highlight;
                    const StringId name = cl.names[bucket];
                    if (name < hl.nameMatches.size() && hl.nameMatches[name]) return true;
                    return !hl.refs.empty() && hl.refs.count(TimelineHighlight::key({t, cl.rep[bucket]})) > 0;
                };
                while (b < bEnd) {
                    const uint32_t k = cl.rep[b];
                    if (k == SliceDepthMipmap::kNone) {
                        ++b;
                        continue;
                    }
                    if (!narrow(b)) {
                        const double x0 = axis.x(double(c.start[k]));
                        const double x1 = axis.x(double(c.end(k)));
                        if (x1 - x0 >= M::kFoldWidth) {
                            flushFold();
                            addSlice(k, x0, x1);
                            // Continue after it; the bucket holding its end may hold narrow
                            // slices after it, less than a pixel wide together.
                            b = std::max(b + 1, cl.bucketOf(c.end(k)));
                            if (b < cl.size() && cl.rep[b] == k) ++b;
                            continue;
                        }
                    }
                    // Narrow: this bucket and the covered narrow ones right after it join the
                    // open fold (bridging a one-column gap, as the exact path's kFoldJump-column
                    // jumps do) or start a new one. A fold is a match when any bucket in it is.
                    bool match = bucketMatches(b);
                    size_t e = b + 1;
                    while (e < bEnd && cl.rep[e] != SliceDepthMipmap::kNone && narrow(e)) {
                        if (highlighting && !match) match = bucketMatches(e);
                        ++e;
                    }
                    const int col0 = int(std::floor(std::max(axis.x(double(cl.bucketStart(b))), -2.0)));
                    const int col1 = std::max(col0 + 1, int(std::ceil(axis.x(double(cl.bucketStart(e))))));
                    if (foldX1 >= 0 && col0 <= foldX1 + 1) foldX1 = std::max(foldX1, col1);
                    else openFold(col0, col1, k);
                    foldMatch = foldMatch || match;
                    b = e;
                }
                flushFold();
                continue;
            }
            size_t i = level.firstEndingAfter(TimeNs(std::floor(axis.begin())));
            const double windowEnd = axis.end();
            while (i < level.size()) {
                const uint32_t k = level[i];
                const double start = double(c.start[k]);
                if (start >= windowEnd) break;
                const double x0 = axis.x(start);
                const double x1 = axis.x(start + double(c.duration[k]));
                if (x1 - x0 < M::kFoldWidth) {
                    // Narrow: fold every slice starting in this pixel column into the run, then jump.
                    const int col = int(std::floor(x0));
                    if (foldX1 >= 0 && col <= foldX1) foldX1 = std::max(foldX1, col + 1);
                    else openFold(col, col + 1, k);
                    // Absorb every slice starting within the next kFoldJump columns (gaps that
                    // small do not show at this zoom anyway): one search per kFoldJump pixels.
                    const TimeNs nextColumn = TimeNs(std::ceil(axis.time(double(col + M::kFoldJump))));
                    if (highlighting) foldMatch = foldMatch || request.highlight->contains(trace, {t, k});
                    TimeNs absorbedEnd = -1;
                    const TimeNs slack = TimeNs(std::ceil(axis.nsPerPx()));
                    const size_t j = std::max(i + 1, level.skipStartingBefore(nextColumn, slack, i + 1, &absorbedEnd));
                    if (absorbedEnd >= 0) {
                        // Skipped by whole blocks: every absorbed slice ends by absorbedEnd (< 1 px past the jump).
                        foldX1 = std::max(foldX1, int(std::ceil(axis.x(double(absorbedEnd)))));
                        i = j;
                        continue;
                    }
                    // The last slice absorbed may reach further (same-depth slices never
                    // overlap, so only that one can): its own box if wide, else the run covers it.
                    const uint32_t last = level[j - 1];
                    if (highlighting) foldMatch = foldMatch || request.highlight->contains(trace, {t, last});
                    const double lastX0 = axis.x(double(c.start[last]));
                    const double lastX1 = axis.x(double(c.end(last)));
                    if (j - 1 > i && lastX1 - lastX0 >= M::kFoldWidth) {
                        foldX1 = std::max(foldX1, int(std::ceil(lastX0)));
                        i = j - 1;
                    } else {
                        foldX1 = std::max(foldX1, int(std::ceil(std::max(lastX0 + 1, lastX1))));
                        i = j;
                    }
                    continue;
                }
                flushFold();
                ++i;
                addSlice(k, x0, x1);
            }
            flushFold();
        }
    }
};

// One marker per pixel column holding at least one instant; markers closer than
// kMarkerMergeGap merge into one run. A galloping search from the last one finds
// the next column's first instant.
void layoutInstants(const Trace& trace, const TimeAxis& axis, TrackIndex t, int y, int size,
                    std::vector<FrameInstants>& out) {
    const InstantColumns& in = trace.tracks[t].instants;
    if (in.empty()) return;
    const double w = axis.width();
    FrameInstants run{t, 0, -1, 0, y, size};
    auto flush = [&] {
        if (run.x1 >= run.x0) out.push_back(run);
        run.x1 = -1;
    };
    auto it = std::lower_bound(in.time.begin(), in.time.end(), TimeNs(std::floor(axis.begin())));
    while (it != in.time.end()) {
        const double x = axis.x(double(*it));
        if (x > w) break;
        const double cx = std::floor(x) + 0.5;
        if (run.x1 >= 0 && cx - run.x1 <= M::kMarkerMergeGap) {
            run.x1 = cx;
        } else {
            flush();
            run.x0 = run.x1 = cx;
            run.name = in.name[size_t(it - in.time.begin())];
        }
        const TimeNs nextColumn = TimeNs(std::ceil(axis.time(std::floor(x) + 1)));
        it = gallopLowerBound(it + 1, in.time.end(), nextColumn);
    }
    flush();
}

}  // namespace

void layoutFrame(const Trace& trace, const TrackLayout& tracks, const SliceDepthIndex* depths,
                 const SliceDepthMipmap* coarse, const FrameRequest& request, FrameLayout& out) {
    out.clear();
    const TimeAxis& axis = *request.axis;
    out.highlighting = request.highlight && request.highlight->active();
    const TrackMetrics& m = tracks.metrics();
    static const SliceDepthIndex kNoDepths;
    SliceTrackLayout slices{trace, depths ? *depths : kNoDepths, coarse, axis, request, out.highlighting, out.boxes};
    const auto& rows = tracks.rows();
    // The rows meeting content [viewTop, viewBottom).
    auto layoutRows = [&](size_t r, size_t rEnd, int viewTop, int viewBottom) {
        for (; r < rEnd; ++r) {
            const LayoutRow& row = rows[r];
            if (row.y >= viewBottom) break;
            FrameRow fr;
            fr.row = uint32_t(r);
            fr.boxBegin = uint32_t(out.boxes.size());
            fr.instantBegin = uint32_t(out.instants.size());
            if (row.kind == LayoutRow::Kind::Track && depths) {
                const Track& track = trace.tracks[row.track];
                switch (track.kind) {
                case TrackKind::Thread:
                case TrackKind::Async: {
                    const int depthTop = row.y + row.slicesTop;
                    const int visTop = std::max(viewTop, row.y);
                    fr.firstDepth = uint32_t(std::max(0, (visTop - depthTop) / m.sliceRow));
                    fr.endDepth = std::min(row.depths, uint32_t(std::max(0, (std::min(viewBottom, row.y + row.height) - depthTop) /
                                                                                m.sliceRow + 1)));
                    if (!track.slices.empty()) slices.run(row.track, depthTop, m.sliceRow, fr.firstDepth, fr.endDepth);
                    layoutInstants(trace, axis, row.track, row.y + m.trackPadding, m.markerStrip - 1, out.instants);
                    break;
                }
                case TrackKind::Markers:
                    layoutInstants(trace, axis, row.track, row.y + 2, row.height - 4, out.instants);
                    break;
                case TrackKind::Counter: break;  // counters are drawn from their range index
                }
            }
            fr.boxEnd = uint32_t(out.boxes.size());
            fr.instantEnd = uint32_t(out.instants.size());
            out.rows.push_back(fr);
        }
    };
    // The pinned strip stays put; the rest scrolls under it.
    const int pinned = tracks.pinnedHeight();
    const size_t firstScrolled = tracks.firstRowBelow(pinned);
    layoutRows(0, firstScrolled, 0, std::min(pinned, request.viewportHeight));
    const int viewTop = request.scrollY + pinned, viewBottom = request.scrollY + request.viewportHeight;
    layoutRows(std::max(firstScrolled, tracks.firstRowBelow(viewTop)), rows.size(), viewTop, viewBottom);
}

SliceRef sliceAtPoint(const Trace& trace, const TrackLayout& tracks, const SliceDepthIndex& depths, const TimeAxis& axis,
                      double x, int y) {
    if (x < 0 || y < 0) return {};
    const LayoutRow* row = tracks.rowAt(y);
    if (!row || row->kind != LayoutRow::Kind::Track) return {};
    const Track& track = trace.tracks[row->track];
    if (track.kind != TrackKind::Thread && track.kind != TrackKind::Async) return {};
    const int dy = y - row->y - row->slicesTop;
    if (dy < 0) return {};
    const auto depth = uint32_t(dy / tracks.metrics().sliceRow);
    SliceRef hit = sliceAt(trace, depths, row->track, TimeNs(std::floor(axis.time(x))), depth);
    if (hit.valid()) return hit;
    // Tolerance for slices narrower than a pixel: the nearest within 3 px.
    const SliceColumns& c = track.slices;
    const SliceDepthIndex::Level level = depths.atDepth(row->track, depth);
    const double t = axis.time(x), tol = 3 * axis.nsPerPx();
    size_t i = level.firstEndingAfter(TimeNs(std::floor(t - tol)));
    SliceRef best;
    double bestDist = tol + 1;
    for (; i < level.size() && double(c.start[level[i]]) <= t + tol; ++i) {
        const uint32_t k = level[i];
        const double dist = t < double(c.start[k]) ? double(c.start[k]) - t : std::max(0.0, t - double(c.end(k)));
        if (dist < bestDist) {
            bestDist = dist;
            best = {row->track, k};
        }
        if (best.valid() && dist > bestDist) break;  // moving away from t
    }
    return best;
}

}  // namespace tracescope
