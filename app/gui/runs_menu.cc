#include "app/gui/runs_menu.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QStringList>

namespace tracescope {

namespace {

// "cycle 2 · 2023-11-14 22:15:00 UTC  (host_1, host_2)"; a long list of workers is shortened.
QString runMenuText(const RunInfo& run) {
    QStringList hosts;
    for (size_t i = 0; i < run.hosts.size() && i < 4; ++i) hosts << QString::fromStdString(run.hosts[i]);
    if (run.hosts.size() > 4) hosts << QObject::tr("%n more", nullptr, int(run.hosts.size() - 4));
    QString name = QString::fromStdString(run.name);
    if (run.kind == RunKind::TorchCycle && run.timeFromName)
        name +=
            QStringLiteral(" · ") +
            QDateTime::fromSecsSinceEpoch(run.timeSeconds, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
            QStringLiteral(" UTC");
    return QStringLiteral("%1  (%2)").arg(name, hosts.join(QStringLiteral(", ")));
}

}  // namespace

RunsMenu::RunsMenu(QMenu* menu, std::function<void(const RunInfo&)> open)
    : QObject(menu), menu_(menu), open_(std::move(open)) {
    menu_->setObjectName(QStringLiteral("runsMenu"));
    menu_->setToolTipsVisible(true);
    menu_->setToolTip(
        tr("The profile runs of the opened folder: a TensorBoard logdir's runs, a PyTorch profiler folder's cycles"));
    menu_->setEnabled(false);
}

QString RunsMenu::key(const RunInfo& run) {
    return QString::fromStdString(run.kind == RunKind::TorchCycle && !run.files.empty() ? run.files.front() : run.path);
}

void RunsMenu::rebuild(const QString& current) {
    menu_->clear();
    const std::vector<RunInfo> runs = folder_.isEmpty() ? std::vector<RunInfo>{} : listRuns(folder_.toStdString());
    menu_->setEnabled(!runs.empty());
    for (const RunInfo& run : runs) {
        QAction* a = menu_->addAction(runMenuText(run), this, [this, run] { open_(run); });
        a->setCheckable(true);
        // By path, not QFileInfo's ==: that follows links, and two cycles may link one file.
        a->setChecked(QDir::cleanPath(QFileInfo(key(run)).absoluteFilePath()) ==
                      QDir::cleanPath(QFileInfo(current).absoluteFilePath()));
        QStringList files;
        for (const std::string& f : run.files) files << QString::fromStdString(f);
        a->setToolTip(files.join(QLatin1Char('\n')));
    }
}

}  // namespace tracescope
