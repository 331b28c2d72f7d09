// Which program wrote a trace, recognised from its content (top-level keys, process and
// thread names, categories, arg keys), so the analyses can read each producer's
// conventions through one classification layer (model/analysis/op_classify). A fact of the
// Trace, computed from it: analyses and views read it without the importers.
#pragma once

#include "model/trace/trace.h"

#include <string_view>

namespace tracescope {

enum class Producer : uint8_t {
    Generic,  // any other Trace Event Format file (catapult, Chrome, speedscope samples...)
    Kineto,   // PyTorch profiler / Kineto Chrome JSON
    XProf,    // TSL/XProf profiler: XSpace, or its trace JSON (TensorBoard trace viewer, jax perfetto_trace.json)
    Tf1,      // TensorFlow 1 RunMetadata, or timeline.Timeline's Chrome JSON of it
};

// Looks at the trace's format, metadata, process/thread names and string table; one pass
// over the categories of slices at most. Cheap next to any analysis.
Producer detectProducer(const Trace& trace);

// The name `info --json` reports: "kineto", "xprof", "tf1-timeline" (Chrome JSON), "tf1"
// (RunMetadata), "catapult" (generic Chrome JSON).
std::string_view producerName(Producer p, std::string_view format);

// Process names of the two Chrome JSON producers that carry XSpace/RunMetadata devices.
// XProf: "/device:GPU:0", "/host:CPU", optionally after "<hostname> ".
// TF1 timeline: "<device> Compute", "<device> Tensors", "Allocators".
bool isXProfPlaneProcessName(std::string_view processName);
bool isTf1TimelineProcessName(std::string_view processName);
// The XSpace plane name inside an XProf process name ("tw003 /device:GPU:0" -> "/device:GPU:0").
std::string_view xprofPlaneName(std::string_view processName);
// The host name before the plane in an XProf process name ("tw003 /host:CPU" -> "tw003"; "" if none),
// the XSpace's hostname that XProf's exporter writes in front of each plane.
std::string_view xprofHostName(std::string_view processName);

}  // namespace tracescope
