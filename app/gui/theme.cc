#include "app/gui/theme.h"

#include "app/gui/desktop_color_scheme.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace tracescope {

namespace {

const char* const kSettingsKey = "view/theme";

// One palette's colours. Disabled text sits at about 2.3:1 (light) and 3.3:1 (dark) against
// its background (WCAG contrast ratio), enabled text at 18:1 and 9:1 or more: legible, yet
// plainly greyed out. A disabled selection is grey instead of the accent colour.
struct PaletteColors {
    QColor window, windowText, base, alternateBase, text, placeholder, button, buttonText;
    QColor light, midlight, mid, dark, shadow;
    QColor highlight, highlightedText, brightText, link, linkVisited, toolTipBase, toolTipText;
    // The Disabled group.
    QColor disabledText, disabledBase, disabledButton, disabledHighlight, disabledHighlightedText, disabledPlaceholder;
};

// Light: the colours of Qt's Fusion palette, with a darker disabled grey than Fusion's
// #bebebe (1.6:1 on the window, hard to read) and a link blue that is not pure #0000ff.
const PaletteColors kLight{
    QColor(0xef, 0xef, 0xef), QColor(0x00, 0x00, 0x00),       QColor(0xff, 0xff, 0xff), QColor(0xf7, 0xf7, 0xf7),
    QColor(0x00, 0x00, 0x00), QColor(0x00, 0x00, 0x00, 0x80), QColor(0xef, 0xef, 0xef), QColor(0x00, 0x00, 0x00),
    QColor(0xff, 0xff, 0xff), QColor(0xca, 0xca, 0xca),       QColor(0xb8, 0xb8, 0xb8), QColor(0x9f, 0x9f, 0x9f),
    QColor(0x76, 0x76, 0x76), QColor(0x30, 0x8c, 0xc6),       QColor(0xff, 0xff, 0xff), QColor(0xff, 0xff, 0xff),
    QColor(0x15, 0x65, 0xc0), QColor(0x7b, 0x1f, 0xa2),       QColor(0xff, 0xff, 0xdc), QColor(0x00, 0x00, 0x00),
    QColor(0xa0, 0xa0, 0xa0), QColor(0xef, 0xef, 0xef),       QColor(0xef, 0xef, 0xef), QColor(0xd4, 0xd4, 0xd4),
    QColor(0x80, 0x80, 0x80), QColor(0x00, 0x00, 0x00, 0x40)};

// Dark: greys as desktop dark themes use (VS Code / Breeze Dark range).
const PaletteColors kDark{
    QColor(0x2d, 0x2d, 0x30), QColor(0xdc, 0xdc, 0xdc), QColor(0x1e, 0x1e, 0x20), QColor(0x28, 0x28, 0x2c),
    QColor(0xdc, 0xdc, 0xdc), QColor(0x8c, 0x8c, 0x8c), QColor(0x32, 0x32, 0x36), QColor(0xdc, 0xdc, 0xdc),
    QColor(0x4a, 0x4a, 0x50), QColor(0x3c, 0x3c, 0x40), QColor(0x50, 0x50, 0x55), QColor(0x1e, 0x1e, 0x20),
    QColor(0x12, 0x12, 0x14), QColor(0x3c, 0x78, 0xc8), QColor(0xff, 0xff, 0xff), QColor(0xff, 0xff, 0xff),
    QColor(0x6e, 0xaa, 0xff), QColor(0xc3, 0x9b, 0xff), QColor(0x32, 0x32, 0x36), QColor(0xdc, 0xdc, 0xdc),
    QColor(0x7c, 0x7c, 0x80), QColor(0x28, 0x28, 0x2b), QColor(0x2d, 0x2d, 0x30), QColor(0x48, 0x48, 0x4c),
    QColor(0xa0, 0xa0, 0xa0), QColor(0x5f, 0x5f, 0x63)};

}  // namespace

QString themeChoiceName(ThemeChoice choice) {
    switch (choice) {
    case ThemeChoice::Light: return QStringLiteral("light");
    case ThemeChoice::Dark: return QStringLiteral("dark");
    case ThemeChoice::System: break;
    }
    return QStringLiteral("system");
}

std::optional<ThemeChoice> parseThemeChoice(const QString& name) {
    for (ThemeChoice c : {ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark})
        if (name == themeChoiceName(c)) return c;
    return std::nullopt;
}

QPalette themePalette(bool dark) {
    const PaletteColors& c = dark ? kDark : kLight;
    QPalette p;
    // setColor(role, colour) sets every group; the Disabled group is overridden below.
    const std::pair<QPalette::ColorRole, QColor> all[] = {
        {QPalette::Window, c.window},
        {QPalette::WindowText, c.windowText},
        {QPalette::Base, c.base},
        {QPalette::AlternateBase, c.alternateBase},
        {QPalette::Text, c.text},
        {QPalette::PlaceholderText, c.placeholder},
        {QPalette::Button, c.button},
        {QPalette::ButtonText, c.buttonText},
        {QPalette::Light, c.light},
        {QPalette::Midlight, c.midlight},
        {QPalette::Mid, c.mid},
        {QPalette::Dark, c.dark},
        {QPalette::Shadow, c.shadow},
        {QPalette::Highlight, c.highlight},
        {QPalette::HighlightedText, c.highlightedText},
        {QPalette::BrightText, c.brightText},
        {QPalette::Link, c.link},
        {QPalette::LinkVisited, c.linkVisited},
        {QPalette::ToolTipBase, c.toolTipBase},
        {QPalette::ToolTipText, c.toolTipText},
    };
    for (const auto& [role, colour] : all) p.setColor(role, colour);
    const std::pair<QPalette::ColorRole, QColor> disabled[] = {
        {QPalette::WindowText, c.disabledText},
        {QPalette::Text, c.disabledText},
        {QPalette::ButtonText, c.disabledText},
        {QPalette::BrightText, c.disabledText},
        {QPalette::Base, c.disabledBase},
        {QPalette::Button, c.disabledButton},
        {QPalette::Highlight, c.disabledHighlight},
        {QPalette::HighlightedText, c.disabledHighlightedText},
        {QPalette::PlaceholderText, c.disabledPlaceholder},
        {QPalette::Link, c.disabledText},
        {QPalette::LinkVisited, c.disabledText},
    };
    for (const auto& [role, colour] : disabled) p.setColor(QPalette::Disabled, role, colour);
    return p;
}

ThemeChoice savedThemeChoice() {
    return parseThemeChoice(QSettings().value(QLatin1String(kSettingsKey)).toString()).value_or(ThemeChoice::System);
}

void saveThemeChoice(ThemeChoice choice) { QSettings().setValue(QLatin1String(kSettingsKey), themeChoiceName(choice)); }

QMenu* addThemeMenu(QMenu* parent) {
    QMenu* menu = parent->addMenu(QObject::tr("&Theme"));
    menu->setObjectName(QStringLiteral("ThemeMenu"));
    menu->setToolTipsVisible(true);
    auto* group = new QActionGroup(menu);  // exclusive
    for (const auto& [choice, text] :
         {std::pair{ThemeChoice::System, QObject::tr("&System")}, std::pair{ThemeChoice::Light, QObject::tr("&Light")},
          std::pair{ThemeChoice::Dark, QObject::tr("&Dark")}}) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setData(themeChoiceName(choice));
        a->setObjectName(QStringLiteral("theme-") + themeChoiceName(choice));
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, menu, [c = choice] {
            saveThemeChoice(c);
            ThemeManager::instance()->apply(c);
        });
    }
    group->actions().constFirst()->setToolTip(QObject::tr(
        "Light or dark as the desktop's colour scheme says, following its changes (light when it does not say)"));
    auto check = [group] {
        const QString current = themeChoiceName(ThemeManager::instance()->choice());
        for (QAction* a : group->actions()) a->setChecked(a->data().toString() == current);
    };
    check();
    QObject::connect(ThemeManager::instance(), &ThemeManager::changed, menu, check);
    return menu;
}

ThemeManager* ThemeManager::instance() {
    static ThemeManager* manager = nullptr;
    if (!manager) manager = new ThemeManager(qApp);
    return manager;
}

ThemeManager::ThemeManager(QObject* parent) : QObject(parent), desktop_(new DesktopColorScheme(this)) {
    connect(desktop_, &DesktopColorScheme::preferenceChanged, this, [this](ColorSchemePreference p) {
        if (choice_ == ThemeChoice::System) applyPalette(p == ColorSchemePreference::Dark);
    });
}

void ThemeManager::apply(ThemeChoice choice) {
    const bool choiceChanged = choice != choice_;
    choice_ = choice;
    if (choice == ThemeChoice::System) desktop_->start();  // asks once, then follows the signal
    // System with no answer yet, or no portal at all: light (what most desktops default to).
    const bool dark = choice == ThemeChoice::Dark ||
                      (choice == ThemeChoice::System && desktop_->preference() == ColorSchemePreference::Dark);
    const bool paletteChanges = !applied_ || dark != dark_;
    applyPalette(dark);  // says changed() when the palette changes
    if (!paletteChanges && choiceChanged) emit changed();
}

void ThemeManager::waitForDesktop(int ms) {
    if (choice_ == ThemeChoice::System) desktop_->waitForAnswer(ms);
}

void ThemeManager::applyPalette(bool dark) {
    if (applied_ && dark == dark_) return;
    // Fusion draws everything from the palette (the platform styles may not), so both
    // themes look the same on every desktop and in screenshots.
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(themePalette(dark));
    dark_ = dark;
    applied_ = true;
    emit changed();
}

}  // namespace tracescope
