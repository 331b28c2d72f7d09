// Colours that follow the theme (View > Theme): which palette is dark, text colours for a
// state (an error, a success) legible on both palettes, and live restyling for widgets whose
// colours are fixed at set-up (style sheets, cached colours). A widget styled by a style sheet
// gets no PaletteChange when the application's palette changes (the sheet pins its palette),
// so it cannot notice a switch by itself.
#pragma once

#include <QColor>

#include <functional>

class QLabel;
class QPalette;
class QWidget;

namespace tracescope {

// True for a dark palette (its base colour is darker than mid-grey).
bool isDarkPalette(const QPalette& palette);

// Calls `restyle` each time the application's palette changes, for as long as `widget`
// lives. `restyle` reads the new colours from QApplication::palette().
void restyleOnPaletteChange(QWidget* widget, std::function<void()> restyle);

// Text that says how something went. Each tone has at least 4.5:1 contrast (WCAG AA) on the
// palette's window and base colours, light or dark.
enum class TextTone { Error, Success, Muted };
QColor toneColor(TextTone tone, const QPalette& palette);
// Gives a label's text the tone's colour, now and after every theme switch.
void setLabelTone(QLabel* label, TextTone tone);

}  // namespace tracescope
