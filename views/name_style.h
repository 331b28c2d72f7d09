// Whether C++ / kernel names show in their short form (model/analysis/short_name.h)
// or in full, app-wide (View > Short Names). Timeline labels and table name
// columns follow it; tooltips, the Details panel and CSV keep the full name.
#pragma once

#include "model/analysis/short_name.h"

#include <QObject>

namespace tracescope {

class NameStyleSetting : public QObject {
    Q_OBJECT
public:
    static NameStyleSetting& instance();
    NameStyle style() const { return style_; }
    bool shortNames() const { return style_ == NameStyle::Short; }
    void setStyle(NameStyle style);

signals:
    void changed();

private:
    NameStyle style_ = NameStyle::Short;
};

}  // namespace tracescope
