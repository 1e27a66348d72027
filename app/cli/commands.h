#pragma once
// The headless subcommands. Each takes main()'s arguments (argv[1] is the subcommand's name),
// prints its result on stdout and returns the process exit code (2 for bad input).

#include <QStringList>

namespace fb {

struct LabDefinition;

int runCompute(int argc, char **argv);  // fullband compute LAB [--set KEY=VALUE]...
int runTrain(int argc, char **argv);    // fullband train [--set KEY=VALUE]...
int runExport(int argc, char **argv);   // fullband export LAB [--set ...] --out FILE.png [--size WxH]
int runAnimate(int argc, char **argv);  // fullband animate LAB --sweep KEY=FROM:TO[:log] --out FILE.mp4|.gif|DIR/
int runGenerate(int argc, char **argv); // fullband generate MODEL.fbmodel [--prompt TEXT] [--chars N] [--set ...]
int runCompare(int argc, char **argv);  // fullband compare [--set KEY=VALUE]... --config OVERRIDES...

// One lab of core's list with the --set values applied: its JSON on stdout (exit 0), or one line on
// stderr naming the bad key (exit 2).
int runLabCompute(const LabDefinition &lab, const QStringList &sets);

} // namespace fb
