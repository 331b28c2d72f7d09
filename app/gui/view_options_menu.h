// View › Short Names and View › Counters: how names and counter tracks are drawn everywhere,
// remembered in the settings (applied when the menu is built).
#pragma once

class QMenu;

namespace tracescope {

void addViewOptions(QMenu* view);

}  // namespace tracescope
