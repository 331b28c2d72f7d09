// TensorFlow 1.x RunMetadata importer (the proto Session.run() fills when
// tracing; also a bare StepStats), shown the way TF1's timeline shows it:
// one process per device with non-overlapping op lanes, plus allocator memory.
#pragma once

#include "model/import/import.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tracescope {

// True when `data` starts like a serialized RunMetadata (field 1 StepStats ->
// field 1 DeviceStepStats -> field 1 device name "/...") or a bare StepStats
// (field 1 DeviceStepStats -> field 1 device name). Only the first bytes are
// looked at, so a file's head is enough.
bool looksLikeRunMetadata(const uint8_t* data, size_t size);

ImportResult importRunMetadata(const std::string& path, const ImportOptions& options = {});

}  // namespace tracescope
