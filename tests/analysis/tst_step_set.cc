// Steps on the profiles people make by default: XProf's grouping of a step annotation that
// partly overlaps a Python frame, and the step set the averages are taken over. Every expected
// value is worked out by hand in the comment above its case.
#include "model/analysis/input_pipeline.h"
#include "model/analysis/overview.h"
#include "model/analysis/run_diff.h"
#include "model/analysis/step_groups.h"
#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

namespace {

ArgsWriter rootArgs(TraceBuilder& b, int64_t stepNum) {
    ArgsWriter a;
    a.add(b.intern("_r"), ArgValue::integer(1));
    a.add(b.intern("step_num"), ArgValue::integer(stepNum));
    return a;
}

// CPU-only XSpace: step n (n = 0..7) is a "train" root of 1000 + 500 n ns, the steps back to
// back; each holds "Compute" [start+10, +100) except step 3, and steps 1..7 an
// IteratorGetNextOp::DoCompute [start+200, +100 n).
std::unique_ptr<Trace> eightCpuSteps() {
    TraceBuilder b("xspace");
    const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
    const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
    const StringId cat = b.intern("");
    TimeNs start = 0;
    for (int n = 0; n < 8; ++n) {
        const TimeNs d = 1000 + 500 * n;
        b.addSlice(py, start, d, b.intern("train"), cat, rootArgs(b, n));
        if (n != 3) b.addSlice(py, start + 10, 100, b.intern("Compute"), cat);
        if (n >= 1) b.addSlice(py, start + 200, 100 * n, b.intern("IteratorGetNextOp::DoCompute"), cat);
        start += d;
    }
    return b.finish();
}

}  // namespace

class TestStepSet : public QObject {
    Q_OBJECT
private slots:
    // jax.profiler.trace()'s default capture: the StepTraceAnnotation "train" begins inside the
    // Python frame of its own __init__ and ends after it.
    // python: P "$profiler.py:553 __init__" [0,300); train#0 [200,1000) _r=1 (partly overlaps P,
    //   so the timeline draws it in an overflow lane); C "$builtins isinstance" [250,290) (inside
    //   both); B "$main.py:60 make_batch" [350,600); J "PjitFunction(train_step)" [600,900).
    // XProf connects events by time (the latest open event that contains one is its parent; P is
    // closed by train, which it does not contain): C, B and J are train's, P is no step's.
    // Step 0 = train [200,1000): Host compute = C 40 + B 250 + J 300 = 590, All others 210.
    void partialOverlapStillOwnsWhatItContains() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        const StringId cat = b.intern("");
        b.addSlice(py, 0, 300, b.intern("$profiler.py:553 __init__"), cat);
        b.addSlice(py, 200, 800, b.intern("train"), cat, rootArgs(b, 0));
        b.addSlice(py, 250, 40, b.intern("$builtins isinstance"), cat);
        b.addSlice(py, 350, 250, b.intern("$main.py:60 make_batch"), cat);
        b.addSlice(py, 600, 300, b.intern("PjitFunction(train_step)"), cat);
        auto trace = b.finish();
        QVERIFY(trace);
        // The display put the step annotation in an overflow lane.
        TrackIndex lane = kNoIndex;
        for (TrackIndex ti = 0; ti < trace->tracks.size(); ++ti)
            if (trace->tracks[ti].overflowOf == py) lane = ti;
        QVERIFY(lane != kNoIndex);
        QCOMPARE(trace->tracks[lane].slices.size(), size_t(1));

        const ClassifiedTrace ct = classifyTrace(*trace);
        const StepGroups groups = groupHostEvents(ct);
        QCOMPARE(groups.groups.size(), size_t(1));
        const auto& main = trace->tracks[py].slices;
        for (uint32_t i = 0; i < main.size(); ++i) {
            const std::string_view name = trace->str(main.name[i]);
            QCOMPARE(groups.of({py, i}), name.substr(0, 9) == "$profiler" ? kNoStepGroup : 0);
        }
        QCOMPARE(groups.of({lane, 0}), 0);

        const StepsResult steps = findSteps(ct);
        QCOMPARE(steps.steps.size(), size_t(1));
        QCOMPARE(steps.steps[0].startNs, TimeNs(200));
        QCOMPARE(steps.steps[0].durationNs, TimeNs(800));
        const auto bd = breakdownSteps(ct, steps);
        QCOMPARE(bd[0].at(StepCategory::HostCompute), TimeNs(590));
        QCOMPARE(bd[0].at(StepCategory::Other), TimeNs(210));
        QVERIFY(bd[0].hasCompute);
    }

    // eightCpuSteps: steps with host compute are 0,1,2,4,5,6,7 (7 > 5), so XProf's set drops step 3,
    // then steps 0 and 7: {1,2,4,5,6}. Input summed over it: 100+200+400+500+600 = 1800 ns; step
    // time: 1500+2000+3000+3500+4000 = 14000 ns; input % = 1800/14000 = 12.857142...%. The mean of
    // the per-step ratios is (100/1500 + 200/2000 + 400/3000 + 500/3500 + 600/4000)/5 = 11.857142...%.
    // Average step time 14000/5 = 2800 ns.
    void xprofStepSetOnXSpace() {
        auto trace = eightCpuSteps();
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        QCOMPARE(o.breakdown.size(), size_t(8));
        QCOMPARE(o.stepSet.rule, StepSetRule::XProf);
        QCOMPARE(o.stepSet.count, size_t(5));
        QCOMPARE(o.stepSet.withoutCompute, size_t(1));
        QVERIFY(o.stepSet.endsDropped);
        const std::vector<uint8_t> expected{0, 1, 1, 0, 1, 1, 1, 0};
        QCOMPARE(o.stepSet.included, expected);
        QCOMPARE(o.stepSet.description,
                 std::string("5 of 8 steps, as TensorBoard: 1 step without host compute left out, then the first "
                             "and the last left out as incomplete"));
        QVERIFY(std::abs(o.inputPercent - 100.0 * 1800 / 14000) < 1e-9);
        QVERIFY(std::abs(o.averageStepNs - 2800) < 1e-9);

        // The Input Pipeline page and the tf.data summary quote the same figure.
        const InputPipelineResult ip = computeInputPipeline(*trace);
        QVERIFY(std::abs(ip.inputPercent - o.inputPercent) < 1e-12);
        QCOMPARE(ip.steps.size(), size_t(8));
        QCOMPARE(ip.steps[3].inStepSet, false);
        QVERIFY(std::abs(ip.waitPercent.mean -
                         100.0 * (100.0 / 1500 + 200.0 / 2000 + 400.0 / 3000 + 500.0 / 3500 + 600.0 / 4000) / 5) < 1e-9);
        QVERIFY(std::abs(ip.waitNs.mean - 1800.0 / 5) < 1e-9);

        // Compare averages over the same set, and counts its steps as the rows' occurrences.
        const RunDiff d = diffRuns(*trace, *trace);
        QCOMPARE(d.aSteps, size_t(8));
        QCOMPARE(d.steps.front().aNs, TimeNs(2800));
        QCOMPARE(d.steps.front().aOccurrences, uint64_t(5));
        QCOMPARE(d.aStepSet, o.stepSet.description);

        // Every step when asked: input 100+...+700 = 2800 over 1000+...+4500 = 22000 ns.
        StepOptions all;
        all.allSteps = true;
        const Overview a = computeOverview(*trace, all);
        QCOMPARE(a.stepSet.rule, StepSetRule::AllSteps);
        QVERIFY(a.stepSet.allStepsChosen);
        QCOMPARE(a.stepSet.count, size_t(8));
        QCOMPARE(a.stepSet.description, std::string("all 8 steps (chosen; TensorBoard averages 5 of them)"));
        QVERIFY(std::abs(a.inputPercent - 100.0 * 2800 / 22000) < 1e-9);
    }

    // Five steps with compute or fewer: XProf keeps them all (it drops the ends only above 5).
    // Steps 0..4 of the first five of eightCpuSteps' shape, step 3 without compute: set {0,1,2,4},
    // consecutive in the list except for 3, so no number range is given.
    void fewStepsKeepTheirEnds() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        const StringId cat = b.intern("");
        for (int n = 0; n < 5; ++n) {
            b.addSlice(py, n * 1000, 1000, b.intern("train"), cat, rootArgs(b, n + 10));
            if (n != 3) b.addSlice(py, n * 1000 + 10, 100, b.intern("Compute"), cat);
        }
        auto trace = b.finish();
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        QCOMPARE(o.stepSet.count, size_t(4));
        QVERIFY(!o.stepSet.endsDropped);
        QCOMPARE(o.stepSet.description,
                 std::string("4 of 5 steps, as TensorBoard: 1 step without host compute left out"));

        // Six steps, all with compute, numbered 10..15: numbers 11-14 remain, a range.
        TraceBuilder b6("xspace");
        const auto h6 = b6.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto p6 = b6.addTrack(h6, TrackKind::Thread, "python", 1);
        for (int n = 0; n < 6; ++n) {
            b6.addSlice(p6, n * 1000, 1000, b6.intern("train"), b6.intern(""), rootArgs(b6, n + 10));
            b6.addSlice(p6, n * 1000 + 10, 100, b6.intern("Compute"), b6.intern(""));
        }
        auto six = b6.finish();
        QVERIFY(six);
        const Overview o6 = computeOverview(*six);
        QCOMPARE(o6.stepSet.count, size_t(4));
        QCOMPARE(o6.stepSet.description,
                 std::string("4 of 6 steps (numbers 11\u201314), as TensorBoard: the first and the last left out as "
                             "incomplete"));
    }

    // No step has compute (three steps holding only an input wait of 100 ns): XProf would show no step;
    // every step is averaged and the set says why. Input % = 300 / 3000.
    void noStepWithComputeAveragesAll() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        for (int n = 0; n < 3; ++n) {
            b.addSlice(py, n * 1000, 1000, b.intern("train"), b.intern(""), rootArgs(b, n));
            b.addSlice(py, n * 1000 + 10, 100, b.intern("IteratorGetNextOp::DoCompute"), b.intern(""));
        }
        auto trace = b.finish();
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        QCOMPARE(o.stepSet.rule, StepSetRule::XProf);
        QVERIFY(o.stepSet.noneWithCompute);
        QCOMPARE(o.stepSet.count, size_t(3));
        QCOMPARE(o.stepSet.description, std::string("all 3 steps: TensorBoard shows none, as no step has host compute"));
        QVERIFY(std::abs(o.inputPercent - 10.0) < 1e-9);
    }

    // PyTorch (Kineto): every ProfilerStep is averaged, as PyTorch's tools do. Seven steps of
    // 1000 ns, the first and the last with 500 ns of DataLoader input: input % = 1000/7000.
    void kinetoKeepsEveryStep() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python");
        const auto th = b.addTrack(host, TrackKind::Thread, "main", 1);
        const StringId annotation = b.intern("user_annotation"), op = b.intern("cpu_op");
        for (int n = 0; n < 7; ++n) {
            b.addSlice(th, n * 1000, 1000, b.intern("ProfilerStep#" + std::to_string(n)), annotation);
            if (n == 0 || n == 6)
                b.addSlice(th, n * 1000 + 100, 500, b.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
                           annotation);
            b.addSlice(th, n * 1000 + 700, 200, b.intern("aten::mm"), op);
        }
        auto trace = b.finish();
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        QCOMPARE(o.steps.source, StepSource::ProfilerStep);
        QCOMPARE(o.stepSet.rule, StepSetRule::AllSteps);
        QCOMPARE(o.stepSet.count, size_t(7));
        QCOMPARE(o.stepSet.description, std::string("all 7 steps, as PyTorch's tools and timelines average them"));
        QVERIFY(std::abs(o.inputPercent - 100.0 * 1000 / 7000) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestStepSet)
#include "tst_step_set.moc"
