#include "app/cli/transformer_command.h"

#include "app/cli/cli.h"
#include "core/transformer/transformer_json.h"
#include "core/transformer/transformer_trainer.h"
#include "core/labs/transformer_spec.h"

#include <cstdio>
#include <exception>

namespace fb {

int runTransformerTrain(const QStringList &sets)
{
    const LabSpec &spec = transformerSpec();
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return failBadInput(err);
    TransformerConfig config;
    if (const std::string err = transformerFrom(values, config); !err.empty())
        return failBadInput(QString::fromStdString(err));
    // No live snapshots: the command line prints only the final figures.
    config.probeEvery = 0;
    config.probeSeconds = 0.0;
    TransformerResult result;
    try {
        result = trainTransformer(config);
    } catch (const std::exception &e) {
        return failBadInput(QString::fromUtf8(e.what()));
    }
    JsonWriter json;
    writeTransformerJson(json, config, result);
    std::fputs(json.str().c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace fb
