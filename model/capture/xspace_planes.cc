#include "model/capture/xspace_planes.h"

#include "model/proto/protobuf_wire.h"

namespace tracescope::capture {
namespace {
// Field numbers of tensorflow.profiler.XSpace / XPlane (model/proto/xplane.proto).
constexpr uint32_t kXSpacePlanes = 1;
constexpr uint32_t kXPlaneName = 2;
}  // namespace

bool xspacePlaneNames(std::string_view xspace, std::vector<std::string>& names, std::string& error) {
    names.clear();
    wire::Reader space(reinterpret_cast<const uint8_t*>(xspace.data()), xspace.size());
    wire::Field field;
    while (space.next(field)) {
        if (field.number != kXSpacePlanes || field.type != wire::LengthDelimited) continue;
        std::string name;
        wire::Reader plane(field.data, field.size);
        wire::Field planeField;
        while (plane.next(planeField))
            if (planeField.number == kXPlaneName && planeField.type == wire::LengthDelimited)
                name = std::string(planeField.text());
        if (plane.error()) {
            error = std::string("malformed XPlane: ") + plane.error();
            return false;
        }
        names.push_back(std::move(name));
    }
    if (space.error()) {
        error = std::string("malformed XSpace: ") + space.error();
        return false;
    }
    return true;
}

bool hasDevicePlane(const std::vector<std::string>& planeNames) {
    for (const std::string& name : planeNames)
        if (name.rfind("/device:", 0) == 0) return true;
    return false;
}

}  // namespace tracescope::capture
