// Files opened together in the viewer that are not one job: the loader stops before merging
// and asks (RunLoader::notOneJob); the question offers what fits the number of files; each
// answer opens what it says. The rank files are written here (world size 8 and 16: another job
// by construction), the expected reason worked out by hand.
#include "app/gui/main_window.h"
#include "app/gui/not_one_job_dialog.h"
#include "app/gui/run_loader.h"
#include "views/pod/compare_view.h"

#include <QApplication>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace tracescope;

namespace {

// A Kineto rank file: one 1 ms ProfilerStep at an absolute Unix time, and its distributedInfo.
QString rankFile(const QTemporaryDir& dir, const QString& name, int rank, int worldSize) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(
        QStringLiteral("{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":%1,\"world_size\":%2},"
                       "\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
                       "\"pid\":1,\"tid\":1,\"ts\":1700000000000000,\"dur\":1000}]}")
            .arg(rank)
            .arg(worldSize)
            .toUtf8());
    return f.fileName();
}

std::shared_ptr<MultiWorkerRun> loadRun(const QStringList& paths) {
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    return std::make_shared<MultiWorkerRun>(importWorkers(files).run);
}

QList<NotOneJobChoice> choicesOf(QMessageBox* box) {
    QList<NotOneJobChoice> out;
    for (QAbstractButton* b : box->buttons()) out << NotOneJobChoice(b->property("choice").toInt());
    std::sort(out.begin(), out.end());
    return out;
}

QList<MainWindow*> visibleMainWindows() {
    QList<MainWindow*> out;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* m = qobject_cast<MainWindow*>(w); m && m->isVisible()) out << m;
    return out;
}

}  // namespace

class NotOneJobTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The loader stops before merging and hands the loaded run over once; one job merges as before.
    void loaderAsksBeforeMerging() {
        QTemporaryDir dir;
        const QString a = rankFile(dir, "a.json", 0, 8), b = rankFile(dir, "b.json", 1, 16);
        RunLoader loader;
        QSignalSpy asked(&loader, &RunLoader::notOneJob);
        QSignalSpy loaded(&loader, &RunLoader::loaded);
        loader.start({a, b});
        QVERIFY(asked.wait(30000));
        QCOMPARE(asked.front().at(0).toString(), QString("different jobs: world size 8 (a.json) vs 16 (b.json)"));
        QCOMPARE(loaded.count(), 0);
        const std::shared_ptr<MultiWorkerRun> run = loader.takePendingRun();
        QVERIFY(run && run->workers.size() == 2 && run->workers[0].trace && run->workers[1].trace);
        QVERIFY(!loader.takePendingRun());
        loader.merge(run, QStringLiteral("merged"));
        QVERIFY(loaded.wait(30000));
        QCOMPARE(loaded.front().at(0).value<LoadedRun>().merged->processes.size(), size_t(2));

        const QString c = rankFile(dir, "c.json", 1, 8);  // rank 1 of the same 8-rank job as a.json
        loaded.clear();
        loader.start({a, c});
        QVERIFY(loaded.wait(30000));
        QCOMPARE(asked.count(), 1);
    }

    // The answers that fit: Compare for two files, Separately for up to kMaxSeparateWindows.
    void questionOffersWhatFits() {
        const QString reason = QStringLiteral("different jobs: world size 8 (a.json) vs 16 (b.json)");
        using C = NotOneJobChoice;
        std::unique_ptr<QMessageBox> two(notOneJobBox(nullptr, reason, 2));
        QCOMPARE(choicesOf(two.get()), (QList<C>{C::Cancel, C::Separately, C::Compare, C::Merge}));
        QVERIFY(two->informativeText().contains(reason.mid(1)));  // a sentence: "Different jobs: …"
        QCOMPARE(NotOneJobChoice(two->defaultButton()->property("choice").toInt()), C::Separately);
        QCOMPARE(NotOneJobChoice(two->escapeButton()->property("choice").toInt()), C::Cancel);
        std::unique_ptr<QMessageBox> three(notOneJobBox(nullptr, reason, 3));
        QCOMPARE(choicesOf(three.get()), (QList<C>{C::Cancel, C::Separately, C::Merge}));
        std::unique_ptr<QMessageBox> many(notOneJobBox(nullptr, reason, kMaxSeparateWindows + 1));
        QCOMPARE(choicesOf(many.get()), (QList<C>{C::Cancel, C::Merge}));
        if (qEnvironmentVariableIsSet("TRACESCOPE_TEST_SHOTS")) {
            two->show();
            QTest::qWait(50);
            two->grab().save(qEnvironmentVariable("TRACESCOPE_TEST_SHOTS") + "/not_one_job.png");
        }
    }

    // Opened from the window: the question is modal; closed, it opens nothing.
    void closedQuestionOpensNothing() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        auto* closer = new QTimer(&w);
        connect(closer, &QTimer::timeout, [] {
            if (QWidget* m = QApplication::activeModalWidget()) m->close();
        });
        closer->start(20);
        QSignalSpy asked(w.findChild<RunLoader*>(), &RunLoader::notOneJob);
        w.openPaths({rankFile(dir, "a.json", 0, 8), rankFile(dir, "b.json", 1, 16)});
        QVERIFY(asked.wait(30000));
        QVERIFY(!w.trace());
        QVERIFY(!w.loading());
    }

    void compareAnswer() {
        QTemporaryDir dir;
        auto run = loadRun({rankFile(dir, "a.json", 0, 8), rankFile(dir, "b.json", 1, 16)});
        const auto a = run->workers[0].trace;
        MainWindow w;
        w.show();
        w.openNotOneJob(run, NotOneJobChoice::Compare, QStringLiteral("two files"));
        QCOMPARE(w.trace(), a);
        auto* compare = w.findChild<CompareView*>();
        QVERIFY(compare && compare->isVisible());
        QSignalSpy ready(compare, &AnalysisView::resultReady);
        if (!compare->result()) QVERIFY(ready.wait(30000));
        QVERIFY2(compare->summaryText().contains("b.json"), qPrintable(compare->summaryText()));
        QCOMPARE(visibleMainWindows().size(), 1);
    }

    void separatelyAnswer() {
        QTemporaryDir dir;
        auto run = loadRun({rankFile(dir, "a.json", 0, 8), rankFile(dir, "b.json", 1, 16)});
        const auto a = run->workers[0].trace, b = run->workers[1].trace;
        MainWindow w;
        w.show();
        w.openNotOneJob(run, NotOneJobChoice::Separately, QStringLiteral("two files"));
        QCOMPARE(w.trace(), a);
        const QList<MainWindow*> windows = visibleMainWindows();
        QCOMPARE(windows.size(), 2);
        MainWindow* other = windows[0] == &w ? windows[1] : windows[0];
        QCOMPARE(other->trace(), b);
        QVERIFY(other->windowTitle().contains("b.json"));
        QPointer<MainWindow> closing(other);
        other->close();  // deletes itself
        QTRY_VERIFY(closing.isNull());
    }

    void mergeAnswer() {
        QTemporaryDir dir;
        auto run = loadRun({rankFile(dir, "a.json", 0, 8), rankFile(dir, "b.json", 1, 16)});
        MainWindow w;
        w.show();
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openNotOneJob(run, NotOneJobChoice::Merge, QStringLiteral("two files"));
        QVERIFY(loaded.wait(30000));
        QCOMPARE(w.trace()->processes.size(), size_t(2));
        bool said = false;
        for (const ImportWarning& x : w.trace()->warnings)
            said = said || warningText(x).find("not one job: different jobs: world size 8") != std::string::npos;
        QVERIFY(said);
    }

    void cancelAnswer() {
        QTemporaryDir dir;
        MainWindow w;
        w.openNotOneJob(loadRun({rankFile(dir, "a.json", 0, 8), rankFile(dir, "b.json", 1, 16)}),
                        NotOneJobChoice::Cancel, QStringLiteral("two files"));
        QVERIFY(!w.trace());
    }
};

QTEST_MAIN(NotOneJobTest)
#include "tst_not_one_job.moc"
