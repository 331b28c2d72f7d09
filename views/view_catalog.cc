#include "views/view_catalog.h"

namespace tracescope {

std::vector<ViewFactory> analysisViewFactories() {
    return {};
}

}  // namespace tracescope
