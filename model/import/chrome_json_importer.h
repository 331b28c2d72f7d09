// Chrome Trace Event Format importer (.json and gzip-compressed .json).
#pragma once

#include "model/import/import.h"

namespace tracescope {

ImportResult importChromeJson(const std::string& path, const ImportOptions& options = {});

}  // namespace tracescope
