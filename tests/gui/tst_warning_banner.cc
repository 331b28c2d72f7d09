// A cut file is loud in the GUI: the banner above every page says where the file
// ends (and lists the warnings on a click), the Overview, Op Stats, Kernel Stats and
// Input Pipeline pages carry a note beside their headline, and a complete file
// shows none of it. The cut is made here, at a byte whose last complete event is
// known (tst_import_warnings checks it with its own scanner).
#include "app/gui/main_window.h"
#include "app/gui/warning_banner.h"
#include "model/import/import.h"
#include "views/analysis_view.h"
#include "views/overview/overview_view.h"
#include "views/partial_trace_note.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tracescope;

namespace {

const std::string kTorch = TRACESCOPE_SHARED_DIR "/testdata/gpu/torch_mlp_memory_h100.json";

std::shared_ptr<const Trace> load(const std::string& path) {
    ImportResult r = importTrace(path);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

// The first `bytes` bytes of the Kineto file, imported.
std::shared_ptr<const Trace> loadCut(const QTemporaryDir& dir, size_t bytes) {
    std::ifstream in(kTorch, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    const std::string path = dir.filePath(QStringLiteral("cut_%1.json").arg(bytes)).toStdString();
    std::ofstream(path, std::ios::binary).write(s.str().data(), std::streamsize(bytes));
    return load(path);
}

void waitForPages(MainWindow& w) {
    for (AnalysisView* v : w.findChildren<AnalysisView*>()) QTRY_VERIFY_WITH_TIMEOUT(!v->isComputing(), 60000);
}

// The partial-trace note of each page that must have one.
QList<PartialTraceNote*> pageNotes(MainWindow& w) {
    QList<PartialTraceNote*> notes;
    for (QWidget* page : std::initializer_list<QWidget*>{w.findChild<OverviewView*>(), w.findChild<OpStatsView*>(),
                                                         w.findChild<KernelStatsView*>(),
                                                         w.findChild<InputPipelineView*>()}) {
        if (!page) return {};
        notes << page->findChild<PartialTraceNote*>();
    }
    return notes;
}

}  // namespace

class WarningBannerTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void cutFileShowsBannerAndNotes() {
        auto cut = loadCut(dir_, 600000);
        QVERIFY(cut);
        MainWindow w;
        w.show();
        w.setTrace(cut, QStringLiteral("cut.json"));
        WarningBanner* banner = w.warningBanner();
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains("The file ends early at byte 599,201 of 600,000"), qPrintable(banner->text()));
        QVERIFY(banner->text().contains("numbers below cover only what was read"));
        // Above every page: the banner stays while the pages change.
        for (const QString& id : w.viewIds()) {
            QVERIFY(w.showView(id));
            QVERIFY(banner->isVisible());
        }
        waitForPages(w);
        const QList<PartialTraceNote*> notes = pageNotes(w);
        QCOMPARE(notes.size(), 4);
        for (PartialTraceNote* note : notes) {
            QVERIFY(note);
            QVERIFY(!note->isHidden());
            QVERIFY2(note->text().contains("byte 599,201 of 600,000"), qPrintable(note->text()));
        }

        // One click lists every import warning.
        banner->warningsButton()->click();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w.findChild<QMessageBox*>()) != nullptr);
        QVERIFY2(box->informativeText().contains("file is truncated at byte 600000"), qPrintable(box->informativeText()));
        QCOMPARE(box->informativeText().count("<li>"), int(cut->warnings.size()));
        box->close();
    }

    void completeFileHasNoBanner() {
        auto cut = loadCut(dir_, 600000);
        auto whole = load(kTorch);
        QVERIFY(cut && whole);
        MainWindow w;
        w.show();
        w.setTrace(cut, QStringLiteral("cut.json"));
        QVERIFY(w.warningBanner()->isVisible());
        w.setTrace(whole, QString::fromStdString(kTorch));  // a complete file replaces the cut one
        QVERIFY(!w.warningBanner()->isVisible());
        waitForPages(w);
        for (PartialTraceNote* note : pageNotes(w)) QVERIFY(note && note->isHidden());
    }

    // Cut before Kineto wrote any GPU event: "No GPU kernels" says the file is partial.
    void emptyKernelPageSaysPartial() {
        auto cut = loadCut(dir_, 300000);
        QVERIFY(cut);
        MainWindow w;
        w.show();
        w.setTrace(cut, QStringLiteral("cut.json"));
        QVERIFY(w.showView(QStringLiteral("kernel-stats")));
        waitForPages(w);
        bool said = false;
        for (QLabel* l : w.findChild<KernelStatsView*>()->findChildren<QLabel*>())
            said = said || (l->isVisible() && l->text().contains("No GPU kernels") && l->text().contains("Partial trace"));
        QVERIFY(said);
    }
};

QTEST_MAIN(WarningBannerTest)
#include "tst_warning_banner.moc"
