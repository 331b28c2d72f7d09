// Whether a trace lost data at import (its file is cut or damaged), and the words
// the GUI uses to say so: a banner over every page and a note beside the headline
// figures of the analysis pages. Kineto and XSpace write device events last, so a
// cut file can look like a healthy CPU-only run; these texts keep that visible.
#pragma once

#include "model/trace/trace.h"

#include <string>

namespace tracescope {

// True when some of the file's data is missing (truncated or damaged).
bool traceIsPartial(const Trace& trace);

// The warning that says what is missing (a truncation first), or null.
const ImportWarning* firstDataLoss(const Trace& trace);

// One or two sentences for a banner, e.g. "The file ends early at byte X of Y:
// events after T are missing ...; numbers below cover only what was read."
// Empty for a complete trace.
std::string partialTraceBanner(const Trace& trace);

// A short note for an analysis page's headline. Empty for a complete trace.
std::string partialTraceNote(const Trace& trace);

}  // namespace tracescope
