#include "app/cli/depth_command.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/cli/progress_line.h"
#include "core/depth/depth_json.h"
#include "core/lab/lab.h"

#include <QJsonDocument>

#include <cstdio>
#include <functional>
#include <stdexcept>

namespace fb {

namespace {

// A core JSON writer's text as a Qt object (the tests read these objects).
QJsonObject parsed(const JsonWriter &json)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(json.str())).object();
}

template <typename Write>
QJsonObject build(const ParamValues &values, QString *error, Write write)
{
    DepthLabConfig c;
    if (const std::string err = depthLabFrom(values, c); !err.empty()) {
        if (error) *error = QString::fromStdString(err);
        return {};
    }
    JsonWriter json;
    write(json);
    return parsed(json);
}

void print(const JsonWriter &json)
{
    std::fputs(json.str().c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace

QJsonObject depthGradientsJson(const ParamValues &values, QString *error)
{
    return build(values, error, [&](JsonWriter &json) { writeDepthGradientsJson(json, depthLabSpec(), values); });
}

QJsonObject rnnGradientsJson(const ParamValues &values, QString *error)
{
    return build(values, error, [&](JsonWriter &json) { writeRnnGradientsJson(json, depthLabSpec(), values); });
}

QJsonObject lstmVsMeanJson(const ClassifierConfig &config, const std::vector<ClassifierArm> &arms)
{
    JsonWriter json;
    writeLstmVsMeanJson(json, config, arms);
    return parsed(json);
}

int runDepthCompute(const QString &lab, const QStringList &sets)
{
    if (lab != QLatin1String("depth-gradients") && lab != QLatin1String("rnn-gradients"))
        return failBadInput(QStringLiteral("unknown lab '%1' for the depth computations; one of depth-gradients, rnn-gradients").arg(lab));
    return runLabCompute(*findLab(lab.toStdString()), sets);
}

int runLstmVsMeanTrain(const QStringList &sets)
{
    const LabSpec &spec = lstmVsMeanSpec();
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return failBadInput(err);
    ClassifierConfig c;
    std::vector<ClassifierArm> arms;
    if (const std::string err = lstmVsMeanFrom(values, c, arms); !err.empty()) return failBadInput(QString::fromStdString(err));
    JsonWriter json;
    {
        // On a terminal, progress and the time left on stderr; the arms train one after the other.
        ProgressLine progress("training");
        std::function<void(const ClassifierProgress &)> onStep;
        if (progress.enabled())
            onStep = [&](const ClassifierProgress &p) {
                const long long before = p.arm == arms.front() ? 0 : c.steps;
                progress.update(before + p.step, (long long)c.steps * (long long)arms.size());
            };
        try {
            writeLstmVsMeanJson(json, c, arms, nullptr, onStep);
        } catch (const std::invalid_argument &e) {
            return failBadInput(QString::fromUtf8(e.what()));
        }
    }
    print(json);
    return 0;
}

} // namespace fb
