#pragma once
// fullband train --set model=transformer [--set KEY=VALUE]...: trains the tiny transformer
// (core/transformer/transformer_trainer.h) headless and prints one JSON object
// (core/transformer/transformer_json.h). Bad values: one line naming the key, exit 2.
// task=text starts from the text task's defaults (transformerTextDefaults); save=FILE writes the
// trained model there (core/model/model_file.h) once the run is over.
#include "core/transformer/transformer_config.h"

#include <QString>
#include <QStringList>

namespace fb {

// The configuration of the --set values sets (without model=transformer and save=) as `train
// --set model=transformer` takes them: the task's defaults first, then the keys. "" or one line.
QString transformerConfigFromSets(const QStringList &sets, TransformerConfig &out);

// sets without the model=transformer entry.
int runTransformerTrain(const QStringList &sets);

} // namespace fb
