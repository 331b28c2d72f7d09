#include "views/name_style.h"

namespace tracescope {

NameStyleSetting& NameStyleSetting::instance() {
    static NameStyleSetting setting;
    return setting;
}

void NameStyleSetting::setStyle(NameStyle style) {
    if (style == style_) return;
    style_ = style;
    emit changed();
}

}  // namespace tracescope
