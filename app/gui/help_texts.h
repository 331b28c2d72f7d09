// Help menu contents made from the program itself, so they cannot drift from it: the keyboard
// shortcuts of every menu action, and the facts a problem report needs.
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

class QMenuBar;

namespace tracescope {

struct Trace;

struct ShortcutRow {
    QString menu;      // "File › Open Recent"
    QString command;   // the action's text, without its mnemonic
    QString keys;      // its shortcuts, as this platform writes them ("Ctrl+O, F5")
};

// Every action with a shortcut under `bar`'s menus (submenus walked), in menu order.
std::vector<ShortcutRow> shortcutRows(const QMenuBar& bar);

// Help › Report a Problem: version (and commit), Qt's build and run-time versions, the
// platform and its display plugin, and, when a trace is open, its producer, format and size.
QString problemReportText(const Trace* trace, const QString& path);

}  // namespace tracescope
