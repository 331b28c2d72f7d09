// A query's result as a timeline counter track ("Add as track"): one sample per row from its
// `ts` and `value` columns, in time order, shown under the process the rows name (an `upid`
// column, else the process of a `track_id` column, else the trace's first process). Rows whose ts
// or value is not a number are left out and counted.
#pragma once

#include "model/analysis/memory_tracks.h"
#include "model/sql/trace_database.h"

#include <string>
#include <vector>

namespace tracescope::sql {

class QueryTrackBuilder {
public:
    QueryTrackBuilder(const Trace& trace, const std::vector<std::string>& columns);
    // True when the columns hold ts and value; else whyNot() says what is missing.
    bool usable() const { return ts_ >= 0 && value_ >= 0; }
    std::string whyNot() const;
    void add(const SqlRow& row);
    // The track named `name`, made from `sql`; `skipped` (may be null) gets the rows left out.
    DerivedCounterTrack finish(std::string name, std::string sql, uint64_t* skipped = nullptr);

private:
    const Trace& trace_;
    int ts_ = -1, value_ = -1, upid_ = -1, track_ = -1;
    ProcessIndex process_ = kNoIndex;
    std::vector<std::pair<TimeNs, double>> samples_;
    uint64_t skipped_ = 0;
};

}  // namespace tracescope::sql
