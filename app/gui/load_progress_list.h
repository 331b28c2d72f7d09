// The files of a multi-file load, one line each: the file's name, its share read and its state
// ("waiting", "42%", "done", "failed: why"), a failed file marked with the warning icon. Shown
// from the status bar's "Files" button while several files load.
#pragma once

#include "app/gui/run_loader.h"

#include <QListWidget>

#include <vector>

namespace tracescope {

class LoadProgressList : public QListWidget {
    Q_OBJECT
public:
    explicit LoadProgressList(QWidget* parent = nullptr);

    void setStates(const std::vector<FileLoadState>& states);
    // "rank-0.json.gz — 42%" as a line reads.
    static QString lineOf(const FileLoadState& s);
};

}  // namespace tracescope
