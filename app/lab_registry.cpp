#include "app/lab_registry.h"

#include "views/decay_bound_view.h"
#include "views/training_view.h"

namespace fb {

const QList<LabEntry> &labRegistry()
{
    static const QList<LabEntry> labs {
        { QStringLiteral("decay-bound"), QObject::tr("RoPE decay bound"), QStringLiteral(":/icons/labs/decay-bound.svg"),
          [] { return static_cast<LabView *>(new DecayBoundView); } },
        { QStringLiteral("training"), QObject::tr("Latent-feedback training"), QStringLiteral(":/icons/labs/training.svg"),
          [] { return static_cast<LabView *>(new TrainingView); } },
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
