#pragma once
// Each analytic lab's parameters (keys, labels, units, ranges, the chapter's defaults) and the
// conversion of checked values into the compute functions' parameter structs. Shared by
// `fullband compute`, the labs' panels and saved scenes, so a range is written down once.
#include "core/accounting.h"
#include "core/attention.h"
#include "core/bayes_floor.h"
#include "core/capacity.h"
#include "core/context_extension.h"
#include "core/costs.h"
#include "core/decay_bound.h"
#include "core/param_spec.h"
#include "core/rope_invariance.h"

#include <string>
#include <string_view>
#include <vector>

namespace fb {

const LabSpec &decayBoundSpec();       // d, base, max_distance, scaling, factor, trained_length
const LabSpec &ropeInvarianceSpec();   // d, base, offset, positions, seed
const LabSpec &contextExtensionSpec(); // d, base, method, factor, trained_length
const LabSpec &attentionSpec();        // n, d_model, heads, positional, base, causal, scaled, seed,
                                       // content, sentence
const LabSpec &capacitySpec();         // d, snr, vocab
const LabSpec &accountingSpec();       // layers, phi, rho, data_ratio, passes, deep_passes
const LabSpec &kvCacheSpec();          // layers, kv_heads, head_dim, tokens, bytes_per_value
const LabSpec &bayesFloorSpec();       // buckets, samples, seed

// Every lab above, in the order of the chapter (for --help, menus and lookups by name).
const std::vector<const LabSpec *> &analyticLabs();
// The lab called name ("decay-bound", ...), or nullptr.
const LabSpec *findAnalyticLab(std::string_view name);

// Conversions. Each checks every value against its spec and the cross-key rules (d_model divisible
// by heads, passes <= deep_passes ...). Returns an empty string and fills out on success;
// otherwise a message naming the key and its valid range, and out is left unchanged.
std::string decayBoundFrom(const ParamValues &v, DecayBoundParams &out);
std::string ropeInvarianceFrom(const ParamValues &v, RopeInvarianceParams &out);
std::string contextExtensionFrom(const ParamValues &v, int &d, double &base, ContextExtension &out);
std::string attentionFrom(const ParamValues &v, AttentionParams &out);
std::string capacityFrom(const ParamValues &v, CapacityParams &out);
std::string accountingFrom(const ParamValues &v, AccountingParams &out);
std::string kvCacheFrom(const ParamValues &v, KvCacheParams &out);
std::string bayesFloorFrom(const ParamValues &v, BayesFloorParams &out);

} // namespace fb
