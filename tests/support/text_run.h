#pragma once
// The transformer lab on the text task as the layout tests grab it: a text file, a tiny model at the
// text size's 4 layers x 4 heads (16 cache strips) but narrow and short enough to train in a
// moment, trained to the end, then the writing panel writes and a sentence of the student's is
// probed.
#include "core/lab/param_spec.h"
#include "views/training/transformer_view.h"
#include "views/writing/cache_strips.h"
#include "views/writing/writing_panel.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

#include <map>
#include <string>

namespace fb::test {

// Writes a text of a few thousand characters into folder; its path.
inline QString writeLabText(const QString &folder)
{
    const QString path = QDir(folder).filePath(QStringLiteral("notes.txt"));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        for (int i = 0; i < 80; ++i)
            f.write("The cat sat on the mat --> the <f32> dog & the bird.\n");
    return path;
}

// values with the text task on path, and the model's sizes (layers, heads, d_model, seq_len,
// batch, steps, eval_every ...) as given.
inline ParamValues textValues(ParamValues v, const QString &path, const std::map<std::string, double> &sizes)
{
    v.texts["task"] = "text";
    v.texts["text"] = path.toStdString();
    for (const auto &[key, value] : sizes) v.numbers[key] = value;
    return v;
}

// values with the text task on path at a tiny size.
inline ParamValues tinyTextValues(ParamValues v, const QString &path)
{
    return textValues(std::move(v), path, { { "layers", 4 }, { "heads", 4 }, { "d_model", 16 }, { "seq_len", 64 },
                                            { "batch", 2 }, { "steps", 5 }, { "eval_every", 0 } });
}

// Trains view to the end, writes 150 characters and probes a sentence; true when all arrived.
inline bool trainWriteAndProbe(TransformerView *view)
{
    view->waitForResult();
    WritingPanel *w = view->writing();
    if (!w->model()) return false;
    w->length()->setValue(150);
    w->pace()->setValue(0);
    w->write();
    if (!QTest::qWaitFor([w] { return !w->isWriting(); }, 60000)) return false;
    w->sentence()->setText(QStringLiteral("The cat sat on the mat."));
    w->probeSentence();
    return QTest::qWaitFor([view] { return view->maps()->data().title.contains(QStringLiteral("your sentence")); }, 60000);
}

} // namespace fb::test
