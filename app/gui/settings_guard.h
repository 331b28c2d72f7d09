// The settings file (QSettings' INI file, <config>/<organization>/<application>.conf) is the
// user's and may be broken: damaged text, unreadable, or a folder, a FIFO or a device in its
// place. Qt then reads nothing and fails to save without a word, and would wait forever on
// a FIFO. The viewer starts anyway, with default settings, and says so once.
#pragma once

#include <QString>

namespace tracescope {

// Checks the settings file before anything reads it. A damaged file (text Qt's INI reader
// rejects, binary junk, not UTF-8, over 16 MB) is moved aside to <file>.damaged and the
// session starts from defaults. Something other than a regular file there (a folder, a FIFO,
// a device), or a file that cannot be read or moved, is left alone: settings go to a
// temporary folder for this session instead. Returns "" when the file is usable (or absent),
// else one line for the user saying what is wrong and what happens now.
QString guardSettingsFile();

}  // namespace tracescope
