// `tracescope` on a machine without a display: --help and --version print and exit 0
// without creating a GUI, and --screenshot picks the offscreen platform itself. The
// binary runs with DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM removed.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run runHeadless(const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(QString::fromLatin1(name));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TRACESCOPE_GUI), args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;  // a crash (abort) is -1
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

}  // namespace

class HeadlessTest : public QObject {
    Q_OBJECT
private slots:
    void help() {
        const Run r = runHeadless({"--help"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("Usage:") && r.out.contains("--screenshot"), qPrintable(r.out));
        // --view lists every view id, and the README's list is the same.
        QString help = r.out;
        help.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
        const QRegularExpressionMatch ids =
            QRegularExpression(QStringLiteral("--view <id> View to show: ([a-z, -]+)\\.")).match(help);
        QVERIFY2(ids.hasMatch(), qPrintable(r.out));
        const QStringList viewIds = ids.captured(1).split(QStringLiteral(", "));
        QVERIFY(viewIds.contains(QStringLiteral("timeline")) && viewIds.size() >= 10);
        QFile readme(QStringLiteral(TRACESCOPE_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        const QRegularExpressionMatch listed =
            QRegularExpression(QStringLiteral("# VIEW \\(also listed by --help\\): ([^\\n]+)\\n# ([^\\n]+)")).match(text);
        QVERIFY2(listed.hasMatch(), "README: the --view list");
        QString readmeIds = listed.captured(1) + QLatin1Char(' ') + listed.captured(2);
        readmeIds.remove(QStringLiteral(" (default)"));
        QCOMPARE(readmeIds.split(QRegularExpression(QStringLiteral(",\\s*"))), viewIds);
    }

    void version() {
        const Run r = runHeadless({"--version"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(QRegularExpression(QStringLiteral("^TraceScope \\d+\\.\\d+")).match(r.out).hasMatch(), qPrintable(r.out));
    }

    void screenshot() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        const Run r = runHeadless({"--screenshot", png, "--size", "640x480", "--view", "overview",
                                   QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(640, 480));
    }

    // --view memory renders the Memory Profile page (a PyTorch trace with [memory] events).
    void memoryScreenshot() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("memory.png"));
        const Run r = runHeadless({"--screenshot", png, "--size", "1200x800", "--view", "memory",
                                   QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/torch_mlp_memory_h100.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(png).size(), QSize(1200, 800));
    }

    // --dialog capture|launch renders the Capture Profile / Launch & Capture dialog alone; an
    // unknown dialog is refused.
    void dialogScreenshot() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("dialog.png"));
        Run r = runHeadless({"--screenshot", png, "--dialog", "capture", "--size", "820x460"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(png).size(), QSize(820, 460));
        const QString launchPng = dir.filePath(QStringLiteral("launch.png"));
        r = runHeadless({"--screenshot", launchPng, "--dialog", "launch", "--size", "820x520"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(launchPng).size(), QSize(820, 520));
        QVERIFY(QImage(launchPng) != QImage(png));
        r = runHeadless({"--screenshot", png, "--dialog", "nope"});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("available: capture, launch"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(HeadlessTest)
#include "tst_headless.moc"
