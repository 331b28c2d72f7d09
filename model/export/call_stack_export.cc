#include "model/export/call_stack_export.h"

#include "model/export/output_file.h"
#include "model/proto/profile.pb.h"

#include <algorithm>
#include <unordered_map>

namespace tracescope {

std::string foldedFrameName(std::string_view name) {
    std::string out(name);
    for (char& c : out) {
        if (c == ';') c = ':';
        else if (c == '\n' || c == '\r') c = ' ';
    }
    return out;
}

std::string foldedStacks(const CallTree& tree, CallMetric metric, bool leafFirst) {
    std::string out;
    std::vector<std::string_view> stack;
    for (uint32_t i = 1; i < tree.nodes.size(); ++i) {
        const TimeNs value = tree.stackValue(i, metric);
        if (value <= 0) continue;
        stack = tree.stackOf(i);
        if (leafFirst) std::reverse(stack.begin(), stack.end());
        for (size_t k = 0; k < stack.size(); ++k) {
            if (k) out += ';';
            out += foldedFrameName(stack[k]);
        }
        out += ' ';
        out += std::to_string(value);
        out += '\n';
    }
    return out;
}

namespace {

// Interns strings into the profile's string table (entry 0 is "").
class PprofStrings {
public:
    explicit PprofStrings(perftools::profiles::Profile& p) : p_(p) { id(""); }
    int64_t id(std::string_view s) {
        auto [it, added] = ids_.try_emplace(std::string(s), int64_t(p_.string_table_size()));
        if (added) p_.add_string_table(std::string(s));
        return it->second;
    }

private:
    perftools::profiles::Profile& p_;
    std::unordered_map<std::string, int64_t> ids_;
};

}  // namespace

std::string pprofProfileBytes(const CallTree& tree, const PprofOptions& options) {
    perftools::profiles::Profile p;
    PprofStrings strings(p);
    const bool device = tree.root().deviceNs > 0;
    const auto addType = [&](perftools::profiles::ValueType* t, const char* type, const char* unit) {
        t->set_type(strings.id(type));
        t->set_unit(strings.id(unit));
    };
    addType(p.add_sample_type(), "wall", "nanoseconds");
    if (device) addType(p.add_sample_type(), "device", "nanoseconds");
    addType(p.mutable_period_type(), "wall", "nanoseconds");
    p.set_default_sample_type(strings.id("wall"));  // pprof shows the last type unless told
    p.set_period(1);
    p.set_time_nanos(options.timeNanos);
    p.set_duration_nanos(options.durationNanos);

    // One function and one location per frame name. A Python frame's function is named by its
    // function, with its file and line; system_name keeps the frame's full name, so two frames of
    // one function at different lines stay apart.
    std::unordered_map<std::string_view, uint64_t> locationOf;
    const auto location = [&](const CallNode& n) -> uint64_t {
        auto [it, added] = locationOf.try_emplace(n.name, 0);
        if (!added) return it->second;
        std::string_view fname = n.name, file;
        int64_t line = 0;
        if (n.python)
            if (const auto loc = pythonLocationOf(n.name)) {
                fname = loc->function;
                file = loc->file;
                line = loc->line;
            }
        const uint64_t id = uint64_t(p.function_size() + 1);
        perftools::profiles::Function* f = p.add_function();
        f->set_id(id);
        f->set_name(strings.id(fname));
        f->set_system_name(strings.id(n.name));
        f->set_filename(strings.id(file));
        f->set_start_line(line);
        perftools::profiles::Location* l = p.add_location();
        l->set_id(id);
        perftools::profiles::Line* ln = l->add_line();
        ln->set_function_id(id);
        ln->set_line(line);
        it->second = id;
        return it->second;
    };

    for (uint32_t i = 1; i < tree.nodes.size(); ++i) {
        const CallNode& leaf = tree.nodes[i];
        if (leaf.selfNs <= 0 && leaf.selfDeviceNs <= 0) continue;
        perftools::profiles::Sample* s = p.add_sample();
        for (uint32_t n = i; n != kCallRoot && n != kNoIndex; n = tree.nodes[n].parent)
            s->add_location_id(location(tree.nodes[n]));
        s->add_value(leaf.selfNs);
        if (device) s->add_value(leaf.selfDeviceNs);
    }
    std::string bytes;
    p.SerializeToString(&bytes);
    return bytes;
}

bool writePprofProfile(const CallTree& tree, const std::string& path, std::string& error, const PprofOptions& options) {
    OutputFile out;
    if (!out.open(path, /*gzip=*/true) || !out.write(pprofProfileBytes(tree, options)) || !out.commit()) {
        error = out.error();
        return false;
    }
    return true;
}

}  // namespace tracescope
