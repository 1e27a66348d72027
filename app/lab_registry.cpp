#include "app/lab_registry.h"

#include "views/attention_view.h"
#include "views/decay_bound_view.h"
#include "views/rope_invariance_view.h"

namespace fb {

const QList<LabEntry> &labRegistry()
{
    static const QList<LabEntry> labs {
        { QStringLiteral("attention"), QObject::tr("Attention"), QStringLiteral(":/icons/labs/attention.svg"),
          [] { return static_cast<LabView *>(new AttentionView); } },
        { QStringLiteral("rope-invariance"), QObject::tr("RoPE invariance"), QStringLiteral(":/icons/labs/rope-invariance.svg"),
          [] { return static_cast<LabView *>(new RopeInvarianceView); } },
        { QStringLiteral("decay-bound"), QObject::tr("RoPE decay bound"), QStringLiteral(":/icons/labs/decay-bound.svg"),
          [] { return static_cast<LabView *>(new DecayBoundView); } },
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

QString labNames()
{
    QStringList names;
    for (const auto &lab : labRegistry()) names << lab.name;
    return names.join(QStringLiteral(", "));
}

} // namespace fb
