// The application's theme: View > Theme (System, Light, Dark), remembered in the settings.
// System follows the desktop's colour scheme (the XDG portal's preference, live); Light and
// Dark are fixed. Both palettes are built in one place, with disabled colours that look
// disabled (greyed text on buttons, menu items, fields).
#pragma once

#include <QObject>
#include <QPalette>
#include <QString>

#include <optional>

class QMenu;

namespace tracescope {

class DesktopColorScheme;

enum class ThemeChoice { System, Light, Dark };

// "system", "light", "dark": the settings value and the --theme argument.
QString themeChoiceName(ThemeChoice choice);
std::optional<ThemeChoice> parseThemeChoice(const QString& name);

// The one place that builds the application's palettes (Active, Inactive and Disabled groups).
QPalette themePalette(bool dark);

// The choice saved by View > Theme (System when none, or when the value is not one we know).
ThemeChoice savedThemeChoice();
void saveThemeChoice(ThemeChoice choice);

// Adds the Theme submenu (System, Light, Dark: one checked) to `parent`; a pick applies at
// once and is saved. The check follows the manager (e.g. --theme on the command line).
QMenu* addThemeMenu(QMenu* parent);

class ThemeManager : public QObject {
    Q_OBJECT
public:
    // The application's one manager (created on first use, owned by the application object).
    static ThemeManager* instance();

    ThemeChoice choice() const { return choice_; }
    // Whether the dark palette is applied now.
    bool dark() const { return dark_; }
    // Applies a choice to the whole application (Fusion style, our palette); System asks the
    // desktop and follows it from then on. Does not save: the menu saves what the user picks.
    void apply(ThemeChoice choice);
    // Under System, waits up to `ms` (running events) for the desktop's first answer, so the
    // first frame has its colours; returns at once otherwise.
    void waitForDesktop(int ms);
    // The desktop's preference (System's source), for tests.
    DesktopColorScheme* desktop() const { return desktop_; }

signals:
    // The choice or the applied palette changed.
    void changed();

private:
    explicit ThemeManager(QObject* parent);
    void applyPalette(bool dark);

    DesktopColorScheme* desktop_;
    ThemeChoice choice_ = ThemeChoice::System;
    bool dark_ = false;
    bool applied_ = false;
};

}  // namespace tracescope
