#include "views/training/training_configs.h"
#include "core/labs/training_spec.h"

#include <QCoreApplication>

#include <stdexcept>

namespace fb {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("TrainingView", text);
}

} // namespace

std::vector<TrainConfig> trainingConfigs(const ParamValues &values)
{
    TrainConfig config;
    bool both = false;
    if (const std::string err = trainFrom(values, config, both); !err.empty()) throw std::invalid_argument(err);
    if (!both) return { config };
    TrainConfig token = config, latent = config;
    token.arm = Arm::TokenOnly;
    latent.arm = Arm::LatentFeedback;
    return { token, latent };
}

QString ghostLabel(const TrainConfig &c)
{
    if (c.arm == Arm::TokenOnly) return tr("token-only, seed %1").arg(c.seed);
    if (c.passes == 0) return tr("latent exact, seed %1").arg(c.seed);
    return tr("latent k=%1, seed %2").arg(c.passes).arg(c.seed);
}

QString runLabel(const TrainConfig &c)
{
    if (c.arm == Arm::TokenOnly) return tr("token-only, seed %1").arg(c.seed);
    const QString passes = c.passes == 0 ? tr("exact") : tr("k = %1").arg(c.passes);
    return tr("latent-feedback (%1), seed %2").arg(passes, QString::number(c.seed));
}

QString runKey(const TrainConfig &c)
{
    const auto n = [](double x) { return QString::number(x, 'g', 17); };
    return QStringList { n(int(c.arm)), n(c.steps), n(c.batch), n(c.lr), n(c.seqLen), n(c.buckets), n(c.dEmb), n(c.dHid),
                         n(c.dFuse), n(c.passes), QString::number(c.seed), n(c.clip), n(c.evalSequences),
                         QString::number(c.evalSeed), n(c.divergeLoss) }
        .join(QLatin1Char('|'));
}

QString runSettings(const TrainConfig &c)
{
    return tr("%1 steps, batch %2, lr %3, T %4, V_b %5, d_emb %6, d_hid %7, d_fuse %8, clip %9")
        .arg(c.steps)
        .arg(c.batch)
        .arg(c.lr)
        .arg(c.seqLen)
        .arg(c.buckets)
        .arg(c.dEmb)
        .arg(c.dHid)
        .arg(c.dFuse)
        .arg(c.clip > 0 ? QString::number(c.clip) : tr("off"));
}

QString legendName(const TrainConfig &c)
{
    if (c.arm == Arm::TokenOnly) return tr("token-only feedback");
    return c.passes == 0 ? tr("latent feedback (exact)") : tr("latent feedback, k = %1").arg(c.passes);
}

} // namespace fb
