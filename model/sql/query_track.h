// A query's result as a timeline track ("Add as track"): with `ts` and `dur` columns, a box per
// row (labelled by its `name` column, overlapping boxes in lanes: DerivedSpans); else with `ts`
// and `value`, a counter with one sample per row, in time order. Shown under the process the
// rows name (an `upid` column, else the process of a `track_id` column, else the trace's first
// process). Rows whose ts, dur or value is not a number (or dur < 0) are left out and counted.
#pragma once

#include "model/analysis/memory_tracks.h"
#include "model/sql/trace_database.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tracescope::sql {

class QueryTrackBuilder {
public:
    QueryTrackBuilder(const Trace& trace, const std::vector<std::string>& columns);
    // True when the columns hold ts and dur or value; else whyNot() says what is missing.
    bool usable() const { return ts_ >= 0 && (dur_ >= 0 || value_ >= 0); }
    bool spans() const { return ts_ >= 0 && dur_ >= 0; }
    std::string whyNot() const;
    void add(const SqlRow& row);
    // The track named `name`, made from `sql`; `skipped` (may be null) gets the rows left out.
    DerivedCounterTrack finish(std::string name, std::string sql, uint64_t* skipped = nullptr);

private:
    const Trace& trace_;
    int ts_ = -1, value_ = -1, dur_ = -1, name_ = -1, upid_ = -1, track_ = -1;
    ProcessIndex process_ = kNoIndex;
    std::vector<std::pair<TimeNs, double>> samples_;
    struct Box {
        TimeNs start, end;
        uint32_t name;
    };
    std::vector<Box> boxes_;
    std::vector<std::string> names_;
    std::unordered_map<std::string, uint32_t> nameIds_;
    uint64_t skipped_ = 0;
};

}  // namespace tracescope::sql
