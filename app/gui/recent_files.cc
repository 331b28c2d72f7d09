#include "app/gui/recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace tracescope {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
}  // namespace

RecentFiles::RecentFiles(QMenu* menu) : QObject(menu), menu_(menu) { rebuild(); }

void RecentFiles::add(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuild();
}

void RecentFiles::rebuild() {
    menu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent) {
        QAction* a = menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (recent.isEmpty()) {
        menu_->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    menu_->addSeparator();
    menu_->addAction(tr("Clear Menu"), this, [this] {
        QSettings().remove(kRecentKey);
        rebuild();
    });
}

}  // namespace tracescope
