// The Help menu: the user guide, the timeline's controls, the keyboard shortcuts, What's This,
// a problem report for the clipboard, and About.
#pragma once

#include <QString>

#include <functional>

class QMainWindow;
class QMenuBar;
class QWidget;

namespace tracescope {

class TimelineView;

// Adds Help to `window`'s menu bar; `report` gives Report a Problem's text (the open trace's facts).
void addHelpMenu(QMainWindow* window, TimelineView* timeline, std::function<QString()> report);

// Help › Keyboard Shortcuts: every action with keys under `bar`, in a dialog of `parent`.
void showShortcutsDialog(QWidget* parent, const QMenuBar& bar);

}  // namespace tracescope
