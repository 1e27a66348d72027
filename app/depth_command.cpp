#include "app/depth_command.h"

#include "app/cli.h"
#include "core/depth/depth_lab_spec.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <cstdio>

namespace fb {

namespace {

// JSON has no NaN or infinity: those become null.
QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QJsonArray numbers(const std::vector<double> &v)
{
    QJsonArray a;
    for (double x : v) a.append(number(x));
    return a;
}

QJsonArray indices(std::size_t n)
{
    QJsonArray a;
    for (std::size_t i = 0; i < n; ++i) a.append(double(i));
    return a;
}

QJsonObject paramsJson(const LabSpec &spec, const ParamValues &v)
{
    QJsonObject o;
    for (const ParamSpec &p : spec.params) {
        if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text) o.insert(QString::fromStdString(p.key), QString::fromStdString(v.text(p.key)));
        else o.insert(QString::fromStdString(p.key), number(v.number(p.key)));
    }
    return o;
}

bool convert(const ParamValues &values, DepthLabConfig &c, QString *error)
{
    const std::string err = depthLabFrom(values, c);
    if (err.empty()) return true;
    if (error) *error = QString::fromStdString(err);
    return false;
}

void print(const QJsonObject &o)
{
    std::fputs(QJsonDocument(o).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace

QJsonObject depthGradientsJson(const ParamValues &values, QString *error)
{
    DepthLabConfig c;
    if (!convert(values, c, error)) return {};
    const DepthGradients r = depthGradients(c.stack);
    QJsonObject identity {
        { QStringLiteral("plain_ratio"), number(r.plainRatio) },
        { QStringLiteral("residual_ratio"), number(r.residualRatio) },
        { QStringLiteral("plain_factor_measured"), number(r.plainFactorMeasured) },
        { QStringLiteral("plain_factor_predicted"), number(r.plainFactorPredicted) },
        { QStringLiteral("residual_factor_measured"), number(r.residualFactorMeasured) },
        { QStringLiteral("residual_factor_predicted"), number(r.residualFactorPredicted) },
        { QStringLiteral("residual_jacobian_rms"), number(r.residualJacobianRms) },
    };
    return QJsonObject {
        { QStringLiteral("lab"), QStringLiteral("depth-gradients") },
        { QStringLiteral("params"), paramsJson(depthLabSpec(), values) },
        { QStringLiteral("loss"), QStringLiteral("sum of the outputs x_L over units and a batch of %1").arg(c.stack.batch) },
        { QStringLiteral("layers"), indices(r.plain.gradNorm.size()) },
        { QStringLiteral("plain"), numbers(r.plain.gradNorm) },
        { QStringLiteral("residual"), numbers(r.residual.gradNorm) },
        { QStringLiteral("plain_weight_grad"), numbers(r.plain.weightGradNorm) },
        { QStringLiteral("residual_weight_grad"), numbers(r.residual.weightGradNorm) },
        { QStringLiteral("identity_path"), identity },
    };
}

QJsonObject rnnGradientsJson(const ParamValues &values, QString *error)
{
    DepthLabConfig c;
    if (!convert(values, c, error)) return {};
    const TimeGradients r = timeGradients(c.time);
    QJsonObject rates {
        { QStringLiteral("rnn_rate"), number(r.rnnRate) },
        { QStringLiteral("rnn_predicted_rate"), number(r.rnnPredictedRate) },
        { QStringLiteral("rnn_mean_tanh_derivative"), number(r.rnnMeanDeriv) },
        { QStringLiteral("rnn_ratio"), number(r.rnnRatio) },
        { QStringLiteral("lstm_cell_rate"), number(r.lstmCellRate) },
        { QStringLiteral("lstm_cell_ratio"), number(r.lstmCellRatio) },
        { QStringLiteral("lstm_hidden_ratio"), number(r.lstmHiddenRatio) },
        { QStringLiteral("lstm_carousel_ratio"), number(r.lstmCarouselRatio) },
        { QStringLiteral("lstm_mean_forget"), number(r.meanForget) },
    };
    return QJsonObject {
        { QStringLiteral("lab"), QStringLiteral("rnn-gradients") },
        { QStringLiteral("params"), paramsJson(depthLabSpec(), values) },
        { QStringLiteral("loss"), QStringLiteral("sum of h_T over units and a batch of %1").arg(c.time.batch) },
        { QStringLiteral("steps"), indices(r.rnn.size()) },
        { QStringLiteral("rnn"), numbers(r.rnn) },
        { QStringLiteral("lstm_cell"), numbers(r.lstmCell) },
        { QStringLiteral("lstm_hidden"), numbers(r.lstmHidden) },
        { QStringLiteral("lstm_carousel"), numbers(r.lstmCarousel) },
        { QStringLiteral("rates"), rates },
    };
}

QJsonObject lstmVsMeanJson(const ClassifierConfig &config, const std::vector<ClassifierArm> &arms)
{
    QJsonArray out;
    for (ClassifierArm arm : arms) {
        const ClassifierResult r = trainClassifier(config, arm);
        out.append(QJsonObject {
            { QStringLiteral("arm"), QString::fromStdString(classifierArmName(r.arm)) },
            { QStringLiteral("params"), double(r.params) },
            { QStringLiteral("accuracy"), number(r.accuracy) },
            { QStringLiteral("heldout_accuracy"), number(r.heldoutAccuracy) },
            { QStringLiteral("heldout_loss"), number(r.heldoutLoss) },
            { QStringLiteral("heldout_majority"), number(r.heldoutMajority) },
            { QStringLiteral("curve"), numbers(r.curve) },
            { QStringLiteral("seconds"), number(r.seconds) },
            { QStringLiteral("status"), QString::fromStdString(classifierStatusName(r.status)) },
            { QStringLiteral("message"), QString::fromStdString(r.message) },
        });
    }
    return QJsonObject { { QStringLiteral("task"), QStringLiteral("lstm-vs-mean") }, { QStringLiteral("arms"), out } };
}

int runDepthCompute(const QString &lab, const QStringList &sets)
{
    if (lab != QLatin1String("depth-gradients") && lab != QLatin1String("rnn-gradients"))
        return failBadInput(QStringLiteral("unknown lab '%1' for the depth computations; one of depth-gradients, rnn-gradients").arg(lab));
    const LabSpec &spec = depthLabSpec();
    ParamValues values = spec.defaults();
    if (lab == QLatin1String("rnn-gradients")) values.texts["study"] = "time";
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return failBadInput(err);
    DepthLabConfig c;
    if (const std::string err = depthLabFrom(values, c); !err.empty()) return failBadInput(QString::fromStdString(err));
    switch (c.study) {
    case DepthStudy::Depth: print(depthGradientsJson(values)); break;
    case DepthStudy::Time: print(rnnGradientsJson(values)); break;
    case DepthStudy::Classifier:
        print(lstmVsMeanJson(c.classifier, { ClassifierArm::Lstm, ClassifierArm::MeanPooling }));
        break;
    }
    return 0;
}

int runLstmVsMeanTrain(const QStringList &sets)
{
    const LabSpec &spec = lstmVsMeanSpec();
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return failBadInput(err);
    ClassifierConfig c;
    std::vector<ClassifierArm> arms;
    if (const std::string err = lstmVsMeanFrom(values, c, arms); !err.empty()) return failBadInput(QString::fromStdString(err));
    print(lstmVsMeanJson(c, arms));
    return 0;
}

} // namespace fb
