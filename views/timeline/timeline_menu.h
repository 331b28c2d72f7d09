// The Timeline menu of the main window and the list of the timeline's controls (Help), built
// here so that the rest of the viewer goes through TimelineView and its controller, never the
// canvas.
#pragma once

#include <QString>

#include <functional>

class QMenu;

namespace tracescope {

class TimelineView;

// Find, collapse and expand, hidden tracks, fit and zoom, range, bookmarks, the overview strip
// and the layout reset. `bringForward` shows the timeline (before a search or a jump).
void fillTimelineMenu(QMenu* menu, TimelineView* timeline, std::function<void()> bringForward);

// Every mouse and key control of the timeline, as a rich-text table.
QString timelineControlsText();

}  // namespace tracescope
