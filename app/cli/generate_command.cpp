// fullband generate FILE [--prompt TEXT] [--chars N] [--set KEY=VALUE]...: a model trained on the
// text task (a model file, core/model/model_file.h) writes N characters after the prompt, once with
// its KV cache and once recomputing its whole context for every character, and prints
// {"text", "prompt", "chars", "seconds", "chars_per_second", "seconds_without_cache",
//  "chars_per_second_without_cache", "same_text"}. Bad values and bad files: one line, exit 2.
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/io/json_writer.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_trainer.h"

#include <QCoreApplication>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

namespace fb {

namespace {

constexpr int kMaxChars = 100000;
constexpr std::size_t kMaxPrompt = 4096;  // characters

const LabSpec &generateSpec()
{
    static const LabSpec spec = [] {
        LabSpec s { "generate", "Writing with a trained text model", {} };
        s.params.push_back(realParam("temperature", "temperature", "", 0, 10, 0.8,
                                     "Softmax temperature of each draw; 0 takes the most likely character."));
        s.params.push_back(integerParam("top_k", "top-k", "", 0, 512, 0,
                                        "Draw among the k most likely characters only; 0 = all."));
        s.params.push_back(integerParam("seed", "seed", "", 0, 2147483648.0, 0, "Seed of the draws."));
        return s;
    }();
    return spec;
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int runGenerate(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const LabSpec &spec = generateSpec();
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Writes with a transformer trained on the text task and saved with `fullband train --set "
        "model=transformer --set task=text --set save=FILE`: N characters after the prompt, decoded one "
        "position at a time with the KV cache, then again recomputing the whole context for every "
        "character (the same characters). Prints {\"text\", \"prompt\", \"chars\", \"seconds\", "
        "\"chars_per_second\", \"seconds_without_cache\", \"chars_per_second_without_cache\", \"same_text\"}."));
    addCommonOptions(parser);
    parser.addOption(QCommandLineOption(QStringLiteral("prompt"),
                                        QStringLiteral("The text to continue (UTF-8; characters the model never saw read "
                                                       "as <unk>; empty: a new line)."),
                                        QStringLiteral("TEXT")));
    parser.addOption(QCommandLineOption(QStringLiteral("chars"),
                                        QStringLiteral("Characters to write, 1 to %1 (default 300).").arg(kMaxChars),
                                        QStringLiteral("N"), QStringLiteral("300")));
    parser.addPositionalArgument(QStringLiteral("generate"), QStringLiteral("The subcommand."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A model file (.fbmodel)."));
    if (!parser.parse(QCoreApplication::arguments())) return failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QString keys = QStringLiteral("\nKeys (--set KEY=VALUE):\n");
        for (const ParamSpec &p : spec.params)
            keys += QStringLiteral("  %1 %2, default %3\n  %4 %5\n")
                        .arg(QString::fromStdString(p.key).leftJustified(11), QString::fromStdString(rangeText(p)),
                             QString::fromStdString(formatNumber(p.def)), QString(11, QLatin1Char(' ')),
                             QString::fromStdString(p.help));
        std::fputs(qPrintable(parser.helpText() + keys), stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return failBadInput(QStringLiteral("generate takes one model file, got %1 arguments").arg(positional.size() - 1));
    double chars = 0.0;
    const QString charsText = parser.value(QStringLiteral("chars"));
    if (!parseNumber(charsText.toStdString(), chars) || chars != std::floor(chars) || chars < 1 || chars > kMaxChars)
        return failBadInput(QStringLiteral("chars must be an integer in [1, %1], got '%2'").arg(kMaxChars).arg(charsText));
    const std::string prompt = parser.value(QStringLiteral("prompt")).toStdString();
    if (characterCount(prompt) > kMaxPrompt)
        return failBadInput(QStringLiteral("prompt must be a text of at most %1 characters, got %2")
                                .arg(kMaxPrompt)
                                .arg(characterCount(prompt)));
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, parser.values(kSetOption)); !err.isEmpty()) return failBadInput(err);
    const double temperature = values.number("temperature");
    const int topK = int(values.integer("top_k"));
    const auto seed = std::uint64_t(values.integer("seed"));

    SavedModel saved;
    const QString path = positional.at(1);
    if (const std::string err = ModelFile::load(path.toStdString(), saved); !err.empty())
        return failBadInput(QString::fromStdString(err));
    if (!saved.model.corpus)
        return failBadInput(QStringLiteral("'%1' holds a model of task %2; generate needs one trained on task=text")
                                .arg(path, QString::fromStdString(transformerTaskName(saved.model.config.task))));
    std::string text, again;
    double seconds = 0.0, secondsWithout = 0.0;
    try {
        auto start = std::chrono::steady_clock::now();
        text = sampleTransformerText(saved.model, prompt, int(chars), temperature, seed, topK, true);
        seconds = secondsSince(start);
        start = std::chrono::steady_clock::now();
        again = sampleTransformerText(saved.model, prompt, int(chars), temperature, seed, topK, false);
        secondsWithout = secondsSince(start);
    } catch (const std::exception &e) {
        return failBadInput(QString::fromUtf8(e.what()));
    }
    JsonWriter json;
    json.beginObject()
        .field("text", text)
        .field("prompt", prompt)
        .field("chars", int(chars))
        .field("seconds", seconds)
        .field("chars_per_second", chars / seconds)
        .field("seconds_without_cache", secondsWithout)
        .field("chars_per_second_without_cache", chars / secondsWithout)
        .field("same_text", text == again)
        .endObject();
    std::fputs(json.str().c_str(), stdout);
    std::fputc('\n', stdout);
    return 0;
}

} // namespace fb
