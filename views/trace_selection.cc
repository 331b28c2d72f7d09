// TraceSelection is header-only apart from its moc output, which AUTOMOC adds here.
#include "views/trace_selection.h"
