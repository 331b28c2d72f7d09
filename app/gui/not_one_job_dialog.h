// The question asked when files opened together are not one job (checkOneJob gave a reason):
// open each on its own, compare the two of them, or merge them anyway as workers of one run.
#pragma once

#include <QString>

class QMessageBox;
class QWidget;

namespace tracescope {

enum class NotOneJobChoice : int {
    Cancel,      // open nothing; what was open stays
    Separately,  // each file in a window of its own
    Compare,     // two files: the first open, the second on the Compare page
    Merge,       // one run all the same (its warnings say so)
};

// The most files "Separately" offers to open, each in its own window.
constexpr int kMaxSeparateWindows = 8;

// The question as a message box (not shown): the reason, and a button per choice that fits
// `files` loaded files, each with its NotOneJobChoice in the property "choice".
QMessageBox* notOneJobBox(QWidget* parent, const QString& reason, int files);

// Shows the box and waits for the answer (Escape: Cancel).
NotOneJobChoice askNotOneJob(QWidget* parent, const QString& reason, int files);

}  // namespace tracescope
