#pragma once
// Shared pieces of FullBand's headless command line (fullband compute|train|export).
#include "core/lab/param_spec.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace fb {

// Exit code for bad input on the command line.
constexpr int kExitBadInput = 2;

// message with its control characters escaped as C would write them ("a\nb" becomes "a\\nb"), so a
// file name holding a newline cannot split a message in two lines.
QString oneLine(const QString &message);

// Prints "fullband: message" on stderr (one line: see oneLine) and returns kExitBadInput.
int failBadInput(const QString &message);

// Installs FullBand's Qt message handler: Qt's notes about the desktop environment (XDG_RUNTIME_DIR,
// size hints) and libpng's own lines about a file FullBand refuses or reports itself are dropped, so a
// refusal is one line; everything else Qt says still reaches stderr.
void installQuietMessages();

// Applies every "KEY=VALUE" of sets to values, checked against lab. Returns an empty string on
// success; otherwise the first error (values may then hold the settings before that error).
QString applySets(const LabSpec &lab, ParamValues &values, const QStringList &sets);

// A parser with --help and --set KEY=VALUE, for one subcommand.
void addCommonOptions(QCommandLineParser &parser);

// The shared --set option's name.
inline const QString kSetOption = QStringLiteral("set");

} // namespace fb
