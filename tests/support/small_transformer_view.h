#pragma once
// The transformer lab at tiny sizes (induction, vocab 8, T 12, one layer of two heads, d 16), shown
// at 1024x700: a run takes seconds, also under the sanitizers (tst_transformer_view,
// tst_transformer_compare).
#include "core/lab/param_spec.h"
#include "views/training/transformer_view.h"

#include <QtGlobal>

#include <memory>

namespace fb::test {

constexpr int kPatienceMs = 120000;  // generous: a passing test never waits this long

inline std::unique_ptr<TransformerView> smallTransformerView(int steps)
{
    auto view = std::make_unique<TransformerView>();
    ParamValues v = view->values();
    v.texts["task"] = "induction";
    v.numbers["vocab"] = 8;
    v.numbers["seq_len"] = 12;
    v.numbers["batch"] = 8;
    v.numbers["layers"] = 1;
    v.numbers["heads"] = 2;
    v.numbers["d_model"] = 16;
    v.numbers["steps"] = steps;
    v.numbers["eval_every"] = 20;
    const QString err = view->setValues(v);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    view->resize(1024, 700);
    view->show();
    return view;
}

} // namespace fb::test
