#include "app/registry/lab_registry.h"

#include "core/lab/lab.h"
#include "views/labs/accounting_view.h"
#include "views/labs/attention_view.h"
#include "views/labs/capacity_view.h"
#include "views/labs/costs_view.h"
#include "views/labs/decay_bound_view.h"
#include "views/labs/depth_gradients_view.h"
#include "views/labs/glu_fusion_view.h"
#include "views/labs/rope_invariance_view.h"
#include "views/training/training_view.h"
#include "views/training/transformer_view.h"

#include <map>

namespace fb {

namespace {

template <typename View>
LabView *make()
{
    return new View;
}

// The view of every lab core's list shows in the window (core/labs/lab_list.cpp): one line each.
const std::map<std::string, LabView *(*)()> &viewFactories()
{
    static const std::map<std::string, LabView *(*)()> views {
        { "depth-gradients", &make<DepthGradientsView> },
        { "attention", &make<AttentionView> },
        { "rope-invariance", &make<RopeInvarianceView> },
        { "decay-bound", &make<DecayBoundView> },
        { "capacity", &make<CapacityView> },
        { "glu-fusion", &make<GluFusionView> },
        { "transformer", &make<TransformerView> },
        { "training", &make<TrainingView> },
        { "accounting", &make<AccountingView> },
        { "costs", &make<CostsView> },
    };
    return views;
}

} // namespace

const QList<LabEntry> &labRegistry()
{
    // In the order of core's list: the chapter's order, then the encyclopedia page's costs.
    static const QList<LabEntry> labs = [] {
        QList<LabEntry> out;
        for (const LabDefinition &lab : labDefinitions()) {
            if (!lab.inWindow) continue;
            const auto view = viewFactories().find(lab.name());
            if (view == viewFactories().end()) continue;  // tst_lab_registry fails on this
            const QString name = QString::fromStdString(lab.name());
            out.append(LabEntry { name, QString::fromStdString(lab.spec().title),
                                  QStringLiteral(":/icons/labs/%1.svg").arg(name), view->second, lab.spec });
        }
        return out;
    }();
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
    return windowLabSpec(name.toStdString());
}

QString labNames()
{
    QStringList names;
    for (const auto &lab : labRegistry()) names << lab.name;
    return names.join(QStringLiteral(", "));
}

} // namespace fb
