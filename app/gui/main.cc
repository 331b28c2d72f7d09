// tracescope: the desktop viewer. `tracescope [FILE|DIR]` opens a trace;
// `tracescope --screenshot OUT.png [options] FILE` renders a view to PNG and exits.
#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QRegularExpression>

#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    Q_INIT_RESOURCE(resources);  // the .qrc lives in the static tracescope_gui library
    QApplication::setApplicationName(QStringLiteral("TraceScope"));
    QApplication::setOrganizationName(QStringLiteral("TraceScope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/tracescope.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Desktop viewer for ML profiles (XSpace, Chrome trace JSON, RunMetadata)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"), QStringLiteral("Trace file or profile folder to open."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render the window to a PNG and exit."),
                                  QStringLiteral("out.png"));
    QCommandLineOption view(QStringLiteral("view"), QStringLiteral("View to show: timeline or an analysis view id."),
                            QStringLiteral("id"), QStringLiteral("timeline"));
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot."),
                            QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    QCommandLineOption range(QStringLiteral("range"), QStringLiteral("Visible time range A:B (ns, or with units: 1.5ms:2ms)."),
                             QStringLiteral("A:B"));
    QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select the first slice with this name."),
                              QStringLiteral("name"));
    QCommandLineOption search(QStringLiteral("search"), QStringLiteral("Search slices for this text."),
                              QStringLiteral("text"));
    QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use a dark palette."));
    parser.addOptions({screenshot, view, size, range, select, search, dark});
    parser.process(app);
    const QStringList args = parser.positionalArguments();

    if (parser.isSet(screenshot)) {
        if (args.size() != 1) {
            std::fprintf(stderr, "tracescope: --screenshot needs exactly one trace file or folder\n");
            return 2;
        }
        tracescope::ScreenshotOptions o;
        o.input = args.front();
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
        o.dark = parser.isSet(dark);
        return tracescope::runScreenshot(o);
    }

    if (parser.isSet(dark)) tracescope::applyDarkPalette();
    tracescope::MainWindow window;
    window.restoreSettings();
    window.show();
    if (!args.isEmpty()) window.openPath(args.front());
    return app.exec();
}
