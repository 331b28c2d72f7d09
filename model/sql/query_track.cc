#include "model/sql/query_track.h"

#include <algorithm>
#include <cmath>

namespace tracescope::sql {

QueryTrackBuilder::QueryTrackBuilder(const Trace& trace, const std::vector<std::string>& columns) : trace_(trace) {
    for (int i = 0; i < int(columns.size()); ++i) {
        const std::string& c = columns[size_t(i)];
        if (c == "ts" && ts_ < 0) ts_ = i;
        else if (c == "value" && value_ < 0) value_ = i;
        else if (c == "upid" && upid_ < 0) upid_ = i;
        else if (c == "track_id" && track_ < 0) track_ = i;
    }
}

std::string QueryTrackBuilder::whyNot() const {
    if (usable()) return {};
    return "a track needs the columns ts (ns) and value; this result has " +
           std::string(ts_ < 0 && value_ < 0 ? "neither" : ts_ < 0 ? "no ts" : "no value");
}

void QueryTrackBuilder::add(const SqlRow& row) {
    if (!usable()) return;
    const int tsType = row.type(ts_), valueType = row.type(value_);
    const bool number = valueType == SQLITE_INTEGER || valueType == SQLITE_FLOAT;
    if (tsType != SQLITE_INTEGER || !number || !std::isfinite(row.real(value_))) {
        ++skipped_;
        return;
    }
    samples_.emplace_back(row.integer(ts_), row.real(value_));
    // The first row that names a process places the track.
    if (process_ != kNoIndex) return;
    if (upid_ >= 0 && row.type(upid_) == SQLITE_INTEGER && uint64_t(row.integer(upid_)) < trace_.processes.size())
        process_ = ProcessIndex(row.integer(upid_));
    else if (track_ >= 0 && row.type(track_) == SQLITE_INTEGER && uint64_t(row.integer(track_)) < trace_.tracks.size())
        process_ = trace_.tracks[size_t(row.integer(track_))].process;
}

DerivedCounterTrack QueryTrackBuilder::finish(std::string name, std::string sql, uint64_t* skipped) {
    std::stable_sort(samples_.begin(), samples_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    DerivedCounterTrack d;
    d.source = DerivedSource::Query;
    d.process = process_ != kNoIndex ? process_ : (trace_.processes.empty() ? kNoIndex : 0);
    d.name = std::move(name);
    d.query = std::move(sql);
    d.series.time.reserve(samples_.size());
    d.series.value.reserve(samples_.size());
    for (const auto& [t, v] : samples_) {
        d.series.time.push_back(t);
        d.series.value.push_back(v);
    }
    if (skipped) *skipped = skipped_;
    return d;
}

}  // namespace tracescope::sql
