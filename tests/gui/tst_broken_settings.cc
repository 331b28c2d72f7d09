// A broken settings file is ignored with a warning (issue 12): damaged text, binary junk, a
// folder, a FIFO in its place. The window starts, restores, saves on close, and shows one
// warning; nothing blocks (a FIFO opened for reading would wait for a writer forever).
#include "app/gui/main_window.h"
#include "app/gui/settings_guard.h"

#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <fstream>

using namespace tracescope;

namespace {

int settingsWarnings(const MainWindow& w) {
    int n = 0;
    for (QMessageBox* box : w.findChildren<QMessageBox*>(QStringLiteral("settingsWarning")))
        if (box->isVisible()) ++n;
    return n;
}

}  // namespace

class BrokenSettingsTest : public QObject {
    Q_OBJECT
    QTemporaryDir config_;
    int case_ = 0;

    // A fresh organization per case: QSettings keeps files it has read, by path.
    QString settingsPath() {
        QCoreApplication::setOrganizationName(QStringLiteral("TraceScopeCase%1").arg(++case_));
        return config_.path() + QStringLiteral("/TraceScopeCase%1/TraceScope.conf").arg(case_);
    }

private slots:
    void initTestCase() {
        QVERIFY(config_.isValid());
        qputenv("XDG_CONFIG_HOME", config_.path().toLocal8Bit());
        QCoreApplication::setApplicationName(QStringLiteral("TraceScope"));
    }

    void brokenFileIgnoredWithOneWarning_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");  // in the warning; "" = no warning
        QTest::newRow("good file") << "good" << "";
        QTest::newRow("no file") << "none" << "";
        QTest::newRow("damaged text") << "damaged" << "is damaged and was ignored: it was moved to";
        QTest::newRow("binary junk") << "binary" << "is damaged and was ignored: it was moved to";
        QTest::newRow("a folder") << "folder" << "is a folder";
        QTest::newRow("a FIFO") << "fifo" << "is a FIFO";
    }
    void brokenFileIgnoredWithOneWarning() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const QString path = settingsPath();
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        const std::string p = path.toStdString();
        if (kind == "good") {
            std::ofstream(p) << "[General]\nlastDir=/tmp\n";
        } else if (kind == "damaged") {
            // An unterminated section and a quoted value that never ends.
            std::ofstream(p) << "[window\ngeometry=@ByteArray(\\x1\\x2\nlastDir=\"/tmp\n[view]\nshortNames=true\n";
        } else if (kind == "binary") {
            std::ofstream out(p, std::ios::binary);
            for (int i = 0; i < 4096; ++i) out.put(char((i * 131 + 7) % 256));
        } else if (kind == "folder") {
            QVERIFY(QDir().mkpath(path));
        } else if (kind == "fifo") {
            QCOMPARE(::mkfifo(p.c_str(), 0600), 0);
        }

        const QString warning = guardSettingsFile();
        if (expected.isEmpty()) QVERIFY2(warning.isEmpty(), qPrintable(warning));
        else QVERIFY2(warning.contains(expected) && warning.contains(path), qPrintable(warning));

        {
            MainWindow w;
            w.restoreSettings();
            w.show();
            if (!warning.isEmpty()) w.showSettingsWarning(warning);
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(settingsWarnings(w), warning.isEmpty() ? 0 : 1);
            // Settings are written as usual (here: on close), wherever they now go.
            w.close();
            QSettings().setValue(QStringLiteral("lastDir"), QStringLiteral("/data"));
            QSettings().sync();
            QCOMPARE(QSettings().value(QStringLiteral("lastDir")).toString(), QStringLiteral("/data"));
        }
        // A damaged file is kept aside and a good one written in its place; what is not a
        // file is left as it was.
        const QFileInfo after(path);
        if (kind == "damaged" || kind == "binary") {
            QVERIFY(QFileInfo(path + ".damaged").isFile());
            QSettings again(path, QSettings::IniFormat);
            QCOMPARE(again.status(), QSettings::NoError);
            QCOMPARE(again.value(QStringLiteral("lastDir")).toString(), QStringLiteral("/data"));
        }
        if (kind == "good") QCOMPARE(QSettings(path, QSettings::IniFormat).value("lastDir").toString(), QStringLiteral("/data"));
        if (kind == "folder") QVERIFY(after.isDir());
        if (kind == "fifo") QVERIFY(!after.isFile() && after.exists());
    }
};

QTEST_MAIN(BrokenSettingsTest)
#include "tst_broken_settings.moc"
