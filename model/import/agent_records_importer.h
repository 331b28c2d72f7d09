// Opens a fallback file of our CUPTI agent (<host>.<pid>.tscupti, the framed records it
// writes when no viewer listens): the one record decoder, the conversion to XSpace
// (model/capture/agent) and the XSpace importer. A cut file gives everything before the cut
// and a warning; a malformed one everything before the bad frame and a warning.
#pragma once

#include "model/import/import.h"

#include <string>

namespace tracescope {

ImportResult importAgentRecords(const std::string& path, const ImportOptions& options = {});

}  // namespace tracescope
