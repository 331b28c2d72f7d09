#include "app/gui/help_texts.h"

#include "model/trace/producer.h"
#include "model/trace/trace.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QSysInfo>

namespace tracescope {

namespace {

QString withoutMnemonic(QString text) {
    text.replace(QLatin1String("&&"), QLatin1String("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text.section(QLatin1Char('\t'), 0, 0);  // a hint after a tab ("Timeline Controls\t?")
}

void collect(const QMenu& menu, const QString& path, std::vector<ShortcutRow>& rows) {
    for (QAction* a : menu.actions()) {
        if (a->isSeparator()) continue;
        if (QMenu* sub = a->menu()) {
            collect(*sub, path + QStringLiteral(" › ") + withoutMnemonic(sub->title()), rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) rows.push_back({path, withoutMnemonic(a->text()), keys.join(QStringLiteral(", "))});
    }
}

}  // namespace

std::vector<ShortcutRow> shortcutRows(const QMenuBar& bar) {
    std::vector<ShortcutRow> rows;
    for (QAction* a : bar.actions())
        if (QMenu* menu = a->menu()) collect(*menu, withoutMnemonic(menu->title()), rows);
    return rows;
}

QString problemReportText(const Trace* trace, const QString& path) {
    QStringList lines;
    lines << QStringLiteral("TraceScope %1").arg(QCoreApplication::applicationVersion());
    lines << QStringLiteral("Qt %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
    lines << QStringLiteral("Platform: %1, kernel %2 %3, %4")
                 .arg(QSysInfo::prettyProductName(), QSysInfo::kernelType(), QSysInfo::kernelVersion(),
                      QSysInfo::currentCpuArchitecture());
    lines << QStringLiteral("Display: %1").arg(QGuiApplication::platformName());
    if (trace) {
        const TraceCounts c = trace->counts();
        lines << QStringLiteral("Trace: %1 (%2 bytes)").arg(QFileInfo(path).fileName()).arg(QFileInfo(path).size());
        lines << QStringLiteral("Producer: %1, format %2")
                     .arg(QString::fromUtf8(producerName(detectProducer(*trace), trace->format)),
                          QString::fromStdString(trace->format));
        lines << QStringLiteral("Events: %1 processes, %2 tracks, %3 slices, %4 instants, %5 flows, %6 import warnings")
                     .arg(c.processes)
                     .arg(c.tracks)
                     .arg(c.slices)
                     .arg(c.instants)
                     .arg(c.flows)
                     .arg(trace->warnings.size());
    } else {
        lines << QStringLiteral("Trace: none open");
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace tracescope
