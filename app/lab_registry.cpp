#include "app/lab_registry.h"

#include "core/costs_lab_spec.h"
#include "core/depth/depth_lab_spec.h"
#include "core/lab_specs.h"
#include "views/accounting_view.h"
#include "views/attention_view.h"
#include "views/capacity_view.h"
#include "views/costs_view.h"
#include "views/decay_bound_view.h"
#include "views/depth_gradients_view.h"
#include "views/rope_invariance_view.h"
#include "views/training_view.h"

namespace fb {

const QList<LabEntry> &labRegistry()
{
    // In the chapter's order: depth and recurrence (218.1-218.2), attention and RoPE (218.4),
    // latent feedback (218.6), then the encyclopedia page's costs.
    static const QList<LabEntry> labs {
        { QStringLiteral("depth-gradients"), QObject::tr("Depth and gradients"), QStringLiteral(":/icons/labs/depth-gradients.svg"),
          [] { return static_cast<LabView *>(new DepthGradientsView); }, depthLabSpec },
        { QStringLiteral("attention"), QObject::tr("Attention"), QStringLiteral(":/icons/labs/attention.svg"),
          [] { return static_cast<LabView *>(new AttentionView); }, attentionSpec },
        { QStringLiteral("rope-invariance"), QObject::tr("RoPE invariance"), QStringLiteral(":/icons/labs/rope-invariance.svg"),
          [] { return static_cast<LabView *>(new RopeInvarianceView); }, &RopeInvarianceLab::spec },
        { QStringLiteral("decay-bound"), QObject::tr("RoPE decay bound"), QStringLiteral(":/icons/labs/decay-bound.svg"),
          [] { return static_cast<LabView *>(new DecayBoundView); }, &DecayBoundLab::spec },
        { QStringLiteral("capacity"), QObject::tr("Channel capacity"), QStringLiteral(":/icons/labs/capacity.svg"),
          [] { return static_cast<LabView *>(new CapacityView); }, &CapacityLab::spec },
        { QStringLiteral("training"), QObject::tr("Latent-feedback training"), QStringLiteral(":/icons/labs/training.svg"),
          [] { return static_cast<LabView *>(new TrainingView); }, TrainingView::labSpec },
        { QStringLiteral("accounting"), QObject::tr("Compute accounting"), QStringLiteral(":/icons/labs/accounting.svg"),
          [] { return static_cast<LabView *>(new AccountingView); }, &AccountingLab::spec },
        { QStringLiteral("costs"), QObject::tr("Costs"), QStringLiteral(":/icons/labs/costs.svg"),
          [] { return static_cast<LabView *>(new CostsView); }, &CostsLab::spec },
    };
    return labs;
}

int labIndex(const QString &name)
{
    const auto &labs = labRegistry();
    for (int i = 0; i < labs.size(); ++i)
        if (labs[i].name == name) return i;
    return -1;
}

const LabSpec *labSpec(const QString &name)
{
    const int i = labIndex(name);
    if (i < 0 || !labRegistry()[i].spec) return nullptr;
    return &labRegistry()[i].spec();
}

QString labNames()
{
    QStringList names;
    for (const auto &lab : labRegistry()) names << lab.name;
    return names.join(QStringLiteral(", "));
}

} // namespace fb
