#pragma once
// The transformer lab's parameter panel and the text task: choosing task = text sets the model to
// the text's size (core/labs/transformer_spec.h, followTransformerTask; the user may change it
// after), and the vocabulary row says that the vocabulary comes from the text.
namespace fb {

class ParamPanel;

void linkTextTask(ParamPanel *panel);

} // namespace fb
