#pragma once
// The tiny transformer's parameters (`fullband train --set model=transformer` and the transformer
// lab's panel): keys, ranges and defaults, the PyTorch reference's (baselines/torch_tiny_transformer.py).
#include "core/lab/param_spec.h"
#include "core/transformer/transformer_config.h"

#include <string>
#include <utility>
#include <vector>

namespace fb {

// Command-line keys: task, text (a file path), vocab, buckets, seq_len, batch, layers, heads, d_model,
// pos, base, scaling, factor, feedback, passes, lr, weight_decay, steps, seed, embed_scale, eval_every, clip, threads.
const LabSpec &transformerSpec();
// The command line's keys: transformerSpec's and the after-training ablation's, ablate (heads
// "L2H1,L2H3" or a layer "L2", 1-based) and ablation (zero | mean); and the model options of
// "Recent Developments": pos gains alibi, window, kv_heads, norm, qk_norm, attn_gate, loop. The lab's
// panel has its own way of switching heads off and keeps transformerSpec.
const LabSpec &transformerCommandSpec();
// Fills out from values of either spec (reading the text file when task is text); "" or one sentence.
std::string transformerFrom(const ParamValues &values, TransformerConfig &out);
// The same with the text task's text given (the key text is not read): a configuration built from
// another one that already holds its text (the comparison's overrides, core/compare).
std::string transformerFromText(const ParamValues &values, const std::string &text, TransformerConfig &out);

// The panel's values of a configuration (a model file's): every key of transformerSpec, text set to
// textPath (a configuration keeps the text, never its path). transformerFrom gives c back.
ParamValues transformerValues(const TransformerConfig &c, const std::string &textPath);
// Every key of transformerCommandSpec for c (the model options and the ablation too), text set to
// textPath. transformerFromText(values, c.text, ...) gives c back, but for the reporting settings
// that are no keys (probeEvery, probeSeconds, ...: the defaults).
ParamValues transformerCommandValues(const TransformerConfig &c, const std::string &textPath);

// The text task's own defaults: nanoGPT's CPU Shakespeare size (layers 4, heads 4, d_model 128,
// seq_len 64, batch 12) and AdamW with weight_decay 0.1, in place of the induction task's sizes.
const std::vector<std::pair<std::string, double>> &transformerTextDefaults();
// Puts task's defaults into values (text: transformerTextDefaults; the other tasks: the spec's own
// defaults of those keys). Call it before applying the keys a user set, so that those win.
void applyTransformerTaskDefaults(TransformerTask task, ParamValues &values);
// A panel's change from values `now` to `candidate`: when the task changes to or from text, the
// model's size follows it (applyTransformerTaskDefaults of the new task); any other change is left
// as it is, so the sizes a user sets after choosing the task stay.
void followTransformerTask(const ParamValues &now, ParamValues &candidate);

} // namespace fb
