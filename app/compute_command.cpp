// fullband compute LAB [--set KEY=VALUE]...: one analytic lab, printed as one JSON object.
#include "app/cli.h"
#include "app/depth_command.h"
#include "app/commands.h"
#include "core/lab_specs.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace fb {

namespace {

// Builds JSON numbers and remembers whether any was NaN or infinite (QJsonValue would write null).
struct Json {
    bool finite = true;

    QJsonValue num(double v)
    {
        finite = finite && std::isfinite(v);
        return v;
    }
    QJsonArray array(const std::vector<double> &values)
    {
        QJsonArray a;
        for (double v : values) a.append(num(v));
        return a;
    }
    QJsonArray array(const Eigen::VectorXd &values)
    {
        return array(std::vector<double>(values.data(), values.data() + values.size()));
    }
    // Rows of a matrix as arrays: m[row][col].
    QJsonArray rows(const Eigen::MatrixXd &m)
    {
        QJsonArray out;
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            QJsonArray row;
            for (Eigen::Index c = 0; c < m.cols(); ++c) row.append(num(m(r, c)));
            out.append(row);
        }
        return out;
    }
};

// A lab's computation: checked values in, JSON out; a non-empty error names the offending key.
using LabRun = std::function<QJsonObject(const ParamValues &, Json &, std::string &error)>;

QJsonObject runDecayBound(const ParamValues &v, Json &j, std::string &error)
{
    DecayBoundParams p;
    if (error = decayBoundFrom(v, p); !error.empty()) return {};
    const DecayBoundResult r = decayBound(p);
    return { { "distance", j.array(r.distance) }, { "bound", j.array(r.bound) } };
}

QJsonObject runRopeInvariance(const ParamValues &v, Json &j, std::string &error)
{
    RopeInvarianceParams p;
    if (error = ropeInvarianceFrom(v, p); !error.empty()) return {};
    const RopeInvarianceResult r = ropeInvariance(p);
    return { { "reference_logit", j.num(r.referenceLogit) }, { "max_deviation", j.num(r.maxDeviation) },
             { "max_deviation_float32", j.num(r.maxDeviationFloat32) },
             { "sinusoidal_min", j.num(r.sinusoidalMin) }, { "sinusoidal_max", j.num(r.sinusoidalMax) },
             { "rope_logits", j.array(r.ropeLogits) }, { "sinusoidal_logits", j.array(r.sinusoidalLogits) } };
}

QJsonObject runContextExtension(const ParamValues &v, Json &j, std::string &error)
{
    int d = 0;
    double base = 0.0;
    ContextExtension ext;
    if (error = contextExtensionFrom(v, d, base, ext); !error.empty()) return {};
    const ScaledFrequencies r = scaledFrequencies(d, base, ext);
    return { { "base", j.num(r.base) }, { "inv_freq", j.array(r.invFreq) },
             { "attention_factor", j.num(r.attentionFactor) } };
}

QJsonObject runAttention(const ParamValues &v, Json &j, std::string &error)
{
    AttentionParams p;
    if (error = attentionFrom(v, p); !error.empty()) return {};
    const AttentionResult r = multiHeadAttention(p);
    QJsonArray weights, tokens;
    for (const auto &w : r.weights) weights.append(j.rows(w));  // weights[head][query][key]
    for (const auto &t : r.tokens) tokens.append(QString::fromStdString(t));
    return { { "weights", weights }, { "entropy", j.array(r.entropy) }, { "tokens", tokens } };
}

QJsonObject runCapacity(const ParamValues &v, Json &j, std::string &error)
{
    CapacityParams p;
    if (error = capacityFrom(v, p); !error.empty()) return {};
    const CapacityResult r = capacity(p);
    return { { "token_bits", j.num(r.tokenBits) }, { "latent_bits", j.num(r.latentBits) },
             { "ratio", j.num(r.ratio) } };
}

QJsonObject runAccounting(const ParamValues &v, Json &j, std::string &error)
{
    AccountingParams p;
    if (error = accountingFrom(v, p); !error.empty()) return {};
    const AccountingResult r = accounting(p);
    return { { "param_overhead", j.num(r.paramOverhead) }, { "decode_overhead", j.num(r.decodeOverhead) },
             { "phase_multiplier", j.num(r.phaseMultiplier) }, { "run_multiplier", j.num(r.runMultiplier) },
             { "total_multiplier", j.num(r.totalMultiplier) }, { "saving", j.num(r.saving) } };
}

QJsonObject runKvCache(const ParamValues &v, Json &j, std::string &error)
{
    KvCacheParams p;
    if (error = kvCacheFrom(v, p); !error.empty()) return {};
    const KvCacheResult r = kvCache(p);
    return { { "bytes_per_token", j.num(r.bytesPerToken) }, { "bytes", j.num(r.bytes) } };
}

QJsonObject runBayesFloor(const ParamValues &v, Json &j, std::string &error)
{
    BayesFloorParams p;
    if (error = bayesFloorFrom(v, p); !error.empty()) return {};
    const BayesFloorResult r = bayesFloor(p);
    return { { "analytic", j.num(r.analytic) }, { "monte_carlo", j.num(r.monteCarlo) } };
}

const std::map<std::string, LabRun> &labRuns()
{
    static const std::map<std::string, LabRun> runs {
        { "decay-bound", runDecayBound }, { "rope-invariance", runRopeInvariance },
        { "context-extension", runContextExtension }, { "attention", runAttention },
        { "capacity", runCapacity }, { "accounting", runAccounting }, { "kv-cache", runKvCache },
        { "bayes-floor", runBayesFloor },
    };
    return runs;
}

QString labNames()
{
    QStringList names;
    for (const LabSpec *lab : analyticLabs()) names << QString::fromStdString(lab->name);
    names << QStringLiteral("depth-gradients") << QStringLiteral("rnn-gradients");
    return names.join(QStringLiteral(", "));
}

// Each lab with its keys, ranges, defaults and one sentence of help.
QString labsHelp()
{
    QString out = QStringLiteral("\nLabs and their keys (--set KEY=VALUE; defaults are the chapter's values):\n");
    for (const LabSpec *lab : analyticLabs()) {
        out += QStringLiteral("\n  %1  (%2)\n").arg(QString::fromStdString(lab->name), QString::fromStdString(lab->title));
        for (const ParamSpec &p : lab->params) {
            const bool isText = p.kind == ParamKind::Choice || p.kind == ParamKind::Text;
            const QString def = isText ? QStringLiteral("'%1'").arg(QString::fromStdString(p.defText))
                                       : QString::fromStdString(formatNumber(p.def));
            QString unit = p.unit.empty() ? QString() : QStringLiteral(" %1").arg(QString::fromStdString(p.unit));
            if (p.kind == ParamKind::Text) unit.clear();
            out += QStringLiteral("    %1: %2, default %3%4. %5\n")
                       .arg(QString::fromStdString(p.key), QString::fromStdString(rangeText(p)), def, unit,
                            QString::fromStdString(p.help));
        }
    }
    return out;
}

} // namespace

int runCompute(int argc, char **argv)
{
    QCoreApplication app(argc, argv);  // no display: the labs are pure computation
    QCoreApplication::setApplicationName(QStringLiteral("fullband compute"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Computes one analytic lab of FullBand and prints it as one JSON object on stdout."));
    addCommonOptions(parser);
    parser.addPositionalArgument(QStringLiteral("LAB"), QStringLiteral("One of: %1.").arg(labNames()));

    // Parse as if "compute" were the program: fullband compute LAB ... -> [fullband, LAB, ...].
    QStringList args = QCoreApplication::arguments();
    if (args.size() > 1) args.removeAt(1);
    if (!parser.parse(args))
        return failBadInput(parser.errorText() + QStringLiteral(" (see fullband compute --help)"));
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        // Qt's usage line names the executable's path; name the subcommand instead.
        QString help = parser.helpText();
        const qsizetype eol = help.indexOf(QLatin1Char('\n'));
        help.replace(0, eol, QStringLiteral("Usage: fullband compute LAB [--set KEY=VALUE]..."));
        std::fputs(qPrintable(help + labsHelp()), stdout);
        return 0;
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return failBadInput(QStringLiteral("compute needs a lab, one of: %1").arg(labNames()));
    if (positional.size() > 1)
        return failBadInput(QStringLiteral("compute takes one lab, got extra argument '%1' (use --set KEY=VALUE "
                                           "for parameters)").arg(positional.at(1)));
    // The depth and gradients lab (sections 218.1 and 218.2) has its own JSON builders.
    if (positional.first() == QLatin1String("depth-gradients") || positional.first() == QLatin1String("rnn-gradients"))
        return runDepthCompute(positional.first(), parser.values(kSetOption));
    const std::string name = positional.first().toStdString();
    const LabSpec *lab = findAnalyticLab(name);
    const auto run = labRuns().find(name);
    if (!lab || run == labRuns().end())
        return failBadInput(QStringLiteral("unknown lab '%1'; expected one of: %2").arg(positional.first(), labNames()));

    ParamValues values = lab->defaults();
    if (const QString err = applySets(*lab, values, parser.values(kSetOption)); !err.isEmpty())
        return failBadInput(err);

    Json json;
    std::string error;
    const QJsonObject result = run->second(values, json, error);
    if (!error.empty()) return failBadInput(QString::fromStdString(error));
    if (!json.finite)
        return failBadInput(QStringLiteral("%1 gave a non-finite value for these settings; try values nearer the "
                                           "defaults (fullband compute --help)").arg(positional.first()));

    const QByteArray text = QJsonDocument(result).toJson(QJsonDocument::Compact);
    std::fwrite(text.constData(), 1, std::size_t(text.size()), stdout);
    std::fputc('\n', stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}

} // namespace fb
