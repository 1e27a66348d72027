#include "views/writing/text_task_link.h"

#include "core/labs/transformer_spec.h"
#include "views/lab/param_panel.h"

#include <QCoreApplication>

namespace fb {

namespace {

void showVocabularyNote(ParamPanel *panel, const ParamValues &values)
{
    const bool text = values.texts.count("task") && values.text("task") == "text";
    panel->setNote("vocab", text ? QCoreApplication::translate("fb::ParamPanel",
                                                               "task = text: the vocabulary comes from the text, "
                                                               "one token per character it uses")
                                 : QString());
}

} // namespace

void linkTextTask(ParamPanel *panel)
{
    panel->setAdjuster([](ParamValues &candidate, const std::string &, const ParamValues &now) {
        followTransformerTask(now, candidate);
    });
    QObject::connect(panel, &ParamPanel::valuesChanged, panel,
                     [panel](const ParamValues &values) { showVocabularyNote(panel, values); });
    showVocabularyNote(panel, panel->values());
}

} // namespace fb
