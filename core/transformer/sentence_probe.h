#pragma once
// The student's own sentence: every head's attention of a model trained on the text task on a
// sentence the user types, in the forward pass the model was trained with, as a snapshot the
// transformer lab draws like its held-out probe sequence (TransformerSnapshot: attention
// [layer * heads + head] (n, n), row = query i, column = key j, probeTokens the sentence's ids).
#include "core/transformer/transformer_report.h"

#include <string>

namespace fb {

// "" and out filled (attention, probeTokens, seqLen = n, layers, heads; the rest as default), or one
// sentence naming what is wrong and the valid range (out unchanged): the model must be a text model,
// the sentence 2 to T characters (T the trained length). Characters outside the vocabulary read as
// <unk>. Allocates; call it on a worker.
std::string probeSentence(const TrainedTransformer &model, const std::string &sentence, TransformerSnapshot &out);

} // namespace fb
