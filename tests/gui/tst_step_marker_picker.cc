// The step-marker picker: a marker picked by name on one page is the steps of every step-based
// page (Overview, Input Pipeline, Pod, Compare), the Overview names the rule, and "Automatic" goes back.
//
// The file: a torch 2.11 profile of a loop without ProfilerStep#N. Counted from the raw file by
//   python3 -c "import gzip,json,collections; j=json.load(gzip.open(F));
//     print(collections.Counter(e['name'] for e in j['traceEvents'] if e.get('ph')=='X' and e.get('cat')=='cpu_op'))"
// "aten::matmul" occurs 5 times (the automatic rule infers a step starting at each: 5 steps) and
// "aten::to" 10 times (chosen as the marker: 10 steps).
#include "app/gui/main_window.h"
#include "model/import/import.h"
#include "views/analysis_view.h"
#include "views/overview/overview_view.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/pod/compare_view.h"
#include "views/pod/pod_view.h"
#include "views/step_marker_box.h"
#include "views/step_marker_choice.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace tracescope;

namespace {

std::string testdata(const char* rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

// Waits until no analysis page is computing.
bool settle(MainWindow& w) {
    QElapsedTimer t;
    t.start();
    auto busy = [&] {
        for (const AnalysisView* v : w.findChildren<AnalysisView*>())
            if (v->isComputing()) return true;
        return false;
    };
    while (busy() && t.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return !busy();
}

// Picks `marker` in a page's box as a user would ("" = Automatic).
void pick(StepMarkerBox* box, const QString& marker) {
    const int i = marker.isEmpty() ? 0 : box->findData(marker);
    QVERIFY2(i >= 0, qPrintable(marker + " is not offered"));
    box->setCurrentIndex(i);
    emit box->activated(i);
}

}  // namespace

class StepMarkerPickerTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pickedMarkerDrivesEveryStepPage() {
        ImportResult r = importTrace(testdata("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        QVERIFY2(r.ok(), r.error.c_str());
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)), "torch.json.gz");
        auto* overview = w.findChild<OverviewView*>();
        auto* input = w.findChild<InputPipelineView*>();
        auto* pod = w.findChild<PodView*>();
        QVERIFY(overview && input && pod);
        // Pages on hidden tabs fill when shown: show each once.
        for (const char* id : {"overview", "input-pipeline", "pod"}) {
            QVERIFY(w.showView(id));
            QVERIFY(settle(w));
        }
        auto steps = [&](size_t overviewSteps, size_t inputSteps, size_t podSteps) {
            for (const char* id : {"overview", "input-pipeline", "pod"}) {
                w.showView(id);
                if (!settle(w)) return false;
            }
            return overview->result() && overview->result()->steps.steps.size() == overviewSteps && input->result() &&
                   input->result()->steps.size() == inputSteps && pod->result() && pod->result()->steps.size() == podSteps;
        };
        QVERIFY(steps(5, 5, 5));
        QCOMPARE(overview->result()->steps.source, StepSource::InferredAnnotation);
        QVERIFY(overview->summaryField("Step rule").contains("aten::matmul"));

        // Picked on the Overview: every page uses it, every picker shows it.
        auto* overviewBox = overview->findChild<StepMarkerBox*>();
        QVERIFY(overviewBox);
        QVERIFY(overviewBox->findData("aten::to") > 0);
        QVERIFY(overviewBox->itemText(overviewBox->findData("aten::to")).contains("10"));
        pick(overviewBox, "aten::to");
        QCOMPARE(w.stepMarker()->marker(), QString("aten::to"));
        QVERIFY(steps(10, 10, 10));
        QCOMPARE(overview->result()->steps.source, StepSource::NamedMarker);
        QVERIFY(overview->summaryField("Step rule").contains("\"aten::to\""));
        for (AnalysisView* page : std::initializer_list<AnalysisView*>{input, pod})
            QCOMPARE(page->findChild<StepMarkerBox*>()->currentData().toString(), QString("aten::to"));

        // Automatic again from the Input Pipeline page.
        pick(input->findChild<StepMarkerBox*>(), {});
        QVERIFY(steps(5, 5, 5));
        QCOMPARE(overviewBox->currentIndex(), 0);

        // Another trace opens with automatic steps.
        pick(overviewBox, "aten::to");
        QVERIFY(steps(10, 10, 10));
        ImportResult again = importTrace(testdata("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        w.setTrace(std::shared_ptr<const Trace>(std::move(again.trace)), "other.json.gz");
        QVERIFY(w.stepMarker()->marker().isEmpty());
        QVERIFY(steps(5, 5, 5));
    }

    // The Compare page finds both runs' steps with the shared marker, and offers the picker too.
    // A and B are the same file: 5 steps each automatically (aten::matmul inferred), 10 each
    // with "aten::to" (counts in the comment at the top).
    void compareUsesTheSharedMarker() {
        ImportResult a = importTrace(testdata("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        ImportResult b = importTrace(testdata("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        QVERIFY2(a.ok() && b.ok(), a.error.c_str());
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.setTrace(std::shared_ptr<const Trace>(std::move(a.trace)), "a.json.gz");
        w.setCompareTrace(std::shared_ptr<const Trace>(std::move(b.trace)), "b.json.gz");
        auto* compare = w.findChild<CompareView*>();
        auto* overview = w.findChild<OverviewView*>();
        QVERIFY(compare && overview);
        auto steps = [&](size_t n) {
            for (const char* id : {"overview", "compare"}) {
                w.showView(id);
                if (!settle(w)) return false;
            }
            const RunDiff* d = compare->result();
            return d && d->aSteps == n && d->bSteps == n && overview->result() &&
                   overview->result()->steps.steps.size() == n;
        };
        QVERIFY(steps(5));
        QCOMPARE(compare->result()->aStepSource, StepSource::InferredAnnotation);

        // Picked on the Overview: the comparison follows.
        pick(overview->findChild<StepMarkerBox*>(), "aten::to");
        QVERIFY(steps(10));
        QCOMPARE(compare->result()->aStepSource, StepSource::NamedMarker);
        QCOMPARE(compare->result()->bStepSource, StepSource::NamedMarker);
        auto* compareBox = compare->findChild<StepMarkerBox*>();
        QVERIFY(compareBox);
        QCOMPARE(compareBox->currentData().toString(), QString("aten::to"));
        // The first step row counts the steps found in each run.
        QCOMPARE(compare->result()->steps.front().aOccurrences, uint64_t(10));

        // Automatic again from the Compare page's own picker: every page follows.
        pick(compareBox, {});
        QVERIFY(w.stepMarker()->marker().isEmpty());
        QVERIFY(steps(5));
    }

    // ProfilerStep#551 and #552 (sampled_rank-0: two "ProfilerStep#" events in the raw file) are
    // offered as one marker, "ProfilerStep", seen twice.
    void numberedMarkersOfferedByStem() {
        ImportResult r = importTrace(testdata("public/hta/sampled_rank-0.json.gz"));
        QVERIFY2(r.ok(), r.error.c_str());
        MainWindow w;
        w.show();
        w.setTrace(std::shared_ptr<const Trace>(std::move(r.trace)), "rank0.json.gz");
        QVERIFY(w.showView("overview"));
        QVERIFY(settle(w));
        auto* box = w.findChild<OverviewView*>()->findChild<StepMarkerBox*>();
        const int i = box->findData("ProfilerStep");
        QVERIFY(i > 0);
        QVERIFY2(box->itemText(i).contains("(2×)"), qPrintable(box->itemText(i)));
    }
};

QTEST_MAIN(StepMarkerPickerTest)
#include "tst_step_marker_picker.moc"
