#include "app/registry/lab_registry.h"

#include "core/lab/lab.h"
#include "views/labs/accounting_view.h"
#include "views/labs/attention_view.h"
#include "views/labs/capacity_view.h"
#include "views/labs/costs_view.h"
#include "views/labs/decay_bound_view.h"
#include "views/labs/depth_gradients_view.h"
#include "views/labs/glu_fusion_view.h"
#include "views/labs/length_cost_view.h"
#include "views/labs/rope_invariance_view.h"
#include "views/training/training_view.h"
#include "views/training/transformer_view.h"

#include <vector>

namespace fb {

namespace {

// A view type's entry: the lab it draws (its spec, the one object core's definition holds too),
// how to make it, and its explanation.
struct ViewType {
    const LabSpec &(*spec)();
    LabView *(*create)();
    QString (*explanation)();
};

template <typename View>
ViewType viewType()
{
    return ViewType { &View::LabType::spec, [] { return static_cast<LabView *>(new View); }, &View::explanationText };
}

// Every view of the window: one line each, in any order (the sidebar follows core's list).
const std::vector<ViewType> &viewTypes()
{
    static const std::vector<ViewType> views {
        viewType<DepthGradientsView>(), viewType<AttentionView>(), viewType<RopeInvarianceView>(),
        viewType<DecayBoundView>(),     viewType<CapacityView>(),  viewType<GluFusionView>(),
        viewType<TransformerView>(),    viewType<TrainingView>(),  viewType<AccountingView>(),
        viewType<CostsView>(),          viewType<LengthCostView>(),
    };
    return views;
}

// The view registered for core's definition of a lab, or nullptr. Matched by the lab's spec object.
const ViewType *viewOf(const LabDefinition &lab)
{
    for (const ViewType &v : viewTypes())
        if (&v.spec() == &lab.spec()) return &v;
    return nullptr;
}

} // namespace

const QList<LabEntry> &labRegistry()
{
    // In the order of core's list: the chapter's order, then the encyclopedia page's costs.
    static const QList<LabEntry> labs = [] {
        QList<LabEntry> out;
        for (const LabDefinition &lab : labDefinitions()) {
            const ViewType *view = lab.inWindow ? viewOf(lab) : nullptr;
            if (!view) continue;  // labsWithoutView() names a window lab left out here
            const QString name = QString::fromStdString(lab.name());
            out.append(LabEntry { name, QString::fromStdString(lab.spec().title),
                                  QStringLiteral(":/icons/labs/%1.svg").arg(name), view->create, lab.spec,
                                  view->explanation });
        }
        return out;
    }();
    return labs;
}

QStringList labsWithoutView()
{
    QStringList missing;
    for (const LabDefinition &lab : labDefinitions())
        if (lab.inWindow && !viewOf(lab)) missing << QString::fromStdString(lab.name());
    return missing;
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
