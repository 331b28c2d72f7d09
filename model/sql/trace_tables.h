// The trace's own tables for SQL, named and shaped as Perfetto's trace_processor names its
// tables: slice, instant, track, thread, process, counter, flow, args, metadata. Each is a
// virtual table over the Trace's columns (sql_table.h): scans narrowed by time, track, id and
// name, rows in time order on request, nothing copied.
//
// Ids: a slice's id numbers the slices of every track in track order (track 0's slices first),
// so `id` is stable for one file and one version; instants and counter samples likewise;
// tracks, threads (utid) and processes (upid) are their indices. Times (ts, dur) are integer ns
// on the trace's clock, as every other output of tracescope-cli gives them.
#pragma once

#include "model/sql/sql_table.h"
#include "model/trace/trace.h"

#include <vector>

namespace tracescope::sql {

// Prefix sums of rows per track: the first id of each track's slices, instants and samples.
class TraceRowIds {
public:
    explicit TraceRowIds(const Trace& trace);
    int64_t slice(TrackIndex t, uint32_t i) const { return sliceBase_[t] + i; }
    int64_t instant(TrackIndex t, uint32_t i) const { return instantBase_[t] + i; }
    int64_t sample(TrackIndex t, uint32_t i) const { return sampleBase_[t] + i; }
    // The track and index of an id; false when there is none.
    bool sliceAt(int64_t id, TrackIndex& t, uint32_t& i) const { return locate(sliceBase_, id, t, i); }
    bool instantAt(int64_t id, TrackIndex& t, uint32_t& i) const { return locate(instantBase_, id, t, i); }
    bool sampleAt(int64_t id, TrackIndex& t, uint32_t& i) const { return locate(sampleBase_, id, t, i); }
    int64_t slices() const { return sliceBase_.back(); }
    int64_t instants() const { return instantBase_.back(); }
    int64_t samples() const { return sampleBase_.back(); }

private:
    static bool locate(const std::vector<int64_t>& base, int64_t id, TrackIndex& t, uint32_t& i);
    std::vector<int64_t> sliceBase_, instantBase_, sampleBase_;  // tracks + 1 entries
};

// The table definitions of one trace (they hold references to it: the trace outlives them).
std::vector<SqlTableDef> traceTableDefs(const Trace& trace, const TraceRowIds& ids, SqlScanState& scan);

// A track's kind as the `track` table names it: thread, async, counter, markers.
const char* trackKindName(TrackKind kind);

}  // namespace tracescope::sql
