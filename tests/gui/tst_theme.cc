// View > Theme (issue 27): the choice is remembered; Light and Dark change the application's
// palette, live, custom-painted and style-sheet widgets included; disabled colours look
// disabled in both palettes; the desktop portal's colour-scheme values read as its
// specification says (org.freedesktop.portal.Settings: 0 no preference, 1 dark, 2 light),
// over a private D-Bus with a stand-in portal, and System follows a change of it live.
#include "app/gui/desktop_color_scheme.h"
#include "app/gui/main_window.h"
#include "app/gui/theme.h"
#include "app/gui/warning_banner.h"
#include "hand_trace.h"
#include "views/pipeline/pipeline_graph_view.h"
#include "views/theme_colors.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QActionGroup>
#include <QDBusConnection>
#include <QDBusContext>
#include <QDBusError>
#include <QDBusVariant>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tracescope;

namespace {

// WCAG 2.1's relative luminance and contrast ratio (W3C definitions), written from the spec.
double luminance(const QColor& c) {
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The mean lightness (0-255) of a widget's picture: dark themes are well under 128.
double meanLightness(QWidget* w, const QRect& area = QRect()) {
    const QImage img = w->grab(area.isNull() ? QRect(QPoint(0, 0), QSize(-1, -1)) : area).toImage();
    double sum = 0;
    int n = 0;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3, ++n) sum += QColor(img.pixel(x, y)).lightness();
    return n ? sum / n : -1;
}

const char* const kPortalService = "org.freedesktop.portal.Desktop";
const char* const kPortalPath = "/org/freedesktop/portal/desktop";

}  // namespace

// A stand-in for xdg-desktop-portal's Settings interface: ReadOne (version 2), Read (version 1,
// which wraps the value in a second variant), and the SettingChanged signal.
class FakePortal : public QObject, protected QDBusContext {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    uint scheme = 1;
    bool hasReadOne = true;

public slots:
    QDBusVariant ReadOne(const QString& ns, const QString& key) {
        if (!hasReadOne) {
            sendErrorReply(QDBusError::UnknownMethod, QStringLiteral("No such method ReadOne"));
            return {};
        }
        if (ns != QLatin1String("org.freedesktop.appearance") || key != QLatin1String("color-scheme")) {
            sendErrorReply(QStringLiteral("org.freedesktop.portal.Error.NotFound"), QStringLiteral("no such key"));
            return {};
        }
        return QDBusVariant(scheme);
    }
    QDBusVariant Read(const QString& ns, const QString& key) {
        if (ns != QLatin1String("org.freedesktop.appearance") || key != QLatin1String("color-scheme")) {
            sendErrorReply(QStringLiteral("org.freedesktop.portal.Error.NotFound"), QStringLiteral("no such key"));
            return {};
        }
        return QDBusVariant(QVariant::fromValue(QDBusVariant(scheme)));
    }

signals:
    void SettingChanged(const QString& ns, const QString& key, const QDBusVariant& value);
};

class ThemeTest : public QObject {
    Q_OBJECT
    QTemporaryDir config_;
    QProcess bus_;  // a private session bus (dbus-daemon), when the machine has one
    QString busAddress_;

private slots:
    void initTestCase() {
        // The settings of this test only (as tst_broken_settings does).
        QVERIFY(config_.isValid());
        qputenv("XDG_CONFIG_HOME", config_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("TraceScopeThemeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TraceScope"));
        // Never the user's session bus: its portal could switch the palette under the tests.
        // A private bus when dbus-daemon is there, else an address that connects nowhere.
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        if (!daemon.isEmpty()) {
            // A bus of our own with no service folders: nothing (no real portal) starts on demand.
            const QString conf = config_.path() + QStringLiteral("/bus.conf");
            QFile f(conf);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" "
                                   "\"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                                   "<busconfig><type>session</type><listen>unix:dir=%1</listen><auth>EXTERNAL</auth>"
                                   "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                                   "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
                        .arg(config_.path())
                        .toUtf8());
            f.close();
            bus_.start(daemon, {QStringLiteral("--config-file=") + conf, QStringLiteral("--nofork"),
                                QStringLiteral("--print-address=1")});
            if (bus_.waitForStarted(5000) && bus_.waitForReadyRead(5000))
                busAddress_ = QString::fromLocal8Bit(bus_.readLine()).trimmed();
        }
        qputenv("DBUS_SESSION_BUS_ADDRESS", busAddress_.isEmpty()
                                                ? QByteArray("unix:path=/nonexistent/tracescope-test-bus")
                                                : busAddress_.toLocal8Bit());
    }
    void cleanupTestCase() {
        if (bus_.state() != QProcess::NotRunning) {
            bus_.terminate();
            bus_.waitForFinished(3000);
        }
    }

    void portalValues_data() {
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<int>("expected");
        const int none = int(ColorSchemePreference::NoPreference), dark = int(ColorSchemePreference::Dark),
                  light = int(ColorSchemePreference::Light);
        QTest::newRow("1: prefer dark") << QVariant(1u) << dark;
        QTest::newRow("2: prefer light") << QVariant(2u) << light;
        QTest::newRow("0: no preference") << QVariant(0u) << none;
        QTest::newRow("missing") << QVariant() << none;
        QTest::newRow("unknown 3") << QVariant(3u) << none;
        QTest::newRow("signed 1") << QVariant(1) << dark;
        QTest::newRow("ReadOne: in a variant") << QVariant::fromValue(QDBusVariant(1u)) << dark;
        QTest::newRow("Read: in two variants")
            << QVariant::fromValue(QDBusVariant(QVariant::fromValue(QDBusVariant(2u)))) << light;
        QTest::newRow("a string \"1\"") << QVariant(QStringLiteral("1")) << none;
        QTest::newRow("a bool") << QVariant(true) << none;
        QTest::newRow("a double 1.0") << QVariant(1.0) << none;
    }
    void portalValues() {
        QFETCH(QVariant, value);
        QFETCH(int, expected);
        QCOMPARE(int(parsePortalColorScheme(value)), expected);
    }

    void choiceNames() {
        QCOMPARE(parseThemeChoice(QStringLiteral("system")), std::optional(ThemeChoice::System));
        QCOMPARE(parseThemeChoice(QStringLiteral("light")), std::optional(ThemeChoice::Light));
        QCOMPARE(parseThemeChoice(QStringLiteral("dark")), std::optional(ThemeChoice::Dark));
        QVERIFY(!parseThemeChoice(QStringLiteral("")));
        QVERIFY(!parseThemeChoice(QStringLiteral("blue")));
    }

    // The choice survives a restart: it is in the settings file, and read back.
    void choiceIsRemembered() {
        QSettings().remove(QStringLiteral("view/theme"));
        QCOMPARE(savedThemeChoice(), ThemeChoice::System);  // nothing saved: follow the desktop
        const QString file = config_.path() + QStringLiteral("/TraceScopeThemeTest/TraceScope.conf");
        for (const auto& [choice, text] :
             {std::pair{ThemeChoice::Dark, "theme=dark"}, std::pair{ThemeChoice::Light, "theme=light"},
              std::pair{ThemeChoice::System, "theme=system"}}) {
            saveThemeChoice(choice);
            QSettings().sync();
            QFile f(file);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
            QVERIFY2(f.readAll().contains(text), text);
            QCOMPARE(savedThemeChoice(), choice);
        }
        QSettings().setValue(QStringLiteral("view/theme"), QStringLiteral("purple"));
        QCOMPARE(savedThemeChoice(), ThemeChoice::System);
    }

    void darkAndLightChangeTheApplicationPalette() {
        ThemeManager* themes = ThemeManager::instance();
        themes->apply(ThemeChoice::Dark);
        QVERIFY(themes->dark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        QVERIFY(QApplication::palette().color(QPalette::Text).lightness() > 180);
        themes->apply(ThemeChoice::Light);
        QVERIFY(!themes->dark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        QVERIFY(QApplication::palette().color(QPalette::Text).lightness() < 60);
    }

    // Disabled buttons, menu items, fields and labels are greyed out in both palettes: the
    // disabled text is still legible (contrast at least 1.8:1) but has well under half the
    // contrast of the enabled text, which is comfortably readable (7:1, WCAG's AAA level).
    void disabledColoursLookDisabled_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void disabledColoursLookDisabled() {
        QFETCH(bool, dark);
        const QPalette p = themePalette(dark);
        for (const auto& [fg, bg] :
             {std::pair{QPalette::WindowText, QPalette::Window}, std::pair{QPalette::Text, QPalette::Base},
              std::pair{QPalette::ButtonText, QPalette::Button}}) {
            const double enabled = contrast(p.color(QPalette::Active, fg), p.color(QPalette::Active, bg));
            const double disabled = contrast(p.color(QPalette::Disabled, fg), p.color(QPalette::Disabled, bg));
            const QString what =
                QStringLiteral("role %1: enabled %2:1, disabled %3:1").arg(int(fg)).arg(enabled).arg(disabled);
            QVERIFY2(enabled >= 7.0, qPrintable(what));
            QVERIFY2(disabled >= 1.8, qPrintable(what));
            QVERIFY2(disabled <= enabled / 2.5, qPrintable(what));
            QCOMPARE(p.color(QPalette::Inactive, fg),
                     p.color(QPalette::Active, fg));  // an unfocused window is not disabled
        }
        // A selection: the accent colour when enabled, grey when disabled, its text legible in both.
        QVERIFY(p.color(QPalette::Active, QPalette::Highlight).hsvSaturation() > 100);
        QVERIFY(p.color(QPalette::Disabled, QPalette::Highlight).hsvSaturation() < 20);
        QVERIFY(contrast(p.color(QPalette::Active, QPalette::HighlightedText),
                         p.color(QPalette::Active, QPalette::Highlight)) >= 3.0);
        QVERIFY(contrast(p.color(QPalette::Disabled, QPalette::HighlightedText),
                         p.color(QPalette::Disabled, QPalette::Highlight)) >= 1.8);
        QVERIFY(p.color(QPalette::Disabled, QPalette::HighlightedText) !=
                p.color(QPalette::Active, QPalette::HighlightedText));
    }

    // Error, success and muted text (form errors, capture states) read well on both palettes
    // (WCAG AA, 4.5:1, on the window and on the base colour), and labels follow a switch.
    void toneColoursAreLegible() {
        for (bool dark : {false, true}) {
            const QPalette p = themePalette(dark);
            for (TextTone tone : {TextTone::Error, TextTone::Success, TextTone::Muted})
                for (QPalette::ColorRole bg : {QPalette::Window, QPalette::Base}) {
                    const double c = contrast(toneColor(tone, p), p.color(bg));
                    QVERIFY2(c >= 4.5, qPrintable(QStringLiteral("dark %1 tone %2 role %3: %4:1")
                                                      .arg(dark)
                                                      .arg(int(tone))
                                                      .arg(int(bg))
                                                      .arg(c)));
                }
        }
        ThemeManager::instance()->apply(ThemeChoice::Light);
        QLabel label;
        setLabelTone(&label, TextTone::Error);
        const QString light = toneColor(TextTone::Error, themePalette(false)).name();
        const QString dark = toneColor(TextTone::Error, themePalette(true)).name();
        QVERIFY(light != dark);
        QVERIFY(label.styleSheet().contains(light));
        ThemeManager::instance()->apply(ThemeChoice::Dark);
        QVERIFY2(label.styleSheet().contains(dark), qPrintable(label.styleSheet()));
        ThemeManager::instance()->apply(ThemeChoice::Light);
    }

    // View > Theme: three exclusive choices; a pick applies at once and is saved.
    void menuAppliesAndSaves() {
        MainWindow w;
        auto* menu = w.findChild<QMenu*>(QStringLiteral("ThemeMenu"));
        QVERIFY(menu);
        QCOMPARE(menu->actions().size(), 3);
        QAction* dark = menu->findChild<QAction*>(QStringLiteral("theme-dark"));
        QAction* light = menu->findChild<QAction*>(QStringLiteral("theme-light"));
        QVERIFY(dark && light && dark->actionGroup() && dark->actionGroup()->isExclusive());
        dark->trigger();
        QVERIFY(ThemeManager::instance()->dark());
        QCOMPARE(savedThemeChoice(), ThemeChoice::Dark);
        QVERIFY(dark->isChecked() && !light->isChecked());
        light->trigger();
        QVERIFY(!ThemeManager::instance()->dark());
        QCOMPARE(savedThemeChoice(), ThemeChoice::Light);
        QVERIFY(light->isChecked() && !dark->isChecked());
        // A choice made elsewhere (--theme) moves the check.
        ThemeManager::instance()->apply(ThemeChoice::Dark);
        QVERIFY(dark->isChecked());
        ThemeManager::instance()->apply(ThemeChoice::Light);
    }

    // Pictures follow a switch with the window open: the painted timeline and the banner's
    // style sheet (widgets that get no PaletteChange of their own).
    void openWindowFollowsASwitch() {
        ThemeManager::instance()->apply(ThemeChoice::Light);
        MainWindow w;
        w.resize(1000, 600);
        w.setTrace(testing::buildHandTrace(), QStringLiteral("hand.json"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QWidget* canvas = w.timeline()->canvas();
        const double lightCanvas = meanLightness(canvas);
        WarningBanner* banner = w.warningBanner();
        banner->show();
        const double lightBanner = meanLightness(banner);
        ThemeManager::instance()->apply(ThemeChoice::Dark);
        QCoreApplication::processEvents();
        const double darkCanvas = meanLightness(canvas), darkBanner = meanLightness(banner);
        QVERIFY2(lightCanvas > 170 && darkCanvas < 90,
                 qPrintable(QStringLiteral("%1 -> %2").arg(lightCanvas).arg(darkCanvas)));
        QVERIFY2(lightBanner > 170 && darkBanner < 90,
                 qPrintable(QStringLiteral("%1 -> %2").arg(lightBanner).arg(darkBanner)));
        ThemeManager::instance()->apply(ThemeChoice::Light);
        QCoreApplication::processEvents();
        QVERIFY(meanLightness(canvas) > 170);
    }

    // The tf.data graph's boxes hold colours from when they were built: a switch rebuilds them.
    void pipelineGraphFollowsASwitch() {
        ThemeManager::instance()->apply(ThemeChoice::Light);
        PipelineGraphView view;
        view.resize(500, 300);
        PipelineGraphNode node;
        node.title = QStringLiteral("Prefetch");
        node.lines = {QStringLiteral("total 7.08 ms")};
        view.setGraph({node, node}, {{0, 1, true}});
        view.setSelectedNode(1);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Inside the unselected box, a few pixels in from its corner (the fill, not the text).
        const QRect box = view.mapFromScene(view.nodeRect(0)).boundingRect();
        const QRect fill(view.viewport()->mapTo(&view, box.topLeft() + QPoint(4, 4)), QSize(6, 6));
        QVERIFY(meanLightness(&view, fill) > 200);
        ThemeManager::instance()->apply(ThemeChoice::Dark);
        QCoreApplication::processEvents();
        QVERIFY2(meanLightness(&view, fill) < 90, qPrintable(QString::number(meanLightness(&view, fill))));
        QCOMPARE(view.selectedNode(), 1);  // the selection stays
        ThemeManager::instance()->apply(ThemeChoice::Light);
    }

    // System follows the desktop's SettingChanged signal while it is the choice, and only then.
    void systemFollowsTheDesktopLive() {
        ThemeManager* themes = ThemeManager::instance();
        DesktopColorScheme* desktop = themes->desktop();
        themes->apply(ThemeChoice::System);
        auto change = [desktop](const char* ns, uint value) {
            desktop->portalSettingChanged(QString::fromLatin1(ns), QStringLiteral("color-scheme"), QDBusVariant(value));
        };
        change("org.freedesktop.appearance", 1);
        QVERIFY(themes->dark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        change("org.gnome.desktop.interface", 2);  // another namespace's key of that name: not ours
        QVERIFY(themes->dark());
        change("org.freedesktop.appearance", 2);
        QVERIFY(!themes->dark());
        change("org.freedesktop.appearance", 1);
        QVERIFY(themes->dark());
        change("org.freedesktop.appearance", 0);  // no preference: light
        QVERIFY(!themes->dark());
        themes->apply(ThemeChoice::Light);
        change("org.freedesktop.appearance", 1);  // a fixed choice ignores the desktop
        QVERIFY(!themes->dark());
        themes->apply(ThemeChoice::System);  // and picks it up again when it is System
        QVERIFY(themes->dark());
        themes->apply(ThemeChoice::Light);
    }

    // The real D-Bus path, against a stand-in portal on a private bus: ReadOne, the older
    // Read, SettingChanged, and no portal at all.
    void portalOverTheBus() {
        if (busAddress_.isEmpty()) QSKIP("no dbus-daemon on this machine");
        QDBusConnection portalBus = QDBusConnection::connectToBus(busAddress_, QStringLiteral("fakePortal"));
        QVERIFY(portalBus.isConnected());
        FakePortal portal;
        QVERIFY(portalBus.registerObject(QString::fromLatin1(kPortalPath), &portal,
                                         QDBusConnection::ExportAllSlots | QDBusConnection::ExportAllSignals));
        QVERIFY(portalBus.registerService(QString::fromLatin1(kPortalService)));

        DesktopColorScheme viaReadOne;
        viaReadOne.start();
        QTRY_VERIFY(viaReadOne.answered());
        QCOMPARE(viaReadOne.preference(), ColorSchemePreference::Dark);
        // The desktop switches to light: the signal arrives and the preference follows.
        emit portal.SettingChanged(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"),
                                   QDBusVariant(2u));
        QTRY_COMPARE(viaReadOne.preference(), ColorSchemePreference::Light);

        portal.hasReadOne = false;  // a portal older than version 2
        portal.scheme = 1;
        DesktopColorScheme viaRead;
        viaRead.start();
        QTRY_VERIFY(viaRead.answered());
        QCOMPARE(viaRead.preference(), ColorSchemePreference::Dark);

        QVERIFY(portalBus.unregisterService(QString::fromLatin1(kPortalService)));
        DesktopColorScheme noPortal;
        noPortal.start();
        QTRY_VERIFY(noPortal.answered());
        QCOMPARE(noPortal.preference(), ColorSchemePreference::NoPreference);
        portalBus.unregisterObject(QString::fromLatin1(kPortalPath));
        QDBusConnection::disconnectFromBus(QStringLiteral("fakePortal"));
    }
};

QTEST_MAIN(ThemeTest)
#include "tst_theme.moc"
