// File › Open Recent: the last ten traces opened, kept in the settings, newest first.
#pragma once

#include <QObject>
#include <QString>

class QMenu;

namespace tracescope {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    // Fills `menu` (and refills it whenever the list changes).
    explicit RecentFiles(QMenu* menu);
    // `path` opened: first in the list.
    void add(const QString& path);

signals:
    void openRequested(QString path);

private:
    void rebuild();
    QMenu* menu_;
};

}  // namespace tracescope
