#include "core/labs/transformer_lab.h"

#include "core/transformer/transformer_estimate.h"

#include "core/transformer/transformer_trainer.h"
#include "core/labs/transformer_spec.h"

namespace fb {

const LabSpec &TransformerLab::spec()
{
    return transformerSpec();
}

std::string TransformerLab::check(const ParamValues &values)
{
    TransformerConfig c;
    return transformerFrom(values, c);
}

TransformerLabResult TransformerLab::compute(const ParamValues &values, const RunControl &stop)
{
    TransformerConfig c;
    refuseUnless(transformerFrom(values, c));
    TransformerLabResult r;
    r.params = transformerParameterCount(c);
    r.flopsPerStep = transformerFlopsPerStep(c);
    r.workspaceBytes = transformerWorkspaceBytes(c);
    r.expected = transformerExpectedText(c);
    r.vocab = transformerVocabulary(c);
    r.task = c.task;
    if (r.workspaceBytes <= kTransformerPreviewBytes && !stop.stopRequested()) {
        // The trainer's own snapshot before its first step, then nothing: an abandoned run stops
        // before that step and skips every evaluation.
        c.evalEvery = 0;
        c.probeEvery = 0;
        c.probeSeconds = 0.0;
        c.sampleChars = 0;
        RunControl before;
        before.abandon();
        trainTransformer(c, {}, [&](const TransformerSnapshot &s) { r.initial = s; }, &before);
    }
    return r;
}

LabDefinition TransformerLab::definition()
{
    LabDefinition d;
    d.spec = &TransformerLab::spec;
    d.check = &TransformerLab::check;
    return d;  // no computeJson: `fullband train --set model=transformer`
}

} // namespace fb
