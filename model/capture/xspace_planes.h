// A quick look at a serialized XSpace without parsing it: the plane names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tracescope::capture {

// The names of the XSpace's planes, in order; false with `error` when the bytes are not
// a well-formed XSpace at the plane level.
bool xspacePlaneNames(std::string_view xspace, std::vector<std::string>& names, std::string& error);

// True when some plane is a device ("/device:GPU:0", "/device:TPU:0", "/device:CUSTOM:...").
bool hasDevicePlane(const std::vector<std::string>& planeNames);

}  // namespace tracescope::capture
