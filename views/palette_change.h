// Live theme switches for widgets whose colours are fixed at set-up (style sheets, cached
// colours). A widget styled by a style sheet gets no PaletteChange when the application's
// palette changes (the sheet pins its palette), so it cannot notice a switch by itself.
#pragma once

#include <functional>

class QPalette;
class QWidget;

namespace tracescope {

// Calls `restyle` each time the application's palette changes, for as long as `widget`
// lives. `restyle` reads the new colours from QApplication::palette().
void restyleOnPaletteChange(QWidget* widget, std::function<void()> restyle);

// True for a dark palette (its base colour is darker than mid-grey).
bool isDarkPalette(const QPalette& palette);

}  // namespace tracescope
