// Opening a PyTorch profiler folder in the window: the latest cycle opens (one worker as its
// file, several as one run), File > Runs lists every cycle with the open one checked, and
// picking another opens it. Layouts are links to real Kineto traces; what each cycle holds
// follows from the names given here.
#include "app/gui/main_window.h"
#include "model/import/import.h"
#include "model/results/rank_summary.h"
#include "views/collectives/collectives_view.h"
#include "views/pod/pod_view.h"

#include <QAction>
#include <QTabWidget>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace tracescope;
namespace fs = std::filesystem;

namespace {

std::string shared(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

QString link(const QTemporaryDir& dir, const std::string& name, const std::string& target) {
    const fs::path p = fs::path(dir.path().toStdString()) / name;
    fs::create_symlink(shared(target), p);
    return QString::fromStdString(p.string());
}

size_t slicesOf(const QString& path) {
    ImportResult r = importTrace(path.toStdString());
    return r.ok() ? r.trace->counts().slices : size_t(-1);
}

QMenu* runsMenu(MainWindow& w) { return w.findChild<QMenu*>(QStringLiteral("runsMenu")); }

// The indices of the Runs menu's checked entries.
QList<int> checkedRuns(QMenu* menu) {
    QList<int> out;
    const QList<QAction*> actions = menu->actions();
    for (int i = 0; i < actions.size(); ++i)
        if (actions[i]->isChecked()) out << i;
    return out;
}

const std::string kRank0 = "public/hta/sampled_rank-0.json.gz";
const std::string kRank1 = "public/hta/sampled_rank-1.json.gz";
const std::string kH100 = "gpu/torch2.11_cu130_h100_kineto_trace.json.gz";
const std::string kMi250 = "public/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz";

}  // namespace

class OpenFolderTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        if (!fs::exists(shared(kH100))) QSKIP("the shared test traces are not there");
    }

    // One worker, three cycles (the first and the last link one file): the last opens as one
    // trace (no run of workers); File > Runs has all three, newest first, only the open one
    // checked; picking cycle 2 opens its file.
    void cyclesInTheRunsMenu() {
        QTemporaryDir dir;
        link(dir, "host_7.1700000000000000000.pt.trace.json.gz", kH100);
        const QString f2 = link(dir, "host_7.1700000060000000000.pt.trace.json.gz", kRank0);
        const QString f3 = link(dir, "host_7.1700000120000000000.pt.trace.json.gz", kH100);
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(dir.path());
        QVERIFY(loaded.wait(30000));
        QVERIFY(!w.trace()->metadataValue("workers"));  // not a run of workers
        QCOMPARE(w.trace()->counts().slices, slicesOf(f3));
        QMenu* menu = runsMenu(w);
        QVERIFY(menu && menu->isEnabled());
        QCOMPARE(menu->actions().size(), 3);
        QVERIFY2(menu->actions()[0]->text().startsWith(QStringLiteral("cycle 3")),
                 qPrintable(menu->actions()[0]->text()));
        QVERIFY(menu->actions()[0]->text().contains(QStringLiteral("host_7")));
        QCOMPARE(checkedRuns(menu), QList<int>{0});

        menu->actions()[1]->trigger();
        QVERIFY(loaded.wait(30000));
        QCOMPARE(w.trace()->counts().slices, slicesOf(f2));
        QVERIFY(slicesOf(f2) != slicesOf(f3));
        QCOMPARE(runsMenu(w)->actions().size(), 3);
        QCOMPARE(checkedRuns(runsMenu(w)), QList<int>{1});
    }

    // Two workers by two cycles; the latest (HTA's rank 0 and rank 1 files) opens as one run of
    // both, each worker's processes under its name.
    void latestCycleOpensAsAPod() {
        QTemporaryDir dir;
        link(dir, "node_1.1700000000000000000.pt.trace.json.gz", kH100);
        link(dir, "node_2.1700000000100000000.pt.trace.json.gz", kMi250);
        link(dir, "node_1.1700000060000000000.pt.trace.json.gz", kRank0);
        link(dir, "node_2.1700000060100000000.pt.trace.json.gz", kRank1);
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(dir.path());
        QVERIFY(loaded.wait(30000));
        const std::string* workers = w.trace()->metadataValue("workers");
        QVERIFY(workers);
        QCOMPARE(*workers, std::string("2"));
        std::set<std::string> prefixes;  // "rank 0: <process>": the ranks in the files' distributedInfo
        for (const Process& p : w.trace()->processes) prefixes.insert(p.name.substr(0, p.name.find(": ")));
        QCOMPARE(prefixes, (std::set<std::string>{"rank 0", "rank 1"}));
        QVERIFY2(w.windowTitle().contains(QStringLiteral("cycle 2")), qPrintable(w.windowTitle()));
        QMenu* menu = runsMenu(w);
        QCOMPARE(menu->actions().size(), 2);
        QCOMPARE(checkedRuns(menu), QList<int>{0});
        QVERIFY(menu->actions()[0]->text().contains(QStringLiteral("node_1, node_2")));
    }

    // A folder of rank summaries as tracescope-pod writes it (the four gloo ranks of the
    // repository): the window opens it as a run of summaries, on the Pod page, and the Pod and
    // Collectives pages show its ranks.
    void summaryFolderOpensAsARunOfSummaries() {
        QTemporaryDir dir;
        nlohmann::json index = {{"schema", "tracescope-pod-index"}, {"schema_version", 1}, {"ranks", nlohmann::json::array()}};
        for (int r = 0; r < 4; ++r) {
            const std::string trace = std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/collectives/gloo_rank" +
                                      std::to_string(r) + ".pt.trace.json.gz";
            ImportResult imported = importTrace(trace);
            QVERIFY(imported.ok());
            const std::shared_ptr<const Trace> t(std::move(imported.trace));
            RankSummaryFile file;
            file.name = fs::path(trace).filename().string();
            file.rank = r;
            const std::string name = file.name + ".summary.json";
            std::ofstream(fs::path(dir.path().toStdString()) / name) << rankSummaryJson(*ResultStore::of(t), file, "test");
            index["ranks"].push_back({{"rank", r}, {"file", trace}, {"summary", name}});
        }
        std::ofstream(fs::path(dir.path().toStdString()) / "index.json") << index;
        MainWindow w;
        w.show();
        auto* pod = w.findChild<PodView*>();
        auto* collectives = w.findChild<CollectivesView*>();
        QVERIFY(pod && collectives);
        QSignalSpy podReady(pod, &AnalysisView::resultReady);
        w.openPath(dir.path());
        QVERIFY(podReady.wait(30000));
        QCOMPARE(w.findChild<QTabWidget*>()->currentWidget(), static_cast<QWidget*>(pod));
        QCOMPARE(pod->result()->workers.size(), size_t(4));
        QVERIFY(pod->summaryText().contains(QStringLiteral("from their rank summaries")));
        QCOMPARE(w.trace()->counts().slices, size_t(0));  // the stand-in trace
        QSignalSpy collectivesReady(collectives, &AnalysisView::resultReady);
        w.findChild<QTabWidget*>()->setCurrentWidget(collectives);
        QVERIFY(collectives->runResult() || collectivesReady.wait(30000));
        QCOMPARE(collectives->runResult()->ranks.size(), size_t(4));
        QCOMPARE(collectives->runResult()->stragglers.collectives.size(), size_t(30));
    }
};

QTEST_MAIN(OpenFolderTest)
#include "tst_open_folder.moc"
