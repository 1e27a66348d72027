#include "app/cli/transformer_command.h"

#include "app/cli/cli.h"
#include "app/cli/progress_line.h"
#include "core/io/atomic_file.h"
#include "core/interpret/run_history.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_estimate.h"
#include "core/transformer/transformer_json.h"
#include "core/transformer/transformer_trainer.h"
#include "core/labs/transformer_spec.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>

namespace fb {

namespace {
// Runs expected to take longer than this are announced on stderr even when it is not a terminal.
constexpr double kAnnouncedSeconds = 30.0;
} // namespace

QString transformerConfigFromSets(const QStringList &sets, TransformerConfig &out)
{
    const LabSpec &spec = transformerCommandSpec();
    ParamValues values = spec.defaults();
    // The task's own defaults come first (text: nanoGPT's CPU size), the keys given after them.
    for (const QString &set : sets) {
        TransformerTask task;
        if (set.trimmed().startsWith(QLatin1String("task="))
            && parseTransformerTask(set.trimmed().mid(5).trimmed().toStdString(), task))
            applyTransformerTaskDefaults(task, values);
    }
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return err;
    if (const std::string err = transformerFrom(values, out); !err.empty()) return QString::fromStdString(err);
    return {};
}

int runTransformerTrain(const QStringList &given)
{
    // save=FILE is the command line's own key (a panel has File > Save model): where the model goes.
    QStringList sets = given;
    QString savePath;
    for (qsizetype i = 0; i < sets.size(); ++i) {
        const QString set = sets[i].trimmed();
        if (!set.startsWith(QLatin1String("save="))) continue;
        savePath = set.mid(5).trimmed();
        if (savePath.isEmpty()) return failBadInput(QStringLiteral("save must name the model file to write, got ''"));
        sets.removeAt(i--);
    }
    TransformerConfig config;
    if (const QString err = transformerConfigFromSets(sets, config); !err.isEmpty()) return failBadInput(err);
    // A file that cannot be written is refused before the run, not after it.
    if (!savePath.isEmpty()) {
        const QFileInfo target(savePath);
        if (!target.absoluteDir().exists())
            return failBadInput(QStringLiteral("save: cannot write '%1': its folder does not exist").arg(savePath));
        if (const std::string err = checkReplaceable(savePath.toStdString()); !err.empty())
            return failBadInput(QStringLiteral("save: %1").arg(QString::fromStdString(err)));
    }
    // More threads than cores only slow a run down (and oneTBB warns on stderr): use the cores there
    // are, and say so. The result does not depend on the thread count.
    if (const int cores = availableCores(); config.threads > cores) {
        std::fprintf(stderr, "fullband: threads=%d is more than the %d cores of this machine; using %d\n", config.threads,
                     cores, cores);
        config.threads = cores;
    }
    // No live snapshots: the command line prints only the final figures. A model file keeps a
    // replay, as the window's would: about a hundred snapshots, evenly thinned (they change no number).
    // (the untrained model's and the final one besides: at most kMaxReplay offers, none thinned away)
    const int every = (config.steps + int(ModelFile::kMaxReplay) - 3) / (int(ModelFile::kMaxReplay) - 2);
    config.probeEvery = savePath.isEmpty() ? 0 : std::max(1, every);
    config.probeSeconds = 0.0;
    RunHistory<TransformerSnapshot> replay(ModelFile::kMaxReplay);
    std::function<void(const TransformerSnapshot &)> onSnapshot;
    if (!savePath.isEmpty())
        onSnapshot = [&replay](const TransformerSnapshot &s) {
            TransformerSnapshot kept = s;
            kept.weights = nullptr;
            replay.add(kept.step, std::move(kept));
        };
    ProgressLine progress("training");
    // A run of minutes says so before it starts (on a terminal, every run does; the progress line follows).
    const double seconds = transformerExpectedSeconds(config, measuredFlopsPerSecond(config.dModel));
    if (progress.enabled() || seconds >= kAnnouncedSeconds)
        std::fprintf(stderr, "fullband: this run is expected to take %s\n", transformerExpectedText(config).c_str());
    std::function<void(const TransformerProgress &)> onStep;
    if (progress.enabled()) onStep = [&](const TransformerProgress &p) { progress.update(p.step, p.steps); };
    TransformerResult result;
    try {
        result = trainTransformer(config, onStep, onSnapshot);
    } catch (const std::exception &e) {
        return failBadInput(QString::fromUtf8(e.what()));
    }
    if (!savePath.isEmpty()) {
        if (!result.model)
            return failBadInput(QStringLiteral("save: the run ended without a model, nothing written to '%1'").arg(savePath));
        std::vector<TransformerSnapshot> snapshots;
        for (std::size_t i = 0; i < replay.size(); ++i) snapshots.push_back(replay.value(i));
        if (const std::string err = ModelFile::save(savePath.toStdString(), *result.model, result, snapshots); !err.empty())
            return failBadInput(QStringLiteral("save: %1").arg(QString::fromStdString(err)));
    }
    JsonWriter json;
    writeTransformerJson(json, config, result);
    std::fputs(json.str().c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace fb
