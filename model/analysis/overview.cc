#include "model/analysis/overview.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/producer_notes.h"

#include "model/analysis/precision.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace tracescope {

const char* inputBoundName(InputBound b) {
    switch (b) {
        case InputBound::Unknown: return "unknown";
        case InputBound::NotInputBound: return "not input-bound";
        case InputBound::Potentially: return "potentially input-bound";
        case InputBound::Moderately: return "moderately input-bound";
        case InputBound::Highly: return "highly input-bound";
    }
    return "unknown";
}

InputBound classifyInputBound(double inputPercent, double otherPercent, bool haveSteps) {
    if (!haveSteps) return InputBound::Unknown;
    if (inputPercent >= 20) return InputBound::Highly;
    if (inputPercent >= 5) return InputBound::Moderately;
    if (otherPercent >= 3) return InputBound::Potentially;
    return InputBound::NotInputBound;
}

namespace {

bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// A top-level metadata value is JSON text: a string's text without its quotes ("" otherwise).
std::string jsonStringText(const std::string& json) {
    simdjson::dom::parser parser;
    std::string_view text;
    if (parser.parse(json).get_string().get(text) != simdjson::SUCCESS) return {};
    return std::string(text);
}

// Kineto "deviceProperties": [{"id":0,"name":"NVIDIA H100...","computeMajor":9,...}, ...].
std::map<int64_t, std::vector<std::pair<std::string, std::string>>> kinetoDeviceProperties(const Trace& t) {
    std::map<int64_t, std::vector<std::pair<std::string, std::string>>> out;
    const std::string* text = t.metadataValue("deviceProperties");
    if (!text) return out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(*text).get(root) != simdjson::SUCCESS) return out;
    simdjson::dom::array arr;
    if (root.get_array().get(arr) != simdjson::SUCCESS) return out;
    int64_t ordinal = 0;
    for (simdjson::dom::element dev : arr) {
        simdjson::dom::object obj;
        if (dev.get_object().get(obj) != simdjson::SUCCESS) continue;
        int64_t id = ordinal++;
        std::vector<std::pair<std::string, std::string>> props;
        for (auto field : obj) {
            std::string value;
            switch (field.value.type()) {
                case simdjson::dom::element_type::STRING: value = std::string(std::string_view(field.value)); break;
                case simdjson::dom::element_type::INT64: value = std::to_string(int64_t(field.value)); break;
                case simdjson::dom::element_type::UINT64: value = std::to_string(uint64_t(field.value)); break;
                case simdjson::dom::element_type::DOUBLE: value = std::to_string(double(field.value)); break;
                case simdjson::dom::element_type::BOOL: value = bool(field.value) ? "true" : "false"; break;
                default: value = simdjson::minify(field.value); break;
            }
            if (field.key == "id") {
                int64_t v;
                if (field.value.get_int64().get(v) == simdjson::SUCCESS) id = v;
            }
            props.emplace_back(std::string(field.key), std::move(value));
        }
        out[id] = std::move(props);
    }
    return out;
}

RunEnvironment runEnvironmentOf(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    RunEnvironment env;
    // One trace file is one host. XSpace runs merge one file per host and name each; a Chrome
    // trace names its host only in Kineto's top-level "host_name"; RunMetadata never does.
    std::set<std::string> hosts;
    for (const std::string& h : t.hosts)
        if (!h.empty()) hosts.insert(h);
    for (const Process& p : t.processes)
        if (!p.host.empty()) hosts.insert(p.host);
    if (const std::string* name = t.metadataValue("host_name")) {
        const std::string h = jsonStringText(*name);
        if (!h.empty()) hosts.insert(h);
    }
    env.hosts.assign(hosts.begin(), hosts.end());
    if (const std::string* list = t.metadataValue("xspace.hosts")) {
        // One comma-separated entry per file; an empty entry is a file without a host name.
        size_t start = 0;
        while (true) {
            const size_t comma = list->find(',', start);
            if (list->substr(start, comma - start).empty()) ++env.filesWithoutHostName;
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    } else if (hosts.empty()) {
        env.filesWithoutHostName = 1;
    }
    env.hostCount = env.hosts.size() + env.filesWithoutHostName;

    // A device is a device process, or any process holding device activity (Kineto GPU pids).
    std::map<ProcessIndex, int64_t> deviceIdOf;  // process -> Kineto "device" arg (or -1)
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const ProcessIndex p = t.tracks[ti].process;
        if (p >= t.processes.size()) continue;
        bool activity = false;
        SliceRef first;
        for (uint32_t i = 0; i < ct.roles[ti].size(); ++i) {
            const SliceRole r = ct.roles[ti][i];
            if (r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset) {
                activity = true;
                first = {ti, i};
                break;
            }
        }
        // TF1 timeline JSON: "<device> Compute" names a CPU device as well (its ops are host ops).
        const bool tf1Cpu = ct.isTf1 && (contains(t.processes[p].name, "CPU:") || contains(t.processes[p].name, "cpu:"));
        const bool deviceProcess = ct.isXSpace ? bool(ct.trackOnDevice[ti]) : t.processes[p].kind == ProcessKind::Device;
        if (!activity && !(deviceProcess && !tf1Cpu && !t.tracks[ti].slices.empty()))
            continue;
        int64_t dev = -1;
        if (first.valid()) sliceArgInt(t, first, "device", dev);
        auto [it, inserted] = deviceIdOf.try_emplace(p, dev);
        if (!inserted && it->second < 0) it->second = dev;
    }
    const auto kineto = kinetoDeviceProperties(t);
    bool tpu = false;
    std::set<std::string> tf1Seen;
    for (const auto& [p, dev] : deviceIdOf) {
        const Process& proc = t.processes[p];
        DeviceInfo d;
        d.name = proc.name;
        if (ct.isTf1) {
            // TF1 shows one GPU as several devices (executor, …/stream:all, …/memcpy, …/stream:N).
            d.name = tf1GpuName(proc.name);
            if (!tf1Seen.insert(d.name).second) continue;
        }
        if (!proc.labels.empty() && !t.format.empty() && t.format != "xspace") d.name = proc.labels;
        d.host = proc.host;
        d.properties = proc.properties;
        auto k = kineto.find(dev);
        if (k == kineto.end() && dev < 0 && deviceIdOf.size() == kineto.size() && !kineto.empty())
            k = kineto.find(int64_t(env.devices.size()));
        if (k != kineto.end())
            for (const auto& kv : k->second) d.properties.push_back(kv);
        tpu = tpu || contains(proc.name, "TPU");
        env.devices.push_back(std::move(d));
    }
    env.deviceCount = env.devices.size();
    // Device processes are GPUs unless named TPU; without any, the run is CPU-only.
    env.deviceType = tpu ? "TPU" : env.devices.empty() ? "CPU" : "GPU";
    return env;
}

std::string percentText(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", p);
    return buf;
}

}  // namespace

std::string hostsText(const RunEnvironment& env) {
    const size_t n = env.hostCount;
    std::string text = std::to_string(n) + (n == 1 ? " host" : " hosts");
    if (env.hosts.empty())
        return text + (n == 1 ? ", name unknown (not recorded in the file)" : ", names unknown (not recorded in the files)");
    text += ": ";
    for (size_t i = 0; i < env.hosts.size(); ++i) text += (i ? ", " : "") + env.hosts[i];
    if (env.filesWithoutHostName)
        text += ", and " + std::to_string(env.filesWithoutHostName) + " whose file records no name";
    return text;
}

RunEnvironment runEnvironmentOf(const Trace& trace) { return runEnvironmentOf(classifyTrace(trace)); }

std::vector<std::string> recommendationsFor(const Overview& o) {
    std::vector<std::string> r;
    if (o.steps.steps.empty()) {
        r.push_back(
            "No step marker observed and hence the step time is unknown. Step-based analyses (step-time "
            "breakdown, input-bound verdict) need step markers: with PyTorch call profiler.step() once per "
            "iteration (ProfilerStep#N); with TensorFlow/JAX wrap each step in a StepTraceAnnotation / "
            "tf.profiler.experimental.Trace('train', step_num=N). Also make sure the profile covers more "
            "than one step.");
        return r;
    }
    switch (o.inputBound) {
        case InputBound::Highly:
            r.push_back("Your program is HIGHLY input-bound because " + percentText(o.inputPercent) +
                        " of the total step time is spent waiting for input. Focus first on the input "
                        "pipeline (see the input-pipeline analyzer).");
            break;
        case InputBound::Moderately:
            r.push_back("Your program is MODERATELY input-bound because " + percentText(o.inputPercent) +
                        " of the total step time is spent waiting for input. Look at both the input pipeline "
                        "and the device-side ops.");
            break;
        case InputBound::Potentially:
            r.push_back("Your program is POTENTIALLY input-bound: only " + percentText(o.inputPercent) +
                        " of the step time is input, but " + percentText(o.otherPercent) +
                        " is not covered by any recorded event (\"All others\"), which may hide input waits.");
            break;
        case InputBound::NotInputBound:
            r.push_back("Your program is NOT input-bound because only " + percentText(o.inputPercent) +
                        " of the total step time is spent waiting for input. Focus on reducing device time "
                        "(see the top device ops).");
            break;
        case InputBound::Unknown: break;
    }
    if (o.kernelLaunchPercent >= 15)
        r.push_back(percentText(o.kernelLaunchPercent) +
                    " of the step time is kernel launch: the host cannot keep the device fed. Consider fusing "
                    "ops, CUDA graphs, or larger batches.");
    else if (o.kernelLaunchPercent >= 3)
        r.push_back(percentText(o.kernelLaunchPercent) + " of the step time is kernel launch (moderate).");
    if (o.outputPercent >= 20)
        r.push_back(percentText(o.outputPercent) + " of the step time is device-to-host output: reduce the data "
                                                   "copied back each step.");
    else if (o.outputPercent >= 5)
        r.push_back(percentText(o.outputPercent) + " of the step time is device-to-host output (moderate).");
    if (o.otherPercent >= 15)
        r.push_back(percentText(o.otherPercent) +
                    " of the step time is covered by no recorded event (\"All others\"): the device and the "
                    "profiled host threads are idle, e.g. waiting on Python or unprofiled threads.");
    if (o.compute16Percent + o.compute32Percent > 0 && o.compute16Percent < 10)
        r.push_back("Only " + percentText(o.compute16Percent) +
                    " of device compute time is in 16-bit kernels; mixed precision may speed it up.");
    return r;
}

Overview computeOverview(const Trace& trace, const StepOptions& stepOptions) {
    return computeOverview(classifyTrace(trace), stepOptions);
}

Overview computeOverview(const ClassifiedTrace& ct, const StepOptions& stepOptions) {
    const Trace& t = *ct.trace;
    Overview o;
    o.environment = runEnvironmentOf(ct);
    o.steps = findSteps(ct, stepOptions);
    o.breakdown = breakdownSteps(ct, o.steps);
    o.stepSet = chooseStepSet(ct, o.breakdown, stepOptions.allSteps);
    o.categories = summarizeBreakdown(o.breakdown, o.stepSet);
    o.stepTimeNs = stepTimeOf(o.breakdown, o.stepSet);
    o.averageStepNs = o.stepTimeNs.mean;

    OpStatsOptions opt;
    opt.includeIdle = false;
    const OpStatsResult ops = computeOpStats(ct, opt);
    for (const auto& row : ops.rows) {
        if (row.side != OpSide::Device || o.topDeviceOps.size() >= 10) continue;
        o.topDeviceOps.push_back({row.name, row.type, row.selfNs, row.selfPercent});
    }
    const double opTotal = double(ops.hostTotalSelfNs) + double(ops.deviceTotalSelfNs);  // no int64 overflow
    if (opTotal > 0) {
        o.hostOpPercent = 100.0 * double(ops.hostTotalSelfNs) / opTotal;
        o.deviceOpPercent = 100.0 * double(ops.deviceTotalSelfNs) / opTotal;
    }

    // Precision over all kernels (not only inside steps), by kernel name.
    TimeNs k16 = 0, k32 = 0;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (ct.roles[ti][i] != SliceRole::Kernel) continue;
            addSat(isSixteenBitKernel(fullNameOf(t, {ti, i})) ? k16 : k32, c.duration[i]);
        }
    }
    if (double(k16) + double(k32) > 0) {
        o.compute16Percent = 100.0 * double(k16) / (double(k16) + double(k32));
        o.compute32Percent = 100.0 - o.compute16Percent;
    }

    const bool haveSteps = o.stepSet.count > 0;
    o.inputPercent = o.categories[size_t(StepCategory::Input)].percentOfStep;
    o.kernelLaunchPercent = o.categories[size_t(StepCategory::KernelLaunch)].percentOfStep;
    o.outputPercent = o.categories[size_t(StepCategory::Output)].percentOfStep;
    o.otherPercent = o.categories[size_t(StepCategory::Other)].percentOfStep;
    o.inputBound = classifyInputBound(o.inputPercent, o.otherPercent, haveSteps);
    o.recommendations = recommendationsFor(o);
    o.notes = stepsNotes(ct, o.steps);
    for (const std::string& n : ops.notes) o.notes.push_back(n);  // e.g. XProf's op-name rule (top ops, placement)
    for (std::string& n : fileNotes(ct)) o.notes.push_back(std::move(n));
    return o;
}

}  // namespace tracescope
