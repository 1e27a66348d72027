#include "core/capacity_lab_spec.h"

#include "core/lab_specs.h"

#include <algorithm>

namespace fb {

namespace {

LabSpec makeSpec()
{
    LabSpec spec = capacitySpec();
    spec.name = "capacity";
    spec.title = "Channel capacity";
    // The band's edges accept the same vocabulary sizes as the chosen V.
    double lo = 2, hi = 1e7;
    if (const ParamSpec *vocab = spec.find("vocab")) {
        lo = vocab->min;
        hi = vocab->max;
    }
    spec.params.push_back(integerParam("vocab_min", "band: smallest V", "tokens", lo, hi, std::clamp(32000.0, lo, hi),
                                       "Lower edge of the shaded token-only band log2(V); the chapter draws 32,000", true));
    spec.params.push_back(integerParam("vocab_max", "band: largest V", "tokens", lo, hi, std::clamp(256000.0, lo, hi),
                                       "Upper edge of the shaded token-only band log2(V); the chapter draws 256,000", true));
    return spec;
}

} // namespace

const LabSpec &capacityLabSpec()
{
    static const LabSpec spec = makeSpec();
    return spec;
}

std::string capacityLabFrom(const ParamValues &v, CapacityLabParams &out)
{
    const LabSpec &spec = capacityLabSpec();
    if (std::string err = checkAll(spec, v); !err.empty()) return err;
    CapacityParams point;
    if (std::string err = capacityFrom(v, point); !err.empty()) return err;
    const double lo = v.number("vocab_min"), hi = v.number("vocab_max");
    if (lo > hi)
        return "vocab_min (tokens) must be at most vocab_max = " + formatNumber(hi) + ", got "
            + formatNumber(lo);
    out.point = point;
    out.vocabMin = lo;
    out.vocabMax = hi;
    return {};
}

} // namespace fb
