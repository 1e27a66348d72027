#pragma once
// The window's settings (QSettings: ~/.config/FullBand/FullBand.conf and the system-wide files) are
// read as soon as a QSettings exists, and reading a FIFO put in place of one would block forever.
// guardSettingsFiles() looks at every file QSettings would read, without opening any; if one exists
// and is not a regular file, it points QSettings at an empty private folder, so the window starts
// with its default settings (and saves none), and returns a one-line warning naming the file.
#include <QString>

namespace fb {

// Call after the application's organization and name are set, before the first QSettings.
// Empty when every settings file is a regular file or absent.
QString guardSettingsFiles();

} // namespace fb
