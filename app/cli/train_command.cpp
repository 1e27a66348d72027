// fullband train [--set KEY=VALUE]...: trains the toy loops of Figure 218.2 headless and prints
// one JSON object {"arms": [{"arm", "params", "heldout_loss", "accuracy", "curve", "seconds",
// "status", ...}]}. With arm=both the two arms train at the same time, one thread each.
#include "app/cli/cli.h"
#include "app/cli/depth_command.h"
#include "app/cli/commands.h"
#include "app/cli/transformer_command.h"
#include "core/transformer/transformer_config.h"
#include "app/cli/progress_line.h"
#include "core/training/trainer.h"
#include "core/labs/transformer_spec.h"
#include "core/labs/training_spec.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <cmath>
#include <functional>
#include <cstdio>
#include <stdexcept>

namespace fb {

namespace {

QString keysHelp(const LabSpec &spec)
{
    QString out = QStringLiteral("\nKeys (--set KEY=VALUE):\n");
    for (const ParamSpec &p : spec.params) {
        const QString def = (p.kind == ParamKind::Choice || p.kind == ParamKind::Text)
                                ? QString::fromStdString(p.defText)
                                : QString::fromStdString(formatNumber(p.def));
        out += QStringLiteral("  %1 %2, default %3\n  %4 %5\n")
                   .arg(QString::fromStdString(p.key).leftJustified(9), QString::fromStdString(rangeText(p)), def,
                        QString(9, QLatin1Char(' ')), QString::fromStdString(p.help));
    }
    return out;
}

// JSON has no NaN or infinity: those become null.
QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QJsonObject toJson(const TrainResult &r)
{
    QJsonArray curve;
    for (double loss : r.curve) curve.append(number(loss));
    QJsonObject o;
    o.insert(QStringLiteral("arm"), QString::fromStdString(armName(r.arm)));
    o.insert(QStringLiteral("params"), double(r.params));
    o.insert(QStringLiteral("heldout_loss"), number(r.heldoutLoss));
    o.insert(QStringLiteral("accuracy"), number(r.accuracy));
    o.insert(QStringLiteral("curve"), curve);
    o.insert(QStringLiteral("seconds"), number(r.seconds));
    o.insert(QStringLiteral("status"), QString::fromStdString(trainStatusName(r.status)));
    o.insert(QStringLiteral("message"), QString::fromStdString(r.message));
    o.insert(QStringLiteral("passes"), r.passes);
    o.insert(QStringLiteral("train_seconds"), number(r.trainSeconds));
    o.insert(QStringLiteral("flops_per_step"), number(r.flopsPerStep));
    if (r.arm == Arm::LatentFeedback && r.passes >= 1) {
        o.insert(QStringLiteral("kpass_heldout_loss"), number(r.kpassHeldoutLoss));
        o.insert(QStringLiteral("kpass_accuracy"), number(r.kpassAccuracy));
    }
    return o;
}

} // namespace

int runTrain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const LabSpec &spec = trainSpec();
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Trains the toy phase accumulator of Figure 218.2: the token-only loop and the latent-feedback "
        "loop, with FullBand's own forward and backward passes. Prints one JSON object: "
        "{\"arms\": [{\"arm\", \"params\", \"heldout_loss\", \"accuracy\", \"curve\", \"seconds\", \"status\", "
        "...}]}. Held-out loss (nats) and accuracy are measured on 2,048 fresh sequences; the latent arm is "
        "evaluated with the exact recurrence, also when trained with k passes.\n"
        "--set task=lstm-vs-mean trains the LSTM and mean-pooling classifiers of section 218.2 instead "
        "(keys: arm lstm|mean-pooling|both, steps, batch, lr, seed, hidden, embed, vocab, seq_len, heldout).\n"
        "--set model=transformer trains the tiny decoder-only transformer instead and prints {\"model\", "
        "\"config\", \"params\", \"curve\", \"heldout_loss\", \"second_half_loss\", \"induction_score\", "
        "\"length_generalisation\", \"ms_per_step\", \"seconds\", \"status\", ...} (its keys are listed below), "
        "and the trained model taken apart on the held-out set: \"prev_token_score\", \"ablation_heldout_loss\" and "
        "\"ablation_second_half_loss\" (each head ablated alone), \"composition\" (the best later-layer induction "
        "score with that head ablated), \"phase_change_step\", \"logit_lens\" (the loss read after each layer), "
        "\"offset_profile\" (mean logit by offset i - j) and \"offset_profile_pairs\" (RoPE: per frequency pair); "
        "ablate=L2H1,L2H3 (or L2) adds \"ablated\" with those heads switched off."));
    addCommonOptions(parser);
    parser.addPositionalArgument(QStringLiteral("train"), QStringLiteral("The subcommand."));
    if (!parser.parse(QCoreApplication::arguments())) return failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText() + keysHelp(spec) + QStringLiteral("\nmodel=transformer")
                              + keysHelp(transformerCommandSpec())), stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return failBadInput(QStringLiteral("train takes no arguments besides --set KEY=VALUE, got '%1'")
                                .arg(positional.at(1)));

    // model=transformer trains the tiny transformer (its own keys); model=toy (the default) the rest.
    QStringList sets = parser.values(kSetOption);
    QString model = QStringLiteral("toy");
    for (qsizetype i = 0; i < sets.size(); ++i) {
        const QString set = sets[i].trimmed();
        if (!set.startsWith(QLatin1String("model="))) continue;
        model = set.mid(6).trimmed();
        sets.removeAt(i--);
    }
    if (model == QLatin1String("transformer")) return runTransformerTrain(sets);
    if (model != QLatin1String("toy"))
        return failBadInput(QStringLiteral("model must be one of toy|transformer, got '%1'").arg(model));
    // task=lstm-vs-mean trains the classifiers of section 218.2; task=toy (the default) the toy below.
    for (qsizetype i = 0; i < sets.size(); ++i) {
        const QString set = sets[i].trimmed();
        if (!set.startsWith(QLatin1String("task="))) continue;
        const QString task = set.mid(5).trimmed();
        if (task == QLatin1String("lstm-vs-mean")) return runLstmVsMeanTrain(sets);
        if (task != QLatin1String("toy"))
            return failBadInput(QStringLiteral("task must be one of toy|lstm-vs-mean, got '%1'").arg(task));
        sets.removeAt(i--);
    }
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, sets); !err.isEmpty())
        return failBadInput(err);
    TrainConfig config;
    bool both = false;
    if (const std::string err = trainFrom(values, config, both); !err.empty())
        return failBadInput(QString::fromStdString(err));

    std::vector<TrainConfig> configs;
    if (both) {
        TrainConfig token = config, latent = config;
        token.arm = Arm::TokenOnly;
        latent.arm = Arm::LatentFeedback;
        configs = { token, latent };
    } else {
        configs = { config };
    }
    std::vector<TrainResult> results;
    {
        // On a terminal, progress and the time left on stderr (runs of 100,000 steps take minutes).
        ProgressLine progress("training");
        std::vector<std::atomic<long long>> done(configs.size());
        long long total = 0;
        for (const TrainConfig &c : configs) total += c.steps;
        std::function<void(std::size_t, const TrainProgress &)> onStep;
        if (progress.enabled())
            onStep = [&](std::size_t arm, const TrainProgress &p) {
                done[arm].store(p.step);
                long long sum = 0;
                for (const auto &d : done) sum += d.load();
                progress.update(sum, total);
            };
        try {
            results = trainAll(configs, onStep);
        } catch (const std::exception &e) {
            return failBadInput(QString::fromUtf8(e.what()));
        }
    }
    QJsonArray arms;
    for (const TrainResult &r : results) arms.append(toJson(r));
    QJsonObject root;
    root.insert(QStringLiteral("arms"), arms);
    std::fputs(QJsonDocument(root).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputs("\n", stdout);
    return 0;
}

} // namespace fb
