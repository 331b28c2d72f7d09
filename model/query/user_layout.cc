#include "model/query/user_layout.h"

#include "model/export/json_text.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace tracescope {

namespace {

template <typename T>
bool parseNumber(std::string_view s, T& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ') ++i;
        if (i > b) out.push_back(line.substr(b, i - b));
    }
    return out;
}

void appendFlags(std::string& out, const char* key, const std::vector<uint8_t>& flags) {
    std::string line;
    for (size_t i = 0; i < flags.size(); ++i)
        if (flags[i]) line += " " + std::to_string(i);
    if (!line.empty()) out += key + line + "\n";
}

void appendRanks(std::string& out, const char* key, const std::vector<int32_t>& ranks) {
    if (ranks.empty()) return;
    out += key;
    for (int32_t r : ranks) out += " " + std::to_string(r);
    out += "\n";
}

// Labels are one line: newlines become spaces.
std::string oneLine(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::replace(s.begin(), s.end(), '\r', ' ');
    return s;
}

// A field of a query-track line: backslash, tab and line breaks written as \\ \t \n \r.
std::string escapeField(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        default: out += c;
        }
    }
    return out;
}

// The fields of "a\tb" with their escapes undone; an unknown escape keeps its character.
std::vector<std::string> unescapeFields(std::string_view s) {
    std::vector<std::string> fields(1);
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\t') {
            fields.emplace_back();
        } else if (s[i] == '\\' && i + 1 < s.size()) {
            const char e = s[++i];
            fields.back() += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e;
        } else {
            fields.back() += s[i];
        }
    }
    return fields;
}

}  // namespace

void TimelineUserLayout::fitTo(const Trace& trace) {
    options.collapsed.resize(trace.processes.size(), 0);
    options.hiddenTracks.resize(trace.tracks.size(), 0);
    options.pinnedTracks.resize(trace.tracks.size(), 0);
    counterModes.resize(trace.tracks.size(), 0);
    if (!options.processRank.empty()) options.processRank.resize(trace.processes.size(), 0);
    if (!options.trackRank.empty()) options.trackRank.resize(trace.tracks.size(), 0);
}

bool TimelineUserLayout::isDefault() const {
    auto none = [](const std::vector<uint8_t>& v) { return std::none_of(v.begin(), v.end(), [](uint8_t f) { return f; }); };
    return none(options.collapsed) && none(options.hiddenTracks) && none(options.pinnedTracks) &&
           options.processRank.empty() && options.trackRank.empty() && bookmarks.empty() && none(counterModes) &&
           options.hiddenDerived.empty() && queryTracks.empty();
}

std::string serializeUserLayout(const TimelineUserLayout& layout) {
    std::string out;
    appendFlags(out, "collapsed", layout.options.collapsed);
    appendFlags(out, "hidden", layout.options.hiddenTracks);
    appendFlags(out, "pinned", layout.options.pinnedTracks);
    appendRanks(out, "process-rank", layout.options.processRank);
    appendRanks(out, "track-rank", layout.options.trackRank);
    for (uint8_t mode : {1, 2}) {
        std::vector<uint8_t> flags(layout.counterModes.size());
        for (size_t t = 0; t < flags.size(); ++t) flags[t] = layout.counterModes[t] == mode;
        appendFlags(out, mode == 1 ? "counter-steps" : "counter-lines", flags);
    }
    for (const std::string& name : layout.options.hiddenDerived) out += "hidden-derived " + oneLine(name) + "\n";
    for (const Bookmark& b : layout.bookmarks) out += "bookmark " + std::to_string(b.time) + " " + oneLine(b.label) + "\n";
    for (const SavedQueryTrack& q : layout.queryTracks)
        out += "query-track " + escapeField(q.name) + "\t" + escapeField(q.sql) + "\n";
    return out;
}

TimelineUserLayout parseUserLayout(const std::string& text, const Trace& trace) {
    TimelineUserLayout layout;
    layout.fitTo(trace);
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const std::vector<std::string_view> w = words(line);
        if (w.empty()) continue;
        auto setFlags = [&](std::vector<uint8_t>& flags) {
            for (size_t i = 1; i < w.size(); ++i) {
                size_t k = 0;
                if (parseNumber(w[i], k) && k < flags.size()) flags[k] = 1;
            }
        };
        auto setRanks = [&](std::vector<int32_t>& ranks, size_t count) {
            if (w.size() != count + 1) return;  // another trace's layout: ignore the order
            ranks.assign(count, 0);
            for (size_t i = 1; i < w.size(); ++i)
                if (!parseNumber(w[i], ranks[i - 1])) ranks[i - 1] = 0;
        };
        if (w[0] == "collapsed") setFlags(layout.options.collapsed);
        else if (w[0] == "hidden") setFlags(layout.options.hiddenTracks);
        else if (w[0] == "pinned") setFlags(layout.options.pinnedTracks);
        else if (w[0] == "process-rank") setRanks(layout.options.processRank, trace.processes.size());
        else if (w[0] == "track-rank") setRanks(layout.options.trackRank, trace.tracks.size());
        else if (w[0] == "counter-steps" || w[0] == "counter-lines") {
            const uint8_t mode = w[0] == "counter-steps" ? 1 : 2;
            for (size_t i = 1; i < w.size(); ++i) {
                size_t k = 0;
                if (parseNumber(w[i], k) && k < layout.counterModes.size()) layout.counterModes[k] = mode;
            }
        } else if (w[0] == "hidden-derived" && w.size() >= 2) {
            // The name as written (it may hold spaces), after the key and one space.
            const std::string name = line.substr(size_t(w[0].data() - line.data()) + w[0].size() + 1);
            auto& hidden = layout.options.hiddenDerived;
            if (std::find(hidden.begin(), hidden.end(), name) == hidden.end()) hidden.push_back(name);
        } else if (w[0] == "query-track" && w.size() >= 2) {
            const size_t at = size_t(w[0].data() - line.data()) + w[0].size() + 1;
            std::vector<std::string> f = unescapeFields(std::string_view(line).substr(std::min(at, line.size())));
            if (f.size() != 2 || f[0].empty() || f[1].empty()) continue;  // not a line we wrote
            SavedQueryTrack q{std::move(f[0]), std::move(f[1])};
            auto same = std::find_if(layout.queryTracks.begin(), layout.queryTracks.end(),
                                     [&](const SavedQueryTrack& o) { return o.name == q.name; });
            if (same != layout.queryTracks.end()) *same = std::move(q);
            else layout.queryTracks.push_back(std::move(q));
        } else if (w[0] == "bookmark" && w.size() >= 2) {
            Bookmark b;
            if (!parseNumber(w[1], b.time)) continue;
            const size_t labelAt = size_t(w[1].data() - line.data()) + w[1].size();
            b.label = labelAt < line.size() ? line.substr(labelAt + 1) : std::string();
            layout.bookmarks.push_back(std::move(b));
        }
    }
    std::sort(layout.bookmarks.begin(), layout.bookmarks.end(),
              [](const Bookmark& a, const Bookmark& b) { return a.time < b.time; });
    return layout;
}

std::string bookmarksJson(const std::vector<Bookmark>& bookmarks, const Trace& trace) {
    std::string out = "{\"bookmarks\":[";
    for (size_t i = 0; i < bookmarks.size(); ++i) {
        if (i) out += ",";
        out += "{\"time_ns\":";
        jsontext::appendInt(out, bookmarks[i].time);
        out += ",\"offset_ns\":";
        jsontext::appendInt(out, minusSat(bookmarks[i].time, trace.startNs));  // a saved time may be any int64
        out += ",\"label\":";
        jsontext::appendString(out, bookmarks[i].label);
        out += "}";
    }
    out += "]}\n";
    return out;
}

}  // namespace tracescope
