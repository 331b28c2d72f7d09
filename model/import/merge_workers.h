// The merged view of a multi-worker run is a function of the workers' Traces alone, which the
// analyses use too: model/trace/merge_workers.h. This header only forwards there for includers
// not yet moved to the new path.
#pragma once

#include "model/trace/merge_workers.h"
