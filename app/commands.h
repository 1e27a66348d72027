#pragma once
// The headless subcommands. Each takes main()'s arguments (argv[1] is the subcommand's name),
// prints its result on stdout and returns the process exit code (2 for bad input).

namespace fb {

int runCompute(int argc, char **argv);  // fullband compute LAB [--set KEY=VALUE]...
int runTrain(int argc, char **argv);    // fullband train [--set KEY=VALUE]...
int runExport(int argc, char **argv);   // fullband export LAB [--set ...] --out FILE.png [--size WxH]

} // namespace fb
