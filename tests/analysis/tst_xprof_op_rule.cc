// XProf's op-name rule (TSL's tf_op_utils.cc, ParseTfOpFullname / IsTfOpName): an event named
// like an op whose name XProf does not take ("_send_y_0:_Send") is no framework op for XProf, so
// the XProf-convention tables leave it out. Expected values are worked out by hand from the
// regular expressions and the event times, and were checked against XProf 2.24's own
// framework_op_stats on the same file (tests/peers, peers_xprof_send_recv).
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/import/import.h"

#include <QtTest>

using namespace tracescope;

namespace {

const OpStatsRow* findRow(const OpStatsResult& r, OpSide side, const std::string& name) {
    for (const auto& row : r.rows)
        if (row.side == side && row.name == name) return &row;
    return nullptr;
}

std::unique_ptr<Trace> load(const char* name) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/" + name);
    if (!r.ok()) qWarning("import failed: %s", r.error.c_str());
    return std::move(r.trace);
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

class TestXprofOpRule : public QObject {
    Q_OBJECT

private slots:
    void names_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("isOp");
        // TensorFlow: name [A-Za-z0-9.][A-Za-z0-9_./>-]*, type [A-Z_][A-Za-z0-9_]*.
        QTest::newRow("tf op") << "model/dense/MatMul:MatMul" << true;
        QTest::newRow("internal send") << "_send_y_0:_Send" << false;  // name begins with '_'
        QTest::newRow("internal recv") << "_recv_x_0:_Recv" << false;
        QTest::newRow("valid name, internal type") << "n/_1:_HostRecv" << true;
        QTest::newRow("name begins with a dot") << ".x/y:Op" << true;
        QTest::newRow("name with '>'") << "outer>inner:Op" << true;
        QTest::newRow("name with a space, TF type") << "a b:Op" << false;
        QTest::newRow("type with a space") << "a:Type With Space" << false;
        QTest::newRow("mixed-case type") << "step:trainStep" << false;  // neither TF (lowercase first) nor JAX
        // Split at the first ':': "tensorflow" / ":Foo:Bar", and ":Foo:Bar" is no type.
        QTest::newRow("C++ scope") << "tensorflow::Foo:Bar" << false;
        // JAX: any name, type [a-z_][a-z0-9_]*, optionally "[...]".
        QTest::newRow("jax op") << "jit(f)/dot_general:dot_general" << true;
        QTest::newRow("jax type, '_' name") << "_foo:bar" << true;
        QTest::newRow("jax type with brackets") << "x:transpose[permutation=(0, 3, 1, 2)]" << true;
        QTest::newRow("jax type, bracket not last") << "x:transpose[a]b" << false;
        QTest::newRow("empty type") << "_anything:" << true;  // XProf derives a type: always an op
        QTest::newRow("tf.data") << "Iterator::Prefetch::BatchV2" << true;
        QTest::newRow("no ':'") << "_send_y_0" << false;
        QTest::newRow("memcpy, no ':'") << "MemcpyHToD" << true;
        QTest::newRow("memcpy, case ignored") << "MEMCPYDtoH_1" << true;
        QTest::newRow("empty") << "" << false;
    }

    void names() {
        QFETCH(QString, name);
        QFETCH(bool, isOp);
        QCOMPARE(isXprofOpName(name.toStdString()), isOp);
    }

    void deviceRowNames() {
        const OpNameType internal = splitXprofDeviceOp("_send_y_0:_Send");
        QCOMPARE(internal.name, std::string("_send_y_0:_Send"));  // XProf: the whole text, type Unknown
        QCOMPARE(internal.type, std::string("Unknown"));
        const OpNameType normal = splitXprofDeviceOp("model/dense/MatMul:MatMul");
        QCOMPARE(normal.name, std::string("model/dense/MatMul"));
        QCOMPARE(normal.type, std::string("MatMul"));
        // Without ':' the names stay as splitTfOpName reads them (HLO ops, no-type annotations).
        QCOMPARE(splitXprofDeviceOp("fusion_34").type, std::string("fusion"));
    }

    // tests/data/xprof_send_recv.xplane.pb (tests/tools/make_xspace_send_recv.py), times in ns:
    //   host line 1: MatMul [1000,4000) > _recv_x_0 [1500,2500); _send_y_0 [4200,4800);
    //                n/_1:_HostRecv [6000,6400); _send_z_0 [8000,9000)
    //   host line 2: _send_w_0:_HostSend [0,500)
    //   GPU stream:  kernel [2000,3500) tf_op model/dense/MatMul:MatMul; copy [4500,4800) tf_op _send_y_0:_Send
    void opStatsLeaveOutInternalOps() {
        auto trace = load("xprof_send_recv.xplane.pb");
        QVERIFY(trace);
        const OpStatsResult r = computeOpStats(*trace);

        // Host: the _send/_recv events are in no row.
        for (const auto& row : r.rows)
            if (row.side == OpSide::Host) QVERIFY2(row.name[0] != '_', row.name.c_str());
        const OpStatsRow* matmul = findRow(r, OpSide::Host, "model/dense/MatMul");
        const OpStatsRow* hostRecv = findRow(r, OpSide::Host, "n/_1");
        QVERIFY(matmul && hostRecv);
        QCOMPARE(matmul->occurrences, uint64_t(1));
        QCOMPARE(matmul->totalNs, TimeNs(3000));
        QCOMPARE(matmul->selfNs, TimeNs(3000));  // the _recv inside is no child: 3000, not 3000 - 1000
        QCOMPARE(hostRecv->type, std::string("_HostRecv"));
        QCOMPARE(hostRecv->selfNs, TimeNs(400));
        // Host IDLE: line 1's ops span [1000,6400) = 5400, of which ops 3000 + 400 -> 2000 (the
        // trailing _send_z_0 does not stretch the span); line 2 has no op: no span, no idle.
        QCOMPARE(r.hostIdleNs, TimeNs(2000));
        QCOMPARE(r.hostTotalSelfNs, TimeNs(3400 + 2000));

        // Device: the copy for _send_y_0 keeps its time, in a row named as XProf names it.
        const OpStatsRow* devMatmul = findRow(r, OpSide::Device, "model/dense/MatMul");
        const OpStatsRow* devSend = findRow(r, OpSide::Device, "_send_y_0:_Send");
        QVERIFY(devMatmul && devSend);
        QCOMPARE(devMatmul->totalNs, TimeNs(1500));
        QCOMPARE(devSend->type, std::string("Unknown"));
        QCOMPARE(devSend->totalNs, TimeNs(300));
        // Device IDLE: window [2000,4800) = 2800 minus 1500 + 300 -> 1000.
        QCOMPARE(r.deviceIdleNs, TimeNs(1000));

        // The note: 4 host events, 1000 + 600 + 1000 + 500 = 3100 ns; and the one copy, 300 ns.
        QCOMPARE(r.notes.size(), size_t(2));
        QVERIFY2(contains(r.notes[0], "4 host events") && contains(r.notes[0], "3.100 µs") &&
                     contains(r.notes[0], "_recv_x_0:_Recv"),
                 r.notes[0].c_str());
        QVERIFY2(contains(r.notes[1], "(1 in all, 300 ns") && contains(r.notes[1], "_send_y_0:_Send"),
                 r.notes[1].c_str());

        // Navigation knows the same occurrences the rows count: MatMul and n/_1 on the host, the
        // kernel and the copy on the device; a selected _send slice has no row.
        QCOMPARE(occurrencesOf(*trace, r, size_t(matmul - r.rows.data())).size(), size_t(1));
        QCOMPARE(sliceRowIndexOf(*trace, r).size(), size_t(4));
    }

    // The figures that follow the op table: overview's top device ops and op placement, scopes,
    // and the kernel table's op column (XProf: the op's name; for an op it does not take, the
    // whole text, as the device row).
    void dependentFiguresAgree() {
        auto trace = load("xprof_send_recv.xplane.pb");
        QVERIFY(trace);
        const Overview o = computeOverview(*trace);
        QCOMPARE(o.topDeviceOps.size(), size_t(2));
        QCOMPARE(o.topDeviceOps[1].name, std::string("_send_y_0:_Send"));
        // Op placement by self time: host 3400, device 1500 + 300 = 1800.
        QCOMPARE(o.hostOpPercent, 100.0 * 3400 / 5200);

        const ScopeTree tree = computeScopeTree(*trace);
        QCOMPARE(tree.scopeEvents, uint64_t(2));  // MatMul and n/_1; no _send/_recv scope events
        for (const auto& n : tree.nodes) QVERIFY2(n.path.rfind("_recv_x_0", 0) != 0, n.path.c_str());
        bool noted = false;
        for (const auto& n : tree.notes) noted = noted || contains(n, "XProf's op-name rule");
        QVERIFY(noted);

        const KernelStatsResult k = computeKernelStats(*trace);
        QCOMPARE(k.kernelCount, uint64_t(1));  // the copy is no kernel
    }
};

QTEST_APPLESS_MAIN(TestXprofOpRule)
#include "tst_xprof_op_rule.moc"
