// How counter tracks are drawn, app-wide (View > Counters): as their data is
// (model/query/counter_layout.h: steps for sampled-and-held values, lines for
// continuous measurements), or all as steps, or all as lines. A per-track
// choice (the track's context menu) wins over this.
#pragma once

#include "model/query/counter_layout.h"

#include <QObject>

#include <optional>

namespace tracescope {

class CounterStyleSetting : public QObject {
    Q_OBJECT
public:
    static CounterStyleSetting& instance();
    // nullopt: as the data is.
    std::optional<CounterDrawMode> mode() const { return mode_; }
    void setMode(std::optional<CounterDrawMode> mode);

signals:
    void changed();

private:
    std::optional<CounterDrawMode> mode_;
};

}  // namespace tracescope
