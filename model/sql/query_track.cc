#include "model/sql/query_track.h"

#include <algorithm>
#include <cmath>

namespace tracescope::sql {

QueryTrackBuilder::QueryTrackBuilder(const Trace& trace, const std::vector<std::string>& columns) : trace_(trace) {
    for (int i = 0; i < int(columns.size()); ++i) {
        const std::string& c = columns[size_t(i)];
        if (c == "ts" && ts_ < 0) ts_ = i;
        else if (c == "value" && value_ < 0) value_ = i;
        else if (c == "dur" && dur_ < 0) dur_ = i;
        else if (c == "name" && name_ < 0) name_ = i;
        else if (c == "upid" && upid_ < 0) upid_ = i;
        else if (c == "track_id" && track_ < 0) track_ = i;
    }
}

std::string QueryTrackBuilder::whyNot() const {
    if (usable()) return {};
    return "a track needs the columns ts (ns) and dur (ns) or value; this result has " +
           std::string(ts_ < 0 ? "no ts" : "neither dur nor value");
}

void QueryTrackBuilder::add(const SqlRow& row) {
    if (!usable()) return;
    if (row.type(ts_) != SQLITE_INTEGER) {
        ++skipped_;
        return;
    }
    const TimeNs ts = row.integer(ts_);
    if (spans()) {
        const TimeNs dur = row.type(dur_) == SQLITE_INTEGER ? row.integer(dur_) : -1;
        if (dur < 0) {
            ++skipped_;
            return;
        }
        std::string name = name_ >= 0 && row.type(name_) != SQLITE_NULL ? std::string(row.text(name_)) : std::string();
        auto [it, added] = nameIds_.try_emplace(std::move(name), uint32_t(names_.size()));
        if (added) names_.push_back(it->first);
        boxes_.push_back({ts, plusSat(ts, dur), it->second});
    } else {
        const int valueType = row.type(value_);
        const bool number = valueType == SQLITE_INTEGER || valueType == SQLITE_FLOAT;
        if (!number || !std::isfinite(row.real(value_))) {
            ++skipped_;
            return;
        }
        samples_.emplace_back(ts, row.real(value_));
    }
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
    if (spans()) {
        // First fit: a box goes to the first lane whose last box ended by its start.
        std::stable_sort(boxes_.begin(), boxes_.end(), [](const Box& a, const Box& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;  // the enclosing box first
        });
        DerivedSpans& s = d.spans;
        s.names = std::move(names_);
        s.count = boxes_.size();
        std::vector<TimeNs> laneEnd;
        for (const Box& b : boxes_) {
            size_t lane = 0;
            while (lane < laneEnd.size() && laneEnd[lane] > b.start) ++lane;
            if (lane == kMaxSpanLanes) lane = kMaxSpanLanes - 1;
            if (lane == laneEnd.size()) {
                laneEnd.push_back(b.end);
                s.lanes.emplace_back();
            }
            laneEnd[lane] = std::max(laneEnd[lane], b.end);
            DerivedSpans::Lane& l = s.lanes[lane];
            l.start.push_back(b.start);
            l.end.push_back(b.end);
            l.name.push_back(b.name);
            l.longest = std::max(l.longest, b.end - b.start);
        }
        if (skipped) *skipped = skipped_;
        return d;
    }
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
