#include "core/labs/depth_gradients_lab.h"

#include "core/depth/depth_json.h"

#include <cmath>

namespace fb {

namespace {

ParamValues subset(const ParamValues &v, std::initializer_list<const char *> keys)
{
    ParamValues s;
    for (const char *k : keys) {
        if (auto it = v.numbers.find(k); it != v.numbers.end()) s.numbers.insert(*it);
        if (auto it = v.texts.find(k); it != v.texts.end()) s.texts.insert(*it);
    }
    return s;
}

// The residual-block lab's values for the depth lab's cell.
ParamValues residualBlockValues(const ResidualBlockParams &p)
{
    ParamValues v = ResidualBlockLab::spec().defaults();
    v.numbers["seed"] = double(p.seed);
    v.numbers["blocks"] = p.blocks;
    v.numbers["branch_gain"] = p.branchGain;
    return v;
}

} // namespace

RelativeCurve relativeCurve(const std::vector<double> &values, double reference)
{
    RelativeCurve c;
    if (!(reference > 0.0)) return c;
    for (std::size_t k = 0; k < values.size(); ++k) {
        const double v = values[k] / reference;
        if (std::isfinite(v) && v >= kSmallestDrawn) {
            c.index.push_back(double(k));
            c.ratio.push_back(v);
        }
    }
    return c;
}

const LabSpec &DepthGradientsLab::spec()
{
    return depthLabSpec();
}

std::string DepthGradientsLab::check(const ParamValues &values)
{
    DepthLabConfig c;
    return depthLabFrom(values, c);
}

LabDefinition DepthGradientsLab::definition()
{
    LabDefinition d;
    d.spec = &DepthGradientsLab::spec;
    d.check = &DepthGradientsLab::check;
    d.computeJson = [](const ParamValues &values, const RunControl &stop, JsonWriter &json) {
        DepthLabConfig c;
        refuseUnless(depthLabFrom(values, c));
        switch (c.study) {
        case DepthStudy::Depth: writeDepthGradientsJson(json, spec(), values); break;
        case DepthStudy::Block: writeJson(json, ResidualBlockLab().compute(residualBlockValues(c.block), stop)); break;
        case DepthStudy::Time: writeRnnGradientsJson(json, spec(), values); break;
        case DepthStudy::Classifier:
            writeLstmVsMeanJson(json, c.classifier, { ClassifierArm::Lstm, ClassifierArm::MeanPooling }, &stop);
            break;
        }
    };
    return d;
}

DepthGradientsLabResult DepthGradientsLab::compute(const ParamValues &values, const RunControl &stop)
{
    DepthLabConfig c;
    refuseUnless(depthLabFrom(values, c));
    const ParamValues depthKey = subset(values, { "depth", "width", "activation", "norm", "init_scale", "seed" });
    const ParamValues timeKey = subset(values, { "seq_len", "hidden", "radius", "forget_bias", "seed" });
    const ParamValues blockKey = subset(values, { "blocks", "branch_gain", "seed" });

    if (!depthKey_ || !(*depthKey_ == depthKey)) {
        DepthGradients g = depthCache_.compute(c.stack, false, &stop);  // the lab shows no weight gradients
        if (stop.stopRequested()) return {};
        auto &gn = g.plain.gradNorm, &gr = g.residual.gradNorm;
        depthPart_.plain = relativeCurve(gn, gn.empty() ? 0.0 : gn.back());
        depthPart_.residual = relativeCurve(gr, gr.empty() ? 0.0 : gr.back());
        g.plain = {};
        g.residual = {};
        depthPart_.depthNumbers = g;
        depthKey_ = depthKey;
        ++depthRuns_;
    }
    if (!timeKey_ || !(*timeKey_ == timeKey)) {
        TimeGradients t = timeGradients(c.time);
        auto last = [](const std::vector<double> &v) { return v.empty() ? 0.0 : v.back(); };
        timePart_.rnn = relativeCurve(t.rnn, last(t.rnn));
        timePart_.lstmCell = relativeCurve(t.lstmCell, last(t.lstmCell));
        timePart_.lstmHidden = relativeCurve(t.lstmHidden, last(t.lstmHidden));
        timePart_.lstmCarousel = relativeCurve(t.lstmCarousel, last(t.lstmCell));  // relative to dL/dc_T, like the cell
        timePart_.rnnLogFactor = std::log(c.time.radius * t.rnnMeanDeriv);
        t.rnn = t.lstmCell = t.lstmHidden = t.lstmCarousel = {};
        timePart_.timeNumbers = t;
        timeKey_ = timeKey;
        ++timeRuns_;
    }
    if (!blockKey_ || !(*blockKey_ == blockKey)) {
        blockPart_ = ResidualBlockLab().compute(residualBlockValues(c.block), stop);
        blockKey_ = blockKey;
        ++blockRuns_;
    }
    Result r = timePart_;
    r.config = c;
    r.block = blockPart_;
    r.plain = depthPart_.plain;
    r.residual = depthPart_.residual;
    r.depthNumbers = depthPart_.depthNumbers;
    return r;
}

} // namespace fb
