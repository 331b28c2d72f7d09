// File › Runs: the profile runs of the folder opened last (a TensorBoard logdir's runs, a
// PyTorch profiler folder's cycles), newest first, the one on screen checked.
#pragma once

#include "model/import/logdir.h"

#include <QObject>
#include <QString>

#include <functional>

class QMenu;

namespace tracescope {

class RunsMenu : public QObject {
    Q_OBJECT
public:
    // Fills `menu`; a run picked there goes to `open`.
    RunsMenu(QMenu* menu, std::function<void(const RunInfo&)> open);

    // The folder whose runs are listed ("" for none: the menu is disabled).
    void setFolder(const QString& folder) { folder_ = folder; }
    const QString& folder() const { return folder_; }
    // Lists the folder's runs again, the one that stands for `current` (a path) checked.
    void rebuild(const QString& current);
    // The path a run stands for in the menu: an XSpace run by its folder; a PyTorch cycle (its
    // folder holds every cycle) by its first file.
    static QString key(const RunInfo& run);

private:
    QMenu* menu_;
    std::function<void(const RunInfo&)> open_;
    QString folder_;
};

}  // namespace tracescope
