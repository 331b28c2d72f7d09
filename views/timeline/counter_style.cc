#include "views/timeline/counter_style.h"

namespace tracescope {

CounterStyleSetting& CounterStyleSetting::instance() {
    static CounterStyleSetting setting;
    return setting;
}

void CounterStyleSetting::setMode(std::optional<CounterDrawMode> mode) {
    if (mode == mode_) return;
    mode_ = mode;
    emit changed();
}

}  // namespace tracescope
