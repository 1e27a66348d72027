// fullband compare --set KEY=VALUE... --config "OVERRIDES"... (issue 29): trains 1 to 5 configurations
// of the tiny transformer side by side on the same task, seed and data (core/compare) and prints one
// JSON object with a row per configuration (core/compare/compare_json.h). The base configuration is
// what `fullband train --set model=transformer` would train with the same --set values; each
// --config is comma-separated KEY=VALUE overrides of it ("kv_heads=1", "loop=2, layers=1"; "" is the
// base itself). Bad values, unknown keys, more than five configurations: one line naming it, exit 2.
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/cli/progress_line.h"
#include "app/cli/transformer_command.h"
#include "core/compare/compare_json.h"
#include "core/compare/compare_run.h"
#include "core/labs/transformer_spec.h"
#include "core/transformer/transformer_estimate.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace fb {

int runCompare(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Trains up to five configurations of the tiny transformer side by side, on the same task, seed and "
        "data, and prints one JSON object: {\"command\": \"compare\", \"task\", \"seed\", \"threads\", "
        "\"wall_seconds\", \"rows\": [{\"label\", \"overrides\", \"params\", \"flops_per_step\", "
        "\"kv_bytes_per_token\", \"kv_cached_tokens\", \"kv_cache_bytes\", \"ms_per_step\", \"heldout_loss\", "
        "\"accuracy\", \"sink_share\", \"sink_share_by_head\", \"heldout_curve\", \"recall_by_pairs\", \"steps\", "
        "\"steps_done\", "
        "\"status\", \"message\"}]}.\n"
        "--set KEY=VALUE sets the base configuration as `fullband train --set model=transformer` takes it "
        "(its keys are listed there); every --config \"KEY=VALUE, KEY=VALUE\" is one configuration: the base with "
        "those keys changed (\"\" is the base itself; task, text and seed are shared). KV bytes per token are "
        "2 x layers x loop x kv_heads x d_head x 4 (float32); kv_cache_bytes at T = seq_len cached tokens, "
        "at most window of them with a sliding window. The configurations train at the same time, one per "
        "core (threads=N: N cores in all, default every core); the figures do not depend on it, ms/step does. "
        "With task=mqar, recall_by_pairs gives each one's held-out accuracy on sequences of exactly 1, 2, ... "
        "pairs (pairs_min=1 trains on every count)."));
    addCommonOptions(parser);
    parser.addOption(QCommandLineOption(QStringLiteral("config"),
                                        QStringLiteral("One configuration (1 to 5 of them): comma-separated "
                                                       "KEY=VALUE overrides of the base."),
                                        QStringLiteral("OVERRIDES")));
    parser.addPositionalArgument(QStringLiteral("compare"), QStringLiteral("The subcommand."));
    if (!parser.parse(QCoreApplication::arguments())) return failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return failBadInput(QStringLiteral("compare takes no arguments besides --set KEY=VALUE and --config "
                                           "OVERRIDES, got '%1'")
                                .arg(positional.at(1)));
    QStringList sets = parser.values(kSetOption);
    for (const QString &set : sets)
        if (set.trimmed().startsWith(QLatin1String("model=")) || set.trimmed().startsWith(QLatin1String("save=")))
            return failBadInput(QStringLiteral("compare trains the transformer and saves nothing: no model= or save=, "
                                               "got '%1'")
                                    .arg(set));
    const QStringList configs = parser.values(QStringLiteral("config"));
    if (configs.isEmpty() || configs.size() > kMaxCompareConfigs)
        return failBadInput(QStringLiteral("--config must be given 1 to %1 times, got %2")
                                .arg(kMaxCompareConfigs)
                                .arg(configs.size()));
    TransformerConfig base;
    if (const QString err = transformerConfigFromSets(sets, base); !err.isEmpty()) return failBadInput(err);
    const int cores = availableCores();
    const bool threadsSet = std::any_of(sets.begin(), sets.end(), [](const QString &s) {
        return s.trimmed().startsWith(QLatin1String("threads="));
    });
    int threads = threadsSet ? base.threads : cores;
    if (threads > cores) {
        std::fprintf(stderr, "fullband: threads=%d is more than the %d cores of this machine; using %d\n", threads,
                     cores, cores);
        threads = cores;
    }
    // No live snapshots: the command line prints only the final figures.
    base.probeEvery = 0;
    base.probeSeconds = 0.0;
    std::vector<std::string> overrides;
    for (const QString &c : configs) overrides.push_back(c.toStdString());
    std::vector<CompareEntry> entries;
    if (const std::string err = buildCompareEntries(base, overrides, entries); !err.empty())
        return failBadInput(QString::fromStdString(err));

    ProgressLine progress("comparing");
    std::vector<std::atomic<long long>> done(entries.size());
    long long total = 0;
    for (const CompareEntry &e : entries) total += e.config.steps;
    std::function<void(int, const TransformerProgress &)> onStep;
    if (progress.enabled())
        onStep = [&](int i, const TransformerProgress &p) {
            done[std::size_t(i)].store(p.step);
            long long sum = 0;
            for (const auto &d : done) sum += d.load();
            progress.update(sum, total);
        };
    std::vector<CompareRow> rows;
    const auto start = std::chrono::steady_clock::now();
    try {
        rows = trainComparison(entries, threads, onStep);
    } catch (const std::exception &e) {
        return failBadInput(QString::fromUtf8(e.what()));
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    JsonWriter json;
    writeCompareJson(json, rows, threads, wall);
    std::fputs(json.str().c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace fb
