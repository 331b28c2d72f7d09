// What the user made of the timeline of one trace: the track layout options
// (collapsed, hidden and pinned tracks, their own order) and bookmarks. Kept
// beside the Trace (which stays as imported), saved per file by the GUI and
// restored when the same file is opened again.
#pragma once

#include "model/query/track_layout.h"
#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

struct Bookmark {
    TimeNs time = 0;  // trace time (the trace's own clock, as slices)
    std::string label;
};

// A track the user made from a query (the Query page's "Add as track"): saved as its SQL, run
// again when the file opens.
struct SavedQueryTrack {
    std::string name;
    std::string sql;
    bool operator==(const SavedQueryTrack&) const = default;
};

struct TimelineUserLayout {
    TrackLayoutOptions options;  // the name filter is not part of a saved layout
    std::vector<Bookmark> bookmarks;
    // Per track: how the user chose to draw a counter track (0: as the View menu says,
    // else 1 + CounterDrawMode: 1 steps, 2 lines).
    std::vector<uint8_t> counterModes;
    std::vector<SavedQueryTrack> queryTracks;  // in the order they were added

    // Sizes every per-process / per-track vector to the trace (new entries default).
    void fitTo(const Trace& trace);
    bool isDefault() const;
};

// A line-based text form ("collapsed 1 4", "hidden 7", "pinned 2", "process-rank 0 2 1",
// "track-rank …", "counter-steps 3", "counter-lines 5", "hidden-derived <name>", "bookmark <time> <label>", "query-track <name>\t<sql>" with
// backslash, tab and line breaks escaped), for
// settings files. Parsing is lenient: unknown lines, bad numbers and indices outside the trace are skipped, never
// trusted.
std::string serializeUserLayout(const TimelineUserLayout& layout);
TimelineUserLayout parseUserLayout(const std::string& text, const Trace& trace);

// Bookmarks as JSON ({"bookmarks":[{"time_ns":…,"offset_ns":…,"label":…}]}), times also
// given from the trace's start, for exporting with a view.
std::string bookmarksJson(const std::vector<Bookmark>& bookmarks, const Trace& trace);

}  // namespace tracescope
