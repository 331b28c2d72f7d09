// The Compare page in the main window, on the hand-written traces of tests/data/diff_steps
// (2 and 4 ProfilerSteps; the per-step values are worked out in tests/cli/tst_cli_diff.cc):
// with no second trace it offers Open…, which opens the same file dialog as File › Compare
// with…; with one it shows ops and kernels per step, and totals behind its switch.
#include "app/gui/main_window.h"
#include "model/import/import.h"
#include "views/analysis_view.h"
#include "views/pod/compare_view.h"
#include "views/tables/table_page.h"

#include <QFileDialog>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const char* name) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SOURCE_DIR "/tests/data/diff_steps/") + name);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

bool settle(MainWindow& w) {
    QElapsedTimer t;
    t.start();
    auto busy = [&] {
        for (const AnalysisView* v : w.findChildren<AnalysisView*>())
            if (v->isComputing()) return true;
        return false;
    };
    while (busy() && t.elapsed() < 30000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QCoreApplication::processEvents();
    return !busy();
}

// The first row's name in a table page (sorted as the user sees it).
QString firstName(TablePage* page) { return page->view()->model()->index(0, 0).data().toString(); }

}  // namespace

class ComparePageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void emptyPageOffersOpen() {
        std::shared_ptr<const Trace> a = load("two_steps.json");
        QVERIFY(a);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.setTrace(a, "two_steps.json");
        QVERIFY(w.showView("compare"));
        QVERIFY(settle(w));
        auto* compare = w.findChild<CompareView*>();
        QVERIFY(compare);
        QVERIFY(compare->statusText().contains("Open a second trace"));
        // Open… opens the file dialog of File › Compare with… (closed again at once).
        QString dialogTitle;
        QTimer::singleShot(0, &w, [&] {
            if (auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                dialogTitle = d->windowTitle();
                d->reject();
            }
        });
        QVERIFY(compare->pressStatusButton());
        QCOMPARE(dialogTitle, QString("Compare with a trace"));
        QVERIFY(!compare->result());
    }

    void perStepByDefaultTotalsOnTheSwitch() {
        std::shared_ptr<const Trace> a = load("two_steps.json"), b = load("four_steps.json");
        QVERIFY(a && b);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.setTrace(a, "two_steps.json");
        w.setCompareTrace(b, "four_steps.json");
        QVERIFY(settle(w));
        auto* compare = w.findChild<CompareView*>();
        QVERIFY(compare && compare->result());
        QCOMPARE(compare->basis(), DiffBasis::PerStep);
        const QString perStep = compare->summaryText();
        QVERIFY2(perStep.contains("different step counts (A 2, B 4)"), qPrintable(perStep));
        QVERIFY(perStep.contains("(2 steps)") && perStep.contains("(4 steps)"));
        // Per step: add_kernel 5 -> 10 us is the largest regression; in total aten::mm (+200 us).
        QVERIFY2(perStep.contains("Largest kernel regression per step: <b>add_kernel</b>"), qPrintable(perStep));
        QVERIFY(perStep.contains("Largest op regression per step: <b>add_kernel</b>"));
        const auto pages = compare->findChildren<TablePage*>();
        QCOMPARE(pages.size(), qsizetype(3));  // step time, ops, kernels
        TablePage* ops = pages[1];
        QCOMPARE(firstName(ops), QString("add_kernel"));
        QCOMPARE(ops->view()->model()->headerData(2, Qt::Horizontal).toString(), QString("A / step"));

        QRadioButton* totals = nullptr;
        for (QRadioButton* r : compare->findChildren<QRadioButton*>())
            if (r->text() == "Totals") totals = r;
        QVERIFY(totals && totals->isEnabled());
        totals->click();
        QCOMPARE(compare->basis(), DiffBasis::Totals);
        const QString total = compare->summaryText();
        QVERIFY2(total.contains("Largest op regression in total: <b>aten::mm</b>"), qPrintable(total));
        QVERIFY(total.contains("different step counts (A 2, B 4)"));
        QCOMPARE(firstName(ops), QString("aten::mm"));
        QCOMPARE(ops->view()->model()->headerData(2, Qt::Horizontal).toString(), QString("A total"));
    }

    // A run without steps: only totals, said in the summary, the Per step choice disabled.
    void runWithoutStepsShowsTotals() {
        std::shared_ptr<const Trace> a = load("two_steps.json"), b = load("no_steps.json");
        QVERIFY(a && b);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.setTrace(a, "two_steps.json");
        w.setCompareTrace(b, "no_steps.json");
        QVERIFY(settle(w));
        auto* compare = w.findChild<CompareView*>();
        QVERIFY(compare && compare->result());
        QVERIFY(compare->summaryText().contains("B has no steps"));
        for (QRadioButton* r : compare->findChildren<QRadioButton*>())
            if (r->text() == "Per step") QVERIFY(!r->isEnabled());
    }
};

QTEST_MAIN(ComparePageTest)
#include "tst_compare_page.moc"
