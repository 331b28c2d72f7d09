// Many workers as one run, the pod view (stragglers, exposed communication), steps without
// markers and run comparison. Expected values come from the raw JSON (read here with
// nlohmann::json, not through the importer) or from how the generated cases are built.
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/overview.h"
#include "model/analysis/pod.h"
#include "model/analysis/run_diff.h"
#include "model/analysis/steps.h"
#include "model/import/import.h"
#include "model/import/workers.h"
#include "model/proto/xplane.pb.h"
#include "model/trace/args.h"
#include "model/trace/merge_workers.h"

#include <zlib.h>
#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

using namespace tracescope;
using nlohmann::json;

namespace {

std::string testdata(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

std::string readGz(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    std::string out;
    if (!f) return out;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, size_t(n));
    gzclose(f);
    return out;
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::unique_ptr<Trace> load(const std::string& path) {
    ImportResult r = importTrace(path);
    if (!r.ok()) qWarning("import failed: %s", r.error.c_str());
    return std::move(r.trace);
}

// ProfilerStep#N events of a raw Kineto file: number -> (ts µs, dur µs) as written.
std::map<int64_t, std::pair<double, double>> rawProfilerSteps(const json& j) {
    std::map<int64_t, std::pair<double, double>> out;
    for (const auto& e : j["traceEvents"]) {
        const std::string name = e.value("name", "");
        if (name.rfind("ProfilerStep#", 0) == 0)
            out[std::stoll(name.substr(13))] = {e["ts"].get<double>(), e["dur"].get<double>()};
    }
    return out;
}

// One generated Kineto rank: `steps` ProfilerSteps of 100 ms (the straggler's step
// `slowStep` 140 ms), each with a compute kernel [10, 60) ms and an NCCL kernel [40, 70) ms
// into the step: 30 ms communication of which 20 ms overlap compute, 10 ms exposed.
std::string generatedRank(int rank, int steps, int slowRank, int slowStep, int64_t baseNs) {
    json ev = json::array();
    ev.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 0}, {"args", {{"name", "GPU 0"}}}});
    ev.push_back({{"ph", "M"}, {"name", "process_labels"}, {"pid", 0}, {"args", {{"labels", "GPU 0"}}}});
    ev.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 100}, {"args", {{"name", "python"}}}});
    int64_t t = 0;  // µs
    for (int s = 0; s < steps; ++s) {
        const int64_t dur = (rank == slowRank && s == slowStep) ? 140000 : 100000;
        ev.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "ProfilerStep#" + std::to_string(s)},
                      {"pid", 100},
                      {"tid", 1},
                      {"ts", t},
                      {"dur", dur}});
        ev.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "gemm_kernel"},
                      {"pid", 0},
                      {"tid", 7},
                      {"ts", t + 10000},
                      {"dur", 50000},
                      {"args", {{"device", 0}, {"stream", 7}}}});
        ev.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
                      {"pid", 0},
                      {"tid", 13},
                      {"ts", t + 40000},
                      {"dur", 30000},
                      {"args", {{"device", 0}, {"stream", 13}}}});
        t += dur;
    }
    json j = {{"schemaVersion", 1},
              {"distributedInfo", {{"backend", "nccl"}, {"rank", rank}, {"world_size", 64}}},
              {"baseTimeNanoseconds", baseNs},
              {"traceEvents", ev}};
    return j.dump();
}

// Step overlap (intersection over union) of two intervals.
double iou(TimeNs a0, TimeNs a1, TimeNs b0, TimeNs b1) {
    const double inter = double(std::max<TimeNs>(0, std::min(a1, b1) - std::max(a0, b0)));
    const double uni = double(std::max(a1, b1) - std::min(a0, b0));
    return uni > 0 ? inter / uni : 0;
}

}  // namespace

class PodTest : public QObject {
    Q_OBJECT
private slots:
    // Two ranks of one job: named by distributedInfo.rank, aligned on their Unix timestamps,
    // ProfilerStep times as in the raw files, the straggler per step.
    void sampledRanks() {
        const std::string f0 = testdata("public/hta/sampled_rank-0.json.gz"),
                          f1 = testdata("public/hta/sampled_rank-1.json.gz");
        const auto raw0 = rawProfilerSteps(json::parse(readGz(f0))), raw1 = rawProfilerSteps(json::parse(readGz(f1)));
        QCOMPARE(raw0.size(), size_t(2));
        MultiWorkerResult r = importWorkers({f1, f0});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.run.workers.size(), size_t(2));
        QCOMPARE(r.run.workers[0].name, std::string("rank 0"));
        QCOMPARE(r.run.workers[1].name, std::string("rank 1"));
        for (const auto& w : r.run.workers) QCOMPARE(w.clock, WorkerClock::WallClock);
        const PodResult pod = computePod(r.run);
        QCOMPARE(pod.steps.size(), size_t(2));
        for (size_t s = 0; s < 2; ++s) {
            const PodStep& ps = pod.steps[s];
            const int64_t n = ps.number;
            QVERIFY(raw0.count(n) && raw1.count(n));
            const TimeNs d0 = TimeNs(raw0.at(n).second * 1000), d1 = TimeNs(raw1.at(n).second * 1000);
            QCOMPARE(pod.workers[0].steps[s].breakdown.step.durationNs, d0);
            QCOMPARE(pod.workers[1].steps[s].breakdown.step.durationNs, d1);
            QCOMPARE(pod.workers[ps.slowestWorker].name, std::string(d1 > d0 ? "rank 1" : "rank 0"));
            QCOMPARE(ps.lagNs, std::abs(d1 - d0));
            // Both on the run's clock: the start difference is the raw Unix timestamps' difference.
            const TimeNs rawSpread = TimeNs(std::abs(raw1.at(n).first - raw0.at(n).first) * 1000);
            QCOMPARE(ps.startSpreadNs, rawSpread);
            // The breakdown categories add up to the step.
            for (const PodWorker& w : pod.workers) {
                TimeNs sum = 0;
                for (TimeNs x : w.steps[s].breakdown.ns) sum += x;
                QCOMPARE(sum, w.steps[s].breakdown.step.durationNs);
                const CommOverlap& o = w.steps[s].overlap;
                QVERIFY(o.communicationNs > 0);  // the ranks run NCCL SendRecv kernels
                QCOMPARE(o.exposedNs + o.overlappedNs, o.communicationNs);
            }
        }
    }

    // Files without a wall clock (small relative timestamps, no baseTimeNanoseconds): aligned on
    // their first step's start.
    void alignedOnFirstStep() {
        QTemporaryDir dir;
        for (int r = 0; r < 2; ++r) {
            json ev = json::array();
            for (int s = 0; s < 3; ++s)
                ev.push_back({{"ph", "X"},
                              {"cat", "user_annotation"},
                              {"name", "ProfilerStep#" + std::to_string(5 + s)},
                              {"pid", 1},
                              {"tid", 1},
                              {"ts", 500 + r * 2000 + s * 10000},
                              {"dur", 9000}});
            ev.push_back(
                {{"ph", "X"}, {"cat", "cpu_op"}, {"name", "setup"}, {"pid", 1}, {"tid", 2}, {"ts", 100}, {"dur", 50}});
            writeFile(dir.path().toStdString() + "/rank-" + std::to_string(r) + ".json",
                      json({{"traceEvents", ev}}).dump());
        }
        MultiWorkerResult r = importWorkers({dir.path().toStdString()});
        QVERIFY(r.ok());
        for (const auto& w : r.run.workers) QCOMPARE(w.clock, WorkerClock::Unknown);
        const PodResult pod = computePod(r.run);
        QCOMPARE(pod.workers[0].clock, WorkerClock::FirstStep);
        QCOMPARE(pod.workers[1].clock, WorkerClock::FirstStep);
        QCOMPARE(pod.steps.size(), size_t(3));
        for (size_t s = 0; s < 3; ++s) QCOMPARE(pod.workers[1].steps[s].runStartNs, pod.workers[0].steps[s].runStartNs);
        QCOMPARE(pod.notes.size(), size_t(1));

        // The same alignment on the run before merging: the merged view (the timeline) puts both
        // first steps at one time, and the pod page reads the same offsets back. Each file's
        // times count from its earliest event ("setup" at 100 us), so rank 0's ProfilerStep#5
        // starts at 500 - 100 = 400 us, rank 1's at 2500 - 100 = 2400 us: rank 1 moves by
        // 400 - 2400 = -2000 us and both start at 400 us = 400'000 ns in the view.
        QVERIFY(alignWorkersOnFirstStep(r.run));
        QCOMPARE(r.run.workers[0].offsetNs, TimeNs(0));
        QCOMPARE(r.run.workers[1].offsetNs, TimeNs(-2'000'000));
        QCOMPARE(r.run.workers[1].clock, WorkerClock::FirstStep);
        const auto merged = mergeWorkers(r.run);
        QVERIFY(merged);
        std::vector<TimeNs> firstStepStart;
        for (const Track& t : merged->tracks)
            for (size_t i = 0; i < t.slices.size(); ++i)
                if (merged->strings.get(t.slices.name[i]) == "ProfilerStep#5")
                    firstStepStart.push_back(t.slices.start[i]);
        QCOMPARE(firstStepStart.size(), size_t(2));
        QCOMPARE(firstStepStart[0], TimeNs(400'000));
        QCOMPARE(firstStepStart[1], TimeNs(400'000));
        const PodResult again = computePod(r.run, {}, merged.get());
        QCOMPARE(again.workers[1].offsetNs, TimeNs(-2'000'000));
        QCOMPARE(again.workers[1].clock, WorkerClock::FirstStep);
        for (size_t s = 0; s < 3; ++s)
            QCOMPARE(again.workers[1].steps[s].runStartNs, again.workers[0].steps[s].runStartNs);
        QCOMPARE(again.notes.size(), size_t(1));
    }

    // The same rank's file twice: the workers are told apart by file name.
    void sameRankTwice() {
        QTemporaryDir dir;
        const std::string src = testdata("public/hta/sampled_rank-0.json.gz");
        const std::string copy = dir.path().toStdString() + "/copy.json";
        writeFile(copy, readGz(src));
        MultiWorkerResult r = importWorkers({src, copy});
        QVERIFY(r.ok());
        QCOMPARE(r.run.workers.size(), size_t(2));
        QVERIFY(r.run.workers[0].name != r.run.workers[1].name);
        for (const auto& w : r.run.workers) QVERIFY2(w.name.rfind("rank 0 (", 0) == 0, w.name.c_str());
    }

    // The merged view: every worker's processes, named by worker, on the run's clock; names
    // and args the same as in the worker's own trace.
    void mergedView() {
        MultiWorkerResult r = importWorkers(
            {testdata("public/hta/sampled_rank-0.json.gz"), testdata("public/hta/sampled_rank-1.json.gz")});
        QVERIFY(r.ok());
        const std::shared_ptr<const Trace> own0 = r.run.workers[0].trace, own1 = r.run.workers[1].trace;
        auto merged = mergeWorkers(r.run);
        QVERIFY(merged);
        // The run lets go of its workers' own traces: the view is the one copy it holds.
        QVERIFY(!r.run.workers[0].trace && !r.run.workers[1].trace);
        QVERIFY(r.run.workers[0].loaded() && r.run.workers[1].loaded());
        QCOMPARE(r.run.loadedCount(), size_t(2));
        const Trace& m = *merged;
        const Trace &t0 = *own0, &t1 = *own1;
        QCOMPARE(m.processes.size(), t0.processes.size() + t1.processes.size());
        QCOMPARE(m.tracks.size(), t0.tracks.size() + t1.tracks.size());
        QCOMPARE(m.counts().slices, t0.counts().slices + t1.counts().slices);
        QCOMPARE(m.flows.size(), t0.flows.size() + t1.flows.size());
        QVERIFY(m.processes[t0.processes.size()].name.rfind("rank 1: ", 0) == 0);
        const TimeNs off1 = r.run.workers[1].offsetNs;
        const size_t base = t0.tracks.size();
        for (TrackIndex ti = 0; ti < t1.tracks.size(); ++ti) {
            const SliceColumns &a = t1.tracks[ti].slices, &b = m.tracks[base + ti].slices;
            QCOMPARE(a.size(), b.size());
            for (uint32_t i = 0; i < a.size(); i += 97) {
                QCOMPARE(b.start[i], a.start[i] + off1);
                QCOMPARE(m.str(b.name[i]), t1.str(a.name[i]));
                const auto x = decodeArgs(t1.tracks[ti].argsView(), a.args[i]);
                const auto y = decodeArgs(m.tracks[base + ti].argsView(), b.args[i]);
                QCOMPARE(x.size(), y.size());
                for (size_t k = 0; k < x.size(); ++k) {
                    QCOMPARE(m.str(y[k].key), t1.str(x[k].key));
                    QCOMPARE(y[k].value.toString(m.strings), x[k].value.toString(t1.strings));
                }
            }
        }
        // Flows still join a launch and its kernel.
        for (size_t f = 0; f < t1.flows.size(); f += 13) {
            const Flow &a = t1.flows[f], &b = m.flows[t0.flows.size() + f];
            QCOMPARE(b.from.track, TrackIndex(a.from.track + base));
            QCOMPARE(m.str(m.flowName(b)), t1.str(t1.flowName(a)));
        }
    }

    // A worker cut back out of the merged view is its own trace again (processes, tracks, events,
    // args, flows, on its own clock), so the pod computed over the view equals the pod computed
    // over the workers' own traces; a view remade with other offsets moves only the workers whose
    // offset changed, by exactly the change.
    void workerCutFromView() {
        MultiWorkerResult r = importWorkers(
            {testdata("public/hta/sampled_rank-0.json.gz"), testdata("public/hta/sampled_rank-1.json.gz")});
        QVERIFY(r.ok());
        const MultiWorkerRun separate = r.run;  // holds the workers' own traces
        const PodResult expected = computePod(separate);
        MultiWorkerRun run = r.run;
        r.run = {};
        const std::shared_ptr<const Trace> view = mergeWorkers(run);
        for (size_t w = 0; w < 2; ++w) {
            const Trace& own = *separate.workers[w].trace;
            const std::unique_ptr<Trace> cut = workerTraceOf(*view, run.workers[w]);
            QVERIFY(cut);
            QCOMPARE(cut->processes.size(), own.processes.size());
            for (size_t p = 0; p < own.processes.size(); ++p) {
                QCOMPARE(cut->processes[p].name, own.processes[p].name);
                QCOMPARE(cut->processes[p].tracks, own.processes[p].tracks);
            }
            QCOMPARE(cut->tracks.size(), own.tracks.size());
            QCOMPARE(cut->counts().slices, own.counts().slices);
            QCOMPARE(cut->flows.size(), own.flows.size());
            QCOMPARE(cut->startNs, own.startNs);
            QCOMPARE(cut->endNs, own.endNs);
            QCOMPARE(cut->metadata, own.metadata);
            for (TrackIndex ti = 0; ti < own.tracks.size(); ++ti) {
                const SliceColumns &a = own.tracks[ti].slices, &b = cut->tracks[ti].slices;
                QCOMPARE(b.start, a.start);
                QCOMPARE(cut->tracks[ti].process, own.tracks[ti].process);
                for (uint32_t i = 0; i < a.size(); i += 31) {
                    QCOMPARE(cut->str(b.name[i]), own.str(a.name[i]));
                    QCOMPARE(sliceArgText(*cut, {ti, i}, "correlation"), sliceArgText(own, {ti, i}, "correlation"));
                }
            }
            for (size_t f = 0; f < own.flows.size(); ++f) {
                QCOMPARE(cut->flows[f].from.track, own.flows[f].from.track);
                QCOMPARE(cut->flows[f].to.index, own.flows[f].to.index);
            }
        }
        const PodResult viaView = computePod(run, {}, view.get());
        QCOMPARE(viaView.steps.size(), expected.steps.size());
        for (size_t w = 0; w < 2; ++w) {
            QVERIFY(viaView.workers[w].loaded);
            QCOMPARE(viaView.workers[w].stepSource, expected.workers[w].stepSource);
            QCOMPARE(viaView.workers[w].overlap.exposedNs, expected.workers[w].overlap.exposedNs);
            for (size_t s = 0; s < expected.steps.size(); ++s) {
                const WorkerStep &x = expected.workers[w].steps[s], &y = viaView.workers[w].steps[s];
                QCOMPARE(y.present, x.present);
                QCOMPARE(y.runStartNs, x.runStartNs);
                QCOMPARE(y.breakdown.ns, x.breakdown.ns);
            }
        }

        // Rank 1 set by hand 3 ms later than its wall clock; rank 0 unchanged.
        const TimeNs off0 = run.workers[0].offsetNs, off1 = run.workers[1].offsetNs, shift = 3'000'000;
        MultiWorkerRun moved = run;
        const std::shared_ptr<const Trace> view2 = remergeWorkers(*view, moved, {off0, off1 + shift});
        QCOMPARE(moved.workers[0].clock, run.workers[0].clock);
        QCOMPARE(moved.workers[1].clock, WorkerClock::Manual);
        QCOMPARE(moved.workers[1].offsetNs, off1 + shift);
        QCOMPARE(view2->tracks.size(), view->tracks.size());
        for (TrackIndex ti = 0; ti < view->tracks.size(); ++ti) {
            const bool rank1 = ti >= run.workers[1].merged->firstTrack;
            const SliceColumns &a = view->tracks[ti].slices, &b = view2->tracks[ti].slices;
            QCOMPARE(b.size(), a.size());
            for (size_t i = 0; i < a.size(); ++i) QCOMPARE(b.start[i], a.start[i] + (rank1 ? shift : 0));
        }
        const PodResult after = computePod(moved, {}, view2.get());
        for (size_t s = 0; s < expected.steps.size(); ++s) {
            QCOMPARE(after.workers[1].steps[s].runStartNs, expected.workers[1].steps[s].runStartNs + shift);
            QCOMPARE(after.workers[0].steps[s].runStartNs, expected.workers[0].steps[s].runStartNs);
            QCOMPARE(after.steps[s].lagNs, expected.steps[s].lagNs);
        }
        // The cut of a moved worker is still its own trace on its own clock.
        QCOMPARE(workerTraceOf(*view2, moved.workers[1])->tracks[0].slices.start,
                 separate.workers[1].trace->tracks[0].slices.start);
    }

    // A generated 64-rank job: rank 17's step 3 is 40 ms slower; one file is not a trace.
    void generatedJobWithStraggler() {
        QTemporaryDir dir;
        const int ranks = 64, steps = 6, slowRank = 17, slowStep = 3;
        const int64_t base = 1700000000000000000LL;
        for (int r = 0; r < ranks; ++r) {
            const std::string path = dir.path().toStdString() + "/rank-" + std::to_string(r) + ".json";
            writeFile(path, r == 63 ? std::string("\x01\x02 not a trace", 15)
                                    : generatedRank(r, steps, slowRank, slowStep, base + r * 1000));
        }
        MultiWorkerResult res = importWorkers({dir.path().toStdString()});
        QVERIFY2(res.ok(), res.error.c_str());
        QCOMPARE(res.run.workers.size(), size_t(64));
        QCOMPARE(res.run.loadedCount(), size_t(63));
        QCOMPARE(res.run.warnings.size(), size_t(1));
        QVERIFY(res.run.warnings[0].detail.find("rank 63") != std::string::npos);
        for (int r = 0; r < 63; ++r) {
            QCOMPARE(res.run.workers[r].name, "rank " + std::to_string(r));
            QCOMPARE(res.run.workers[r].offsetNs, TimeNs(r) * 1000);  // baseTimeNanoseconds differ by 1 µs/rank
        }
        const PodResult pod = computePod(res.run);
        QCOMPARE(pod.steps.size(), size_t(steps));
        for (const PodStep& ps : pod.steps) {
            QCOMPARE(ps.workerCount, size_t(63));
            QCOMPARE(ps.medianNs, TimeNs(100'000'000));
            if (ps.number == slowStep) {
                QCOMPARE(pod.workers[ps.slowestWorker].name, std::string("rank 17"));
                QCOMPARE(ps.lagNs, TimeNs(40'000'000));
                QCOMPARE(ps.slowestNs, TimeNs(140'000'000));
            } else {
                QCOMPARE(ps.lagNs, TimeNs(0));
            }
        }
        for (int r = 0; r < 63; ++r) {
            const PodWorker& w = pod.workers[r];
            QVERIFY(w.loaded);
            for (const WorkerStep& ws : w.steps) {
                QVERIFY(ws.present);
                QCOMPARE(ws.overlap.communicationNs, TimeNs(30'000'000));
                QCOMPARE(ws.overlap.overlappedNs, TimeNs(20'000'000));
                QCOMPARE(ws.overlap.exposedNs, TimeNs(10'000'000));
                QCOMPARE(ws.overlap.computeNs, TimeNs(50'000'000));
                QCOMPARE(ws.breakdown.at(StepCategory::DeviceCompute), TimeNs(50'000'000));
                QCOMPARE(ws.breakdown.at(StepCategory::DeviceCollectives), TimeNs(10'000'000));
            }
        }
        QVERIFY(!pod.workers[63].loaded);
    }

    // Two hosts from the TF demo XSpace; the second's profile started 1.5 s later on its clock.
    void twoHostXSpaceShiftedClock() {
        const std::string demo = testdata("public/tfprofiler/34.83.195.179_6003.xplane.pb");
        std::ifstream in(demo, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // The demo has no Task Environment plane: each copy gets one with its profile start
        // time (as TF's profiler writes it), host B's 1.5 s after host A's.
        const int64_t start = 1'700'000'000'000'000'000, shift = 1'500'000'000;
        auto withStart = [&](const std::string& host, int64_t startNs) {
            tensorflow::profiler::XSpace space;
            if (!space.ParseFromString(bytes)) return std::string();
            auto* env = space.add_planes();
            env->set_id(999);
            env->set_name("Task Environment");
            (*env->mutable_stat_metadata())[1].set_id(1);
            (*env->mutable_stat_metadata())[1].set_name("profile_start_time");
            auto* st = env->add_stats();
            st->set_metadata_id(1);
            st->set_uint64_value(uint64_t(startNs));
            space.clear_hostnames();
            space.add_hostnames(host);
            return space.SerializeAsString();
        };
        QTemporaryDir dir;
        const std::string a = dir.path().toStdString() + "/hostA.xplane.pb",
                          b = dir.path().toStdString() + "/hostB.xplane.pb";
        writeFile(a, withStart("hostA", start));
        writeFile(b, withStart("hostB", start + shift));
        MultiWorkerResult res = importWorkers({a, b});
        QVERIFY2(res.ok(), res.error.c_str());
        QCOMPARE(res.run.loadedCount(), size_t(2));
        QCOMPARE(res.run.workers[0].offsetNs, TimeNs(0));
        QCOMPARE(res.run.workers[1].offsetNs, shift);
        QCOMPARE(res.run.workers[1].name, std::string("hostB"));
        const PodResult pod = computePod(res.run);
        QVERIFY(!pod.steps.empty());
        for (size_t s = 0; s < pod.steps.size(); ++s) {
            const WorkerStep &x = pod.workers[0].steps[s], &y = pod.workers[1].steps[s];
            QVERIFY(x.present && y.present);
            QCOMPARE(y.runStartNs - x.runStartNs, shift);
            QCOMPARE(y.breakdown.step.durationNs, x.breakdown.step.durationNs);
            QCOMPARE(pod.steps[s].lagNs, TimeNs(0));
        }
    }

    // ProfilerStep#N removed: the steps inferred from the repeating top-level annotations
    // are the same steps (each overlaps the original by >= 95%).
    void stepsWithoutMarkers() {
        const std::string src = testdata("public/hta/sampled_rank-0.json.gz");
        json j = json::parse(readGz(src));
        const auto raw = rawProfilerSteps(j);
        json kept = json::array();
        for (const auto& e : j["traceEvents"])
            if (e.value("name", "").rfind("ProfilerStep#", 0) != 0) kept.push_back(e);
        j["traceEvents"] = kept;
        QTemporaryDir dir;
        const std::string stripped = dir.path().toStdString() + "/stripped.json";
        writeFile(stripped, j.dump());

        auto orig = load(src);
        auto bare = load(stripped);
        QVERIFY(orig && bare);
        const StepsResult a = findSteps(*orig), b = findSteps(*bare);
        QCOMPARE(a.source, StepSource::ProfilerStep);
        QCOMPARE(b.source, StepSource::InferredAnnotation);
        QVERIFY(b.rule.find("## sdd_preprocess_splits ##") != std::string::npos);
        QCOMPARE(b.steps.size(), raw.size());
        // Both traces keep the raw Unix timestamps' origin; compare in raw µs.
        const double origin0 = double(*orig->originUnixNs), origin1 = double(*bare->originUnixNs);
        size_t k = 0;
        for (const auto& [n, tsDur] : raw) {
            const TimeNs r0 = TimeNs(tsDur.first * 1000 - origin0), r1 = r0 + TimeNs(tsDur.second * 1000);
            const TimeNs shift = TimeNs(origin1 - origin0);
            const Step& s = b.steps[k++];
            const double o = iou(r0, r1, s.startNs + shift, s.endNs() + shift);
            QVERIFY2(o >= 0.95, qPrintable(QString("step %1 overlap %2").arg(n).arg(o)));
        }
        // --step-marker picks a name by hand.
        const StepsResult named = findSteps(*bare, StepOptions{"## forward ##"});
        QCOMPARE(named.source, StepSource::NamedMarker);
        QCOMPARE(named.steps.size(), size_t(2));
        const StepsResult named2 = findSteps(*orig, StepOptions{"ProfilerStep"});
        QCOMPARE(named2.steps.size(), size_t(2));
        QCOMPARE(named2.steps[0].number, int64_t(551));
        QCOMPARE(findSteps(*bare, StepOptions{"no such marker"}).source, StepSource::None);
    }

    // Optimizer.step#… at the top level ends each iteration; device-only traces repeat kernels.
    void inferenceRules() {
        QTemporaryDir dir;
        json ev = json::array();
        // 4 iterations of 50 ms: forward 0-20, backward 20-40, Optimizer.step 40-48 (ms).
        for (int i = 0; i < 4; ++i) {
            const int64_t t = 1000 + i * 50000;
            ev.push_back({{"ph", "X"},
                          {"cat", "cpu_op"},
                          {"name", "aten::linear"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", t},
                          {"dur", 20000}});
            ev.push_back({{"ph", "X"},
                          {"cat", "cpu_op"},
                          {"name", "aten::backward"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", t + 20000},
                          {"dur", 20000}});
            ev.push_back({{"ph", "X"},
                          {"cat", "user_annotation"},
                          {"name", "Optimizer.step#AdamW.step"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", t + 40000},
                          {"dur", 8000}});
        }
        const std::string p1 = dir.path().toStdString() + "/opt.json";
        writeFile(p1, json({{"traceEvents", ev}}).dump());
        auto t1 = load(p1);
        QVERIFY(t1);
        const StepsResult s1 = findSteps(*t1);
        QCOMPARE(s1.source, StepSource::InferredAnnotation);
        QCOMPARE(s1.steps.size(), size_t(4));
        for (const Step& s : s1.steps) QCOMPARE(s.durationNs, TimeNs(48'000'000));  // first slice .. optimizer end

        // Device only: kernels A B C repeating with a 5 ms gap before each A.
        json dev = json::array();
        dev.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 0}, {"args", {{"name", "GPU 0"}}}});
        dev.push_back({{"ph", "M"}, {"name", "process_labels"}, {"pid", 0}, {"args", {{"labels", "GPU 0"}}}});
        int64_t t = 0;
        dev.push_back(
            {{"ph", "X"}, {"cat", "kernel"}, {"name", "C"}, {"pid", 0}, {"tid", 7}, {"ts", t}, {"dur", 1000}});
        t = 6000;
        for (int i = 0; i < 5; ++i) {
            for (const char* k : {"A", "B", "C"}) {
                dev.push_back(
                    {{"ph", "X"}, {"cat", "kernel"}, {"name", k}, {"pid", 0}, {"tid", 7}, {"ts", t}, {"dur", 1000}});
                t += 1000;
            }
            t += 5000;
        }
        const std::string p2 = dir.path().toStdString() + "/dev.json";
        writeFile(p2, json({{"traceEvents", dev}}).dump());
        auto t2 = load(p2);
        QVERIFY(t2);
        const StepsResult s2 = findSteps(*t2);
        QCOMPARE(s2.source, StepSource::InferredDevicePeriod);
        QCOMPARE(s2.steps.size(), size_t(5));
        for (size_t i = 0; i + 1 < s2.steps.size(); ++i) QCOMPARE(s2.steps[i].durationNs, TimeNs(8'000'000));
        QCOMPARE(s2.steps[1].startNs - s2.steps[0].startNs, TimeNs(8'000'000));
    }

    // A trace against itself: every delta is zero, nothing new or vanished.
    void diffWithItself() {
        auto a = load(testdata("public/hta/sampled_rank-0.json.gz"));
        auto b = load(testdata("public/hta/sampled_rank-0.json.gz"));
        QVERIFY(a && b);
        const RunDiff d = diffRuns(*a, *b);
        QVERIFY(!d.ops.empty() && !d.kernels.empty());
        for (const auto* rows : {&d.steps, &d.ops, &d.kernels})
            for (const DiffRow& r : *rows) {
                QCOMPARE(r.deltaNs, TimeNs(0));
                QCOMPARE(r.deltaPerStepNs, TimeNs(0));
                QCOMPARE(r.status, DiffStatus::Both);
                QCOMPARE(r.aOccurrences, r.bOccurrences);
            }
        QCOMPARE(d.newOps + d.vanishedOps + d.newKernels + d.vanishedKernels, size_t(0));
    }

    // A copy with one kernel's every occurrence made 20% longer: that kernel tops the kernel
    // diff with exactly the added time, every other kernel is unchanged.
    void diffOneSlowerKernel() {
        const std::string src = testdata("public/hta/sampled_rank-0.json.gz");
        json j = json::parse(readGz(src));
        // The victim: of the kernels whose every occurrence is followed by an idle gap of at least
        // 20% of its duration on its stream (so 20% longer does not overlap the next kernel), the
        // one with the largest total duration in the raw file.
        std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<double, double>>> streams;  // ts, dur
        std::map<std::string, double> total;
        std::map<std::string, bool> fits;
        for (const auto& e : j["traceEvents"])
            if (e.value("cat", "") == "kernel")
                streams[{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()}].push_back({e["ts"], e["dur"]});
        for (auto& [k, v] : streams) std::sort(v.begin(), v.end());
        for (const auto& e : j["traceEvents"]) {
            if (e.value("cat", "") != "kernel") continue;
            const std::string n = e["name"];
            const double ts = e["ts"], dur = e["dur"];
            total[n] += dur;
            fits.try_emplace(n, true);
            const auto& v = streams[{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()}];
            auto next = std::upper_bound(v.begin(), v.end(), std::pair{ts, dur});
            if (next != v.end() && next->first - (ts + dur) < 0.2 * dur) fits[n] = false;
        }
        std::string victim;
        for (const auto& [n, d] : total)
            if (fits[n] && (victim.empty() || d > total[victim])) victim = n;
        QVERIFY(!victim.empty());
        double addedUs = 0;
        for (auto& e : j["traceEvents"])
            if (e.value("cat", "") == "kernel" && e["name"] == victim) {
                const double extra = std::round(e["dur"].get<double>() * 0.2);
                e["dur"] = e["dur"].get<double>() + extra;
                addedUs += extra;
            }
        QTemporaryDir dir;
        const std::string slower = dir.path().toStdString() + "/slower.json";
        writeFile(slower, j.dump());
        auto a = load(src);
        auto b = load(slower);
        QVERIFY(a && b);
        const RunDiff d = diffRuns(*a, *b);
        QVERIFY(!d.kernels.empty());
        QCOMPARE(d.kernels[0].name, victim);
        QCOMPARE(d.kernels[0].deltaNs, TimeNs(std::llround(addedUs * 1000)));
        for (size_t i = 1; i < d.kernels.size(); ++i) QCOMPARE(d.kernels[i].deltaNs, TimeNs(0));
    }
};

QTEST_GUILESS_MAIN(PodTest)
#include "tst_pod.moc"
