// Analyses on the real traces in testdata, checked against numbers computed straight from
// the raw files by scripts that share no code with TraceScope:
//   tests/tools/kernel_sums.py    (Kineto JSON)  -> data/kineto_reference.json
//   tests/tools/xspace_kernels.py (XSpace wire)  -> data/xspace_kernels.json
//   tests/tools/scope_sums.py     (Kineto JSON)  -> data/scope_reference.json
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/steps.h"
#include "model/import/import.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fstream>
#include <map>

using namespace tracescope;
using nlohmann::json;

namespace {

json loadReference(const char* name) {
    std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/" + name);
    return json::parse(in);
}

std::unique_ptr<Trace> load(const std::string& relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    if (!r.ok()) qWarning("import failed: %s", r.error.c_str());
    return std::move(r.trace);
}

// Kernel rows summed per kernel name: (occurrences, total ns).
std::map<std::string, std::pair<uint64_t, TimeNs>> perName(const KernelStatsResult& k) {
    std::map<std::string, std::pair<uint64_t, TimeNs>> m;
    for (const auto& r : k.rows) {
        m[r.name].first += r.occurrences;
        m[r.name].second += r.totalNs;
    }
    return m;
}

void checkKernels(const Trace& trace, const json& ref) {
    const KernelStatsResult k = computeKernelStats(trace);
    QCOMPARE(k.kernelCount, ref["kernel_count"].get<uint64_t>());
    const auto m = perName(k);
    const json& rows = ref.contains("kernels") ? ref["kernels"] : ref["rows"];
    QCOMPARE(m.size(), rows.size());
    TimeNs total = 0;
    for (const auto& r : rows) {
        const std::string name = r["name"].get<std::string>();
        auto it = m.find(name);
        QVERIFY2(it != m.end(), name.c_str());
        QCOMPARE(it->second.first, r["occurrences"].get<uint64_t>());
        QCOMPARE(it->second.second, r["total_ns"].get<TimeNs>());
        total += r["total_ns"].get<TimeNs>();
    }
    QCOMPARE(k.totalKernelNs, total);
    // Navigation: the top row's occurrences are exactly its count, all kernels of that name.
    QVERIFY(!k.rows.empty());
    const auto occ = occurrencesOf(trace, k, 0);
    QCOMPARE(occ.size(), size_t(k.rows[0].occurrences));
    for (const SliceRef& s : occ)
        QCOMPARE(trace.tracks[s.track].slices.duration[s.index] <= k.rows[0].maxNs, true);
    // The inverse index maps every kernel of every row back to its row.
    const SliceRowIndex index = sliceRowIndexOf(trace, k);
    QCOMPARE(index.size(), size_t(k.kernelCount));
    for (const SliceRef& s : occ) QCOMPARE(index.rowOf(s), std::optional<uint32_t>(0));
}

}  // namespace

class TestAnalysisReal : public QObject {
    Q_OBJECT

private slots:
    void kinetoFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("key");
        QTest::newRow("torch_mlp_memory_h100") << "gpu/torch_mlp_memory_h100.json" << "torch_mlp_memory_h100.json";
        QTest::newRow("hta rank-0") << "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"
                                    << "rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
        // Old Kineto categories (Operator / Runtime / Kernel), ProfilerStep#N written as an Operator.
        QTest::newRow("kineto worker0 (old categories)") << "public/kineto/worker0.1623143089861.pt.trace.json.gz"
                                                         << "worker0.1623143089861.pt.trace.json.gz";
    }

    void kinetoFiles() {
        QFETCH(QString, file);
        QFETCH(QString, key);
        const json ref = loadReference("kineto_reference.json")[key.toStdString()];
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        checkKernels(*trace, ref);

        // Host op stats by name: occurrences, total and nesting-aware self time of every cpu_op.
        const OpStatsResult ops = computeOpStats(*trace);
        std::map<std::string, const OpStatsRow*> host;
        for (const auto& r : ops.rows)
            if (r.side == OpSide::Host && !r.isIdle) host[r.name] = &r;
        QCOMPARE(host.size(), ref["cpu_ops"].size());
        for (const auto& c : ref["cpu_ops"]) {
            const std::string name = c["name"].get<std::string>();
            auto it = host.find(name);
            QVERIFY2(it != host.end(), name.c_str());
            QCOMPARE(it->second->occurrences, c["occurrences"].get<uint64_t>());
            QCOMPARE(it->second->totalNs, c["total_ns"].get<TimeNs>());
            QCOMPARE(it->second->selfNs, c["self_ns"].get<TimeNs>());
        }
        // Every op occurrence maps back to the row whose occurrencesOf lists it.
        const SliceRowIndex rowIndex = sliceRowIndexOf(*trace, ops);
        for (size_t row = 0; row < std::min<size_t>(ops.rows.size(), 5); ++row)
            for (const SliceRef& s : occurrencesOf(*trace, ops, row))
                QCOMPARE(rowIndex.rowOf(s), std::optional<uint32_t>(uint32_t(row)));
        // Device rows cover every kernel, memcpy and memset exactly once.
        TimeNs deviceRows = 0;
        for (const auto& r : ops.rows)
            if (r.side == OpSide::Device && !r.isIdle) deviceRows += r.kernelNs;
        QCOMPARE(deviceRows, ref["kernel_total_ns"].get<TimeNs>());

        // Steps: ProfilerStep#N numbers and durations.
        const StepsResult steps = findSteps(*trace);
        QCOMPARE(steps.source, StepSource::ProfilerStep);
        QCOMPARE(steps.steps.size(), ref["steps"].size());
        for (size_t i = 0; i < steps.steps.size(); ++i) {
            QCOMPARE(steps.steps[i].number, ref["steps"][i]["number"].get<int64_t>());
            QCOMPARE(steps.steps[i].durationNs, ref["steps"][i]["duration_ns"].get<TimeNs>());
        }
        // The breakdown of every step adds up to the step.
        const ClassifiedTrace ct = classifyTrace(*trace);
        for (const auto& b : breakdownSteps(ct, steps)) {
            TimeNs sum = 0;
            for (TimeNs v : b.ns) sum += v;
            QCOMPARE(sum, b.step.durationNs);
        }
    }

    void torchOverview() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        // The file's deviceProperties: one H100 with 132 SMs; kernels run on device 0 only.
        QCOMPARE(o.environment.deviceType, std::string("GPU"));
        QCOMPARE(o.environment.deviceCount, size_t(1));
        bool name = false, sms = false;
        for (const auto& [k, v] : o.environment.devices[0].properties) {
            name = name || (k == "name" && v == "NVIDIA H100 80GB HBM3");
            sms = sms || (k == "numSms" && v == "132");
        }
        QVERIFY(name && sms);
        QCOMPARE(o.steps.steps.size(), size_t(6));
        QVERIFY(o.inputBound != InputBound::Unknown);
        QVERIFY(!o.topDeviceOps.empty() && o.topDeviceOps.size() <= 10);
        QVERIFY(o.hostOpPercent + o.deviceOpPercent > 99.99);

        // [memory] allocations (Bytes > 0): all of them under the root; those outside any cpu_op
        // of their thread under "(no op)" (kernel_sums.py "memory").
        const json mem = loadReference("kineto_reference.json")["torch_mlp_memory_h100.json"]["memory"];
        const ScopeTree tree = computeScopeTree(*trace);
        QVERIFY(tree.hasMemory);
        QCOMPARE(tree.nodes[0].bytesAllocated, mem["bytes"].get<int64_t>());
        QCOMPARE(tree.nodes[0].allocations, mem["allocations"].get<uint64_t>());
        int64_t outside = 0;
        for (uint32_t c : tree.nodes[0].children)
            if (tree.nodes[c].name == "(no op)") outside = tree.nodes[c].bytesAllocated;
        QCOMPARE(outside, mem["bytes_outside_cpu_ops"].get<int64_t>());
    }

    // The scopes page's single walk gives the tree and the slice indexes that the three separate
    // walks give (each of which the view tests and the scope reference check).
    void scopeTreeWithIndexesMatchesSeparateWalks_data() { kinetoScopes_data(); }
    void scopeTreeWithIndexesMatchesSeparateWalks() {
        QFETCH(QString, file);
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        const ClassifiedTrace ct = classifyTrace(*trace);
        const ScopeTree tree = computeScopeTree(ct);
        const SliceRowIndex nodes = sliceNodeIndexOf(ct, tree);
        const SliceRowIndex types = sliceOpTypeIndexOf(ct, tree);
        const ScopeTreeWithIndexes one = computeScopeTreeWithIndexes(ct);
        QCOMPARE(one.tree.nodes.size(), tree.nodes.size());
        for (size_t i = 0; i < tree.nodes.size(); ++i) {
            QCOMPARE(one.tree.nodes[i].name, tree.nodes[i].name);
            QCOMPARE(one.tree.nodes[i].totalNs, tree.nodes[i].totalNs);
            QCOMPARE(one.tree.nodes[i].occurrences, tree.nodes[i].occurrences);
        }
        QCOMPARE(one.tree.opView.size(), tree.opView.size());
        for (size_t i = 0; i < tree.opView.size(); ++i) QCOMPARE(one.tree.opView[i].type, tree.opView[i].type);
        QCOMPARE(one.tree.notes, tree.notes);
        QVERIFY(nodes.size() > 0 && types.size() > 0);
        QCOMPARE(one.sliceNodes.size(), nodes.size());
        QCOMPARE(one.sliceTypes.size(), types.size());
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t)
            for (uint32_t i = 0; i < trace->tracks[t].slices.size(); ++i) {
                QCOMPARE(one.sliceNodes.rowOf({t, i}), nodes.rowOf({t, i}));
                QCOMPARE(one.sliceTypes.rowOf({t, i}), types.rowOf({t, i}));
            }
    }

    // The scope tree and op-type view of Kineto files, node by node: occurrences (own events),
    // time (union of the intervals at or under the node), self (time minus the children's union)
    // and device time (activities linked by correlation id to the innermost enclosing scope event
    // of their runtime call); per op type: occurrences, summed duration, launched device time.
    void kinetoScopes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("key");
        QTest::newRow("torch_mlp_memory_h100") << "gpu/torch_mlp_memory_h100.json" << "torch_mlp_memory_h100.json";
        QTest::newRow("torch2.11_cu130_h100") << "gpu/torch2.11_cu130_h100_kineto_trace.json.gz"
                                              << "torch2.11_cu130_h100_kineto_trace.json.gz";
        QTest::newRow("hta rank-0") << "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"
                                    << "rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
        QTest::newRow("kineto worker0 (old categories)") << "public/kineto/worker0.1623143089861.pt.trace.json.gz"
                                                         << "worker0.1623143089861.pt.trace.json.gz";
    }

    void kinetoScopes() {
        QFETCH(QString, file);
        QFETCH(QString, key);
        const json ref = loadReference("scope_reference.json")[key.toStdString()];
        QVERIFY(!ref.is_null());
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        const ScopeTree tree = computeScopeTree(*trace);

        QCOMPARE(tree.nodes[0].totalNs, ref["root"]["time_ns"].get<TimeNs>());
        QCOMPARE(tree.nodes[0].deviceNs, ref["root"]["device_ns"].get<TimeNs>());
        QCOMPARE(tree.scopeEvents, ref["root"]["events"].get<uint64_t>());
        // Every node the script sees (a node made only by memory instants, "(no op)" for
        // allocations outside any op, is not one of them).
        std::map<std::string, const ScopeNode*> byPath;
        for (size_t i = 1; i < tree.nodes.size(); ++i) {
            const ScopeNode& n = tree.nodes[i];
            if (n.totalNs > 0 || n.deviceNs > 0 || n.occurrences > 0 || !n.children.empty() || n.bytesAllocated == 0)
                byPath[n.path] = &n;
        }
        QCOMPARE(byPath.size(), ref["nodes"].size());
        for (const auto& r : ref["nodes"]) {
            const std::string path = r["path"].get<std::string>();
            auto it = byPath.find(path);
            QVERIFY2(it != byPath.end(), path.c_str());
            const ScopeNode& n = *it->second;
            QVERIFY2(n.occurrences == r["occurrences"].get<uint64_t>(), path.c_str());
            QVERIFY2(n.totalNs == r["time_ns"].get<TimeNs>(), path.c_str());
            QVERIFY2(n.selfNs == r["self_ns"].get<TimeNs>(), path.c_str());
            QVERIFY2(n.deviceNs == r["device_ns"].get<TimeNs>(), path.c_str());
        }

        std::map<std::string, const OpTypeRow*> byType;
        for (const auto& r : tree.opView) byType[r.type] = &r;
        size_t withTime = 0;  // rows the script sees: op types and "(no op)" (memory-only rows aside)
        for (const auto& r : tree.opView) withTime += r.occurrences > 0 || r.deviceNs > 0;
        QCOMPARE(withTime, ref["op_view"].size());
        for (const auto& r : ref["op_view"]) {
            const std::string name = r["name"].get<std::string>();
            auto it = byType.find(name);
            QVERIFY2(it != byType.end(), name.c_str());
            QVERIFY2(it->second->occurrences == r["occurrences"].get<uint64_t>(), name.c_str());
            QVERIFY2(it->second->totalNs == r["total_ns"].get<TimeNs>(), name.c_str());
            QVERIFY2(it->second->deviceNs == r["device_ns"].get<TimeNs>(), name.c_str());
        }
    }

    // The figures of issue 18 on torch_mlp_memory_h100.json, spelled out (from scope_reference.json):
    // the 6 optimizer-step annotations last 4.44 ms in all, 2.19 ms of it outside their ops.
    void optimizerStepNode() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        const ScopeTree tree = computeScopeTree(*trace);
        const ScopeNode* step = nullptr;
        for (const auto& n : tree.nodes)
            if (n.path == "Optimizer.step#AdamW.step") step = &n;
        QVERIFY(step);
        QCOMPARE(step->occurrences, uint64_t(6));
        QCOMPARE(step->totalNs, TimeNs(4441469));
        QCOMPARE(step->selfNs, TimeNs(2188777));
        QVERIFY(step->selfNs < step->totalNs);
        // The op view carries device time on the ops that launched it.
        for (const auto& r : tree.opView) {
            if (r.type == "aten::mm") QCOMPARE(r.deviceNs, TimeNs(2613302));
            QVERIFY(r.type != "kernel" && r.type != "memcpy" && r.type != "memset");
        }
    }

    void xspaceFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("key");
        QTest::newRow("tfprofiler 8 GPU") << "public/tfprofiler/34.83.195.179_6003.xplane.pb"
                                          << "34.83.195.179_6003.xplane.pb";
        QTest::newRow("jax_mlp_h100") << "gpu/jax_mlp_h100.xplane.pb" << "jax_mlp_h100.xplane.pb";
    }

    void xspaceFiles() {
        QFETCH(QString, file);
        QFETCH(QString, key);
        const json ref = loadReference("xspace_kernels.json")[key.toStdString()];
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        checkKernels(*trace, ref);
        const Overview o = computeOverview(*trace);
        QVERIFY(o.steps.source != StepSource::None);
        // Device Steps lines: one step per name, as long as its longest device marker.
        if (!ref["steps"].empty()) {
            QCOMPARE(o.steps.source, StepSource::XSpaceStepsLine);
            QCOMPARE(o.steps.steps.size(), ref["steps"].size());
            for (size_t i = 0; i < o.steps.steps.size(); ++i)
                QCOMPARE(o.steps.steps[i].durationNs, ref["steps"][i]["duration_ns"].get<TimeNs>());
        }
        for (const auto& b : o.breakdown) {
            TimeNs sum = 0;
            for (TimeNs v : b.ns) sum += v;
            QCOMPARE(sum, b.step.durationNs);
        }
    }

    void jaxSteps() {
        // jax_mlp_h100: 10 StepTraceAnnotation("train") host events with step_num 0..9 (README).
        auto trace = load("gpu/jax_mlp_h100.xplane.pb");
        QVERIFY(trace);
        const StepsResult s = findSteps(*trace);
        QCOMPARE(s.source, StepSource::XSpaceStepAnnotation);
        QCOMPARE(s.steps.size(), size_t(10));
        for (size_t i = 0; i < s.steps.size(); ++i) QCOMPARE(s.steps[i].number, int64_t(i));
    }
};

QTEST_APPLESS_MAIN(TestAnalysisReal)
#include "tst_analysis_real.moc"
