// --screenshot: load a trace synchronously, set up the requested view and
// window state, render the main window offscreen and save it as PNG.
#pragma once

#include "app/gui/theme.h"

#include <QPoint>
#include <QSize>

#include <vector>
#include <QString>
#include <QStringList>

namespace tracescope {

struct ScreenshotOptions {
    QString input;   // trace file or folder
    QStringList moreInputs;  // further workers' files: all the inputs open as one run
    QString compare;         // the Compare page's second trace (--compare FILE2)
    QString output;  // PNG path
    QString view = QStringLiteral("timeline");
    QSize size{1600, 1000};
    QString range;   // "A:B" with optional units
    QString select;  // slice name to select
    QString search;  // search text
    ThemeChoice theme = ThemeChoice::Light;  // --theme / --dark (to check legibility in both themes)
    QString dialog;     // render this dialog instead of the window ("capture"); no trace needed
    QString trackFilter;  // the timeline's track filter box
    bool shortNames = true;  // C++ / kernel names in their short form (View > Short Names)
    QString pin;             // pin the tracks whose name or process name matches this regex
    QString hide;            // hide the tracks whose name or process name matches this regex
    QStringList bookmarks;   // "TIME:LABEL" (TIME as in --range)
    bool minimap = true;     // the overview strip under the ruler
    QString counters = QStringLiteral("auto");  // counter tracks as the data is, or all "step" / "line"
    QString hover;           // "TIME:REGEX": the mouse over that track at that time
    QString selectRange;     // "A:B" (as --range): a range selection, shown in the details dock
    QString stepMarker;      // the step marker the step-based pages use ("" = automatic)
    bool allSteps = false;   // the step pages average every step (else the trace's step set)
    QString convention;      // Op Stats: "xprof" or "pytorch" ("" = the page's default for the trace)
    std::vector<QPoint> clicks;  // left clicks there (window pixels), in order, once the page is ready
    QString query;               // the Query page: this SQL in its editor, run before the picture
    quint64 previewBytes = 0;    // > 0: the window while loading, the timeline showing this much of the file
};

// Returns the process exit code; prints errors to stderr.
int runScreenshot(const ScreenshotOptions& options);

}  // namespace tracescope
