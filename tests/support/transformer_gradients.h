#pragma once
// What the transformer's gradient checks share (tst_transformer_variants, tst_linear_mixers):
// parameters drawn away from the initialisation's tiny scale, and every tensor of the layout checked
// against central differences with FullBand's one checker (support/gradient_check.h).
#include "core/numeric/rng.h"
#include "core/transformer/transformer_net.h"
#include "support/gradient_check.h"

namespace fb::test {

// The initialisation plus scale x N(0, 1) on every parameter, so that every term of the gradient matters.
inline void randomiseTransformer(TransformerNet<double> &net, std::uint64_t seed, double scale = 0.4)
{
    Rng rng(seed);
    net.init(rng);
    for (Eigen::Index i = 0; i < net.params.size(); ++i) net.params[i] += scale * rng.normal();
}

// Checks every slot of net's layout: analytic holds the gradient of loss at net.params; up to
// maxEntries entries per tensor, central differences of step h.
template <typename LossFn>
void checkTransformerSlots(GradCheck &check, TransformerNet<double> &net, const Eigen::VectorXd &analytic,
                           LossFn &&loss, int maxEntries, double h = 1e-5)
{
    net.layout().forEachSlot([&](const std::string &name, const TransformerLayout::Slot &s) {
        checkTensor(check, name, net.params.data() + s.offset, analytic.data() + s.offset, s.size(), loss, maxEntries,
                    h);
    });
}

} // namespace fb::test
