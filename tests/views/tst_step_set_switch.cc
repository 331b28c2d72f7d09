// The "All steps" switch: the pages that average over steps follow one shared choice, say which
// steps they average, and the choice is remembered per file in the user's settings.
// The trace is the framework-made JAX capture (10 steps, each with host compute): TensorBoard's
// step set is steps 1-8 (the first and the last left out), every step when switched.
#include "model/import/import.h"
#include "views/overview/overview_view.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/step_marker_choice.h"
#include "views/step_set_box.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace tracescope;

namespace {

const QString kFixture = QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/peers/jax_default_capture.xplane.pb");

bool waitForResult(AnalysisView& view, const std::function<void()>& start) {
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    start();
    return ready.wait(20000) && !view.isComputing();
}

}  // namespace

class StepSetSwitchTest : public QObject {
    Q_OBJECT
    QTemporaryDir config_;
    std::shared_ptr<const Trace> trace_;

private slots:
    void initTestCase() {
        QVERIFY(config_.isValid());
        qputenv("XDG_CONFIG_HOME", config_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("TraceScopeStepSetTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TraceScope"));
        ImportResult imported = importTrace(kFixture.toStdString());
        QVERIFY(imported.ok());
        trace_ = std::shared_ptr<const Trace>(std::move(imported.trace));
    }

    void pagesFollowTheSwitch() {
        StepMarkerChoice choice;
        choice.setTracePath(kFixture);
        QVERIFY(!choice.allSteps());
        OverviewView overview;
        InputPipelineView pipeline;
        overview.resize(1280, 800);
        pipeline.resize(1280, 800);
        overview.setStepMarkerChoice(&choice);
        pipeline.setStepMarkerChoice(&choice);
        QVERIFY(waitForResult(overview, [&] { overview.setTrace(trace_); }));
        QVERIFY(waitForResult(pipeline, [&] { pipeline.setTrace(trace_); }));
        QCOMPARE(overview.summaryField("Averaged over"),
                 QString("8 of 10 steps (numbers 1\u20138), as TensorBoard: the first and the last left out as "
                         "incomplete"));
        QCOMPARE(overview.result()->stepSet.count, size_t(8));
        QCOMPARE(pipeline.result()->stepSet.count, size_t(8));

        // One click on the Overview's switch: both pages average every step.
        StepSetBox* box = overview.findChild<StepSetBox*>();
        QVERIFY(box);
        QSignalSpy overviewReady(&overview, &AnalysisView::resultReady);
        QSignalSpy pipelineReady(&pipeline, &AnalysisView::resultReady);
        box->setChecked(true);
        QVERIFY(overviewReady.count() > 0 || overviewReady.wait(20000));
        QVERIFY(pipelineReady.count() > 0 || pipelineReady.wait(20000));
        QVERIFY(choice.allSteps());
        QCOMPARE(overview.summaryField("Averaged over"), QString("all 10 steps (chosen; TensorBoard averages 8 of them)"));
        QCOMPARE(pipeline.result()->stepSet.count, size_t(10));
        QVERIFY(pipeline.findChild<StepSetBox*>()->isChecked());
    }

    // The choice is kept for that file, and another file starts from the step set.
    void rememberedPerFile() {
        StepMarkerChoice choice;
        choice.setTracePath(kFixture);
        QVERIFY(choice.allSteps());  // set by the previous case
        choice.setTracePath(QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/peers/jax_train_steps.xplane.pb"));
        QVERIFY(!choice.allSteps());
        choice.setTracePath(kFixture);
        QVERIFY(choice.allSteps());
        choice.setAllSteps(false);
        StepMarkerChoice later;
        later.setTracePath(kFixture);
        QVERIFY(!later.allSteps());
    }
};

QTEST_MAIN(StepSetSwitchTest)
#include "tst_step_set_switch.moc"
