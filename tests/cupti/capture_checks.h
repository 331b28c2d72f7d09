// What the agent tests look at in an imported capture: events per name, flows, tracks,
// warnings and args, from our importer's Trace.
#pragma once

#include "model/import/xspace_importer.h"
#include "model/trace/args.h"
#include "model/trace/trace.h"

#include <map>
#include <string>
#include <vector>

namespace checks {

struct Summary {
    std::map<std::string, size_t> slices;    // by name, all tracks
    std::map<std::string, size_t> instants;  // by name
    std::vector<std::string> processes, tracks;
    std::vector<std::string> warnings;
    size_t flows = 0;
    bool hasTrack(const std::string& name) const {
        for (const std::string& t : tracks)
            if (t == name) return true;
        return false;
    }
    bool hasWarningContaining(const std::string& text) const {
        for (const std::string& w : warnings)
            if (w.find(text) != std::string::npos) return true;
        return false;
    }
    size_t slice(const std::string& name) const {
        auto it = slices.find(name);
        return it == slices.end() ? 0 : it->second;
    }
    size_t instant(const std::string& name) const {
        auto it = instants.find(name);
        return it == instants.end() ? 0 : it->second;
    }
};

inline Summary summarize(const tracescope::Trace& trace) {
    Summary s;
    for (const auto& p : trace.processes) s.processes.push_back(p.name);
    for (const auto& t : trace.tracks) {
        s.tracks.push_back(t.name);
        for (size_t i = 0; i < t.slices.size(); ++i) ++s.slices[std::string(trace.str(t.slices.name[i]))];
        for (size_t i = 0; i < t.instants.size(); ++i) ++s.instants[std::string(trace.str(t.instants.name[i]))];
    }
    for (const auto& w : trace.warnings) s.warnings.push_back(w.detail);
    s.flows = trace.flows.size();
    return s;
}

// The args of one slice or instant as key -> text.
inline std::map<std::string, std::string> args(const tracescope::Trace& trace, const tracescope::Track& track,
                                               tracescope::ArgsOffset offset) {
    std::map<std::string, std::string> out;
    for (const tracescope::Arg& a : tracescope::decodeArgs(track.argsView(), offset))
        out[std::string(trace.str(a.key))] = a.value.toString(trace.strings);
    return out;
}

// The first track whose name starts with `prefix`, or nullptr.
inline const tracescope::Track* track(const tracescope::Trace& trace, const std::string& prefix) {
    for (const auto& t : trace.tracks)
        if (t.name.rfind(prefix, 0) == 0) return &t;
    return nullptr;
}

}  // namespace checks
