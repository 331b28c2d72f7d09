// tracescope: the desktop viewer. `tracescope [FILE|DIR]` opens a trace;
// `tracescope --screenshot OUT.png [options] FILE` renders a view to PNG and exits.
#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/settings_guard.h"
#include "app/gui/theme.h"
#include "views/view_catalog.h"
#include "app/gui/single_instance.h"
#include "model/results/process_memory.h"
#include "tracescope_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QRegularExpression>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

namespace {

// True when argv asks for something that needs no display: help or version text.
// (Checked before any application object exists: a QApplication without a display aborts.)
bool wantsTextOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--")) break;
        for (const char* flag : {"-h", "--help", "--help-all", "-v", "--version"})
            if (!std::strcmp(argv[i], flag)) return true;
    }
    return false;
}

// True when `value` is one of `choices` (an empty value counts when `emptyOk`); otherwise
// prints "--NAME takes a, b or c" and returns false.
bool isOneOf(const QString& name, const QString& value, const QStringList& choices, bool emptyOk = false) {
    if (choices.contains(value) || (emptyOk && value.isEmpty())) return true;
    const QString list = choices.size() > 1 ? choices.mid(0, choices.size() - 1).join(QStringLiteral(", ")) +
                                                  QStringLiteral(" or ") + choices.last()
                                            : choices.value(0);
    std::fprintf(stderr, "tracescope: --%s takes %s\n", qPrintable(name), qPrintable(list));
    return false;
}

bool wantsScreenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--")) break;
        if (!std::strcmp(argv[i], "--screenshot") || !std::strncmp(argv[i], "--screenshot=", 13)) return true;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    tracescope::preferReturnableMemory();  // a viewer outlives its analyses' peaks
    // --help and --version print and exit from QCommandLineParser::process(); a core
    // application is enough for that, and needs no display.
    std::unique_ptr<QCoreApplication> app;
    if (wantsTextOnly(argc, argv)) {
        app = std::make_unique<QCoreApplication>(argc, argv);
    } else {
        // A screenshot renders offscreen: it must work on machines without a display.
        // A platform the user chose (QT_QPA_PLATFORM) still wins.
        if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argv);
        Q_INIT_RESOURCE(resources);  // the .qrc lives in the static tracescope_gui library
        QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tracescope.svg")));
    }
    QCoreApplication::setApplicationName(QStringLiteral("TraceScope"));
    QCoreApplication::setOrganizationName(QStringLiteral("TraceScope"));
    // The commit too when built from a git checkout (-dirty: with uncommitted changes).
    const QString commit = QStringLiteral(TRACESCOPE_COMMIT);
    QCoreApplication::setApplicationVersion(QStringLiteral(TRACESCOPE_VERSION) +
                                            (commit.isEmpty() ? QString() : QStringLiteral(" (git %1)").arg(commit)));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Desktop viewer for ML profiles (XSpace, Chrome trace JSON, RunMetadata)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("Trace file or profile folder to open (several: the workers of one run)."),
                                 QStringLiteral("path..."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render the window to a PNG and exit."),
                                  QStringLiteral("out.png"));
    QStringList viewIds{QStringLiteral("timeline")};
    for (const tracescope::ViewFactory& f : tracescope::analysisViewFactories()) viewIds << f.id << f.parts;
    QCommandLineOption view(QStringLiteral("view"), QStringLiteral("View to show: %1.").arg(viewIds.join(QStringLiteral(", "))),
                            QStringLiteral("id"), QStringLiteral("timeline"));
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot."),
                            QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    QCommandLineOption range(QStringLiteral("range"), QStringLiteral("Visible time range A:B (ns, or with units: 1.5ms:2ms)."),
                             QStringLiteral("A:B"));
    QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select the first slice with this name."),
                              QStringLiteral("name"));
    QCommandLineOption search(QStringLiteral("search"), QStringLiteral("Search slices for this text."),
                              QStringLiteral("text"));
    QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use the dark theme (as --theme dark)."));
    QCommandLineOption theme(QStringLiteral("theme"),
                             QStringLiteral("The theme for this run: system (the desktop's light or dark), light or dark. "
                                            "Default: the one chosen in View > Theme; light for --screenshot."),
                             QStringLiteral("system|light|dark"));
    QCommandLineOption dialog(QStringLiteral("dialog"),
                              QStringLiteral("With --screenshot: render this dialog instead of the window (capture, launch, shortcuts, guide)."),
                              QStringLiteral("name"));
    QCommandLineOption names(QStringLiteral("names"), QStringLiteral("C++ / kernel names: short or full (default short)."),
                             QStringLiteral("short|full"), QStringLiteral("short"));
    QCommandLineOption filterTracks(QStringLiteral("filter-tracks"),
                                    QStringLiteral("Show only tracks whose name or process name contains TEXT."),
                                    QStringLiteral("TEXT"));
    QCommandLineOption compare(QStringLiteral("compare"),
                               QStringLiteral("With --screenshot --view compare: the trace to compare with."),
                               QStringLiteral("FILE2"));
    QCommandLineOption pin(QStringLiteral("pin"), QStringLiteral("With --screenshot: pin the tracks whose name or process name matches REGEX."),
                           QStringLiteral("REGEX"));
    QCommandLineOption hide(QStringLiteral("hide"), QStringLiteral("With --screenshot: hide the tracks whose name or process name matches REGEX."),
                            QStringLiteral("REGEX"));
    QCommandLineOption bookmark(QStringLiteral("bookmark"), QStringLiteral("With --screenshot: a bookmark at TIME (as --range) with LABEL; repeatable."),
                                QStringLiteral("TIME:LABEL"));
    QCommandLineOption minimap(QStringLiteral("minimap"), QStringLiteral("With --screenshot: the overview strip, on or off (default on)."),
                               QStringLiteral("on|off"), QStringLiteral("on"));
    QCommandLineOption counters(QStringLiteral("counters"),
                                QStringLiteral("With --screenshot: draw counter tracks as the data is (auto), or all as step or line."),
                                QStringLiteral("auto|step|line"), QStringLiteral("auto"));
    QCommandLineOption selectRange(QStringLiteral("select-range"),
                                   QStringLiteral("With --screenshot: select the range A:B (as --range) in the timeline; "
                                                  "the details dock shows it by name and as a flame graph."),
                                   QStringLiteral("A:B"));
    QCommandLineOption query(QStringLiteral("query"),
                             QStringLiteral("With --screenshot --view query: run this SQL on the Query page first."),
                             QStringLiteral("SQL"));
    QCommandLineOption hover(QStringLiteral("hover"),
                             QStringLiteral("With --screenshot: the mouse at TIME (as --range) over the first shown track whose name or "
                                            "process name matches REGEX (a counter shows its value there)."),
                             QStringLiteral("TIME:REGEX"));
    QCommandLineOption stepMarker(QStringLiteral("step-marker"),
                                  QStringLiteral("With --screenshot: the slices named NAME (or NAME#N) are the steps of the "
                                                 "Overview, Input Pipeline and Pod pages."),
                                  QStringLiteral("NAME"));
    QCommandLineOption allSteps(QStringLiteral("all-steps"),
                                QStringLiteral("With --screenshot: the step pages average every step, not the trace's step "
                                               "set (TensorBoard's on TensorFlow/JAX profiles)."));
    QCommandLineOption convention(QStringLiteral("convention"),
                                  QStringLiteral("With --screenshot: the Op Stats page's convention, xprof or pytorch "
                                                 "(default: the page's own choice for the trace)."),
                                  QStringLiteral("xprof|pytorch"));
    QCommandLineOption click(QStringLiteral("click"),
                             QStringLiteral("With --screenshot: a left click at window pixel X,Y once the page is ready "
                                            "(e.g. a box of the tf.data graph), before the picture is taken; repeatable, "
                                            "in order."),
                             QStringLiteral("X,Y"));
    QCommandLineOption newInstance(QStringLiteral("new-instance"),
                                   QStringLiteral("Open in a viewer of its own, even when one already runs (otherwise the "
                                                  "running viewer opens the files)."));
    QCommandLineOption preview(QStringLiteral("preview"),
                               QStringLiteral("With --screenshot: the window while the file loads, its timeline showing the "
                                              "events of the file's first MIB MiB (Chrome JSON; an XSpace: MIB MiB of events, the first of every "
                                              "line; progressive display)."),
                               QStringLiteral("MIB"));
    parser.addOptions({screenshot, view, size, range, select, search, dark, theme, dialog, names, filterTracks, compare,
                       pin, hide, bookmark, minimap, counters, hover, selectRange, stepMarker, allSteps, convention, click, query,
                       preview, newInstance});
    parser.process(*app);
    const QStringList args = parser.positionalArguments();
    // Before anything reads the settings: a broken file is reported once, never fatal.
    const QString settingsProblem = tracescope::guardSettingsFile();
    if (!settingsProblem.isEmpty()) std::fprintf(stderr, "tracescope: %s\n", settingsProblem.toLocal8Bit().constData());
    // --theme / --dark: this run only; View > Theme saves the user's choice.
    std::optional<tracescope::ThemeChoice> themeArg;
    if (parser.isSet(theme)) {
        if (!isOneOf(QStringLiteral("theme"), parser.value(theme),
                     {QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")}))
            return 2;
        themeArg = tracescope::parseThemeChoice(parser.value(theme));
    }
    if (parser.isSet(dark)) {
        if (themeArg && *themeArg != tracescope::ThemeChoice::Dark) {
            std::fprintf(stderr, "tracescope: --dark and --theme %s contradict each other\n",
                         qPrintable(parser.value(theme)));
            return 2;
        }
        themeArg = tracescope::ThemeChoice::Dark;
    }

    if (parser.isSet(screenshot)) {
        const bool forDialog = parser.isSet(dialog);
        if (forDialog ? !args.isEmpty() : args.isEmpty()) {
            std::fprintf(stderr, forDialog ? "tracescope: --dialog renders no trace: give no file\n"
                                           : "tracescope: --screenshot needs a trace file or folder (several: one run)\n");
            return 2;
        }
        tracescope::ScreenshotOptions o;
        if (!forDialog) {
            o.input = args.front();
            o.moreInputs = args.mid(1);
        }
        o.compare = parser.value(compare);
        o.dialog = parser.value(dialog);
        o.output = parser.value(screenshot);
        o.view = parser.value(view);
        const auto m = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(parser.value(size));
        if (!m.hasMatch() || m.captured(1).toInt() < 200 || m.captured(2).toInt() < 150 ||
            m.captured(1).toInt() > 10000 || m.captured(2).toInt() > 10000) {
            std::fprintf(stderr, "tracescope: bad --size '%s' (expected WxH, e.g. 1600x1000)\n",
                         parser.value(size).toLocal8Bit().constData());
            return 2;
        }
        o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        o.range = parser.value(range);
        o.select = parser.value(select);
        o.search = parser.value(search);
        o.trackFilter = parser.value(filterTracks);
        o.pin = parser.value(pin);
        o.hide = parser.value(hide);
        o.bookmarks = parser.values(bookmark);
        o.stepMarker = parser.value(stepMarker);
        o.allSteps = parser.isSet(allSteps);
        if (!isOneOf(QStringLiteral("minimap"), parser.value(minimap), {QStringLiteral("on"), QStringLiteral("off")}) ||
            !isOneOf(QStringLiteral("counters"), parser.value(counters),
                     {QStringLiteral("auto"), QStringLiteral("step"), QStringLiteral("line")}) ||
            !isOneOf(QStringLiteral("names"), parser.value(names), {QStringLiteral("short"), QStringLiteral("full")}) ||
            !isOneOf(QStringLiteral("convention"), parser.value(convention),
                     {QStringLiteral("xprof"), QStringLiteral("pytorch")}, /*emptyOk=*/true))
            return 2;
        o.minimap = parser.value(minimap) == QLatin1String("on");
        o.counters = parser.value(counters);
        o.hover = parser.value(hover);
        o.selectRange = parser.value(selectRange);
        o.query = parser.value(query);
        o.theme = themeArg.value_or(tracescope::ThemeChoice::Light);
        o.shortNames = parser.value(names) == QLatin1String("short");
        o.convention = parser.value(convention);
        if (parser.isSet(preview)) {
            bool ok = false;
            const double mib = parser.value(preview).toDouble(&ok);
            if (!ok || !(mib > 0) || mib > 1e6) {
                std::fprintf(stderr, "tracescope: bad --preview '%s' (expected MiB of the file, e.g. 16)\n",
                             parser.value(preview).toLocal8Bit().constData());
                return 2;
            }
            o.previewBytes = quint64(mib * double(1 << 20));
        }
        for (const QString& value : parser.values(click)) {
            const auto c = QRegularExpression(QStringLiteral("^(\\d+),(\\d+)$")).match(value);
            if (!c.hasMatch()) {
                std::fprintf(stderr, "tracescope: bad --click '%s' (expected X,Y in window pixels, e.g. 640,400)\n",
                             value.toLocal8Bit().constData());
                return 2;
            }
            o.clicks.push_back(QPoint(c.captured(1).toInt(), c.captured(2).toInt()));
        }
        return tracescope::runScreenshot(o);
    }

    // A viewer already runs: it opens the files (as the file manager's double click expects).
    if (!args.isEmpty() && !parser.isSet(newInstance) && tracescope::InstanceServer::sendToRunning(args)) return 0;

    // Before the window exists, so that its first frame has the theme's colours.
    tracescope::ThemeManager::instance()->apply(themeArg.value_or(tracescope::savedThemeChoice()));
    tracescope::ThemeManager::instance()->waitForDesktop(500);
    tracescope::MainWindow window;
    window.restoreSettings();
    window.show();
    if (!settingsProblem.isEmpty()) window.showSettingsWarning(settingsProblem);
    auto open = [](tracescope::MainWindow& w, const QStringList& paths) {
        if (paths.size() > 1) w.openPaths(paths);  // several files: the workers of one run
        else if (!paths.isEmpty()) w.openPath(paths.front());
    };
    open(window, args);
    // Later launches hand their files here: a window of their own, or this one (a setting).
    tracescope::InstanceServer server;
    if (!parser.isSet(newInstance)) server.listen();
    QObject::connect(&server, &tracescope::InstanceServer::pathsReceived, &window,
                     [&window](QStringList paths) { tracescope::openHandedOver(window, paths); });
    return app->exec();
}
