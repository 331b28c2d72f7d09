// TraceView is an interface; this file carries its moc output.
#include "views/trace_view.h"
