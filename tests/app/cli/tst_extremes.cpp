// Extreme and non-finite parameters at every entry point. Every lab's every numeric parameter at
// its minimum and at its maximum, one at a time, through the panel as a slider or a typed value
// would set it (the training lab with short runs): no crash, no hang, every point on every chart
// finite, log axes only positive values, no "nan" or "inf" among the figures. "nan", "inf", "-inf"
// and "1e309" are refused with a message naming the key by the panel, by scenes and by
// `fullband compute` (exit 2).
#include "app/cli/cli.h"
#include "app/registry/lab_registry.h"
#include "core/lab/lab.h"
#include "app/scene/scene.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"
#include "support/sanitized.h"
#include "support/cli_process.h"

#include <QAbstractAxis>
#include <QElapsedTimer>
#include <QLabel>
#include <QLogValueAxis>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>

using namespace fb;

namespace {

// The labs `fullband compute` answers at once (the depth labs' studies and trainings take seconds
// at their limits, tst_depth_cli covers them; the cost-against-length lab times training steps,
// tst_length_cost_lab covers its limits).
std::vector<const LabSpec *> analyticLabs()
{
    std::vector<const LabSpec *> out;
    for (const LabDefinition &lab : labDefinitions())
        if (lab.computeJson && lab.name() != "depth-gradients" && lab.name() != "rnn-gradients"
            && lab.name() != "length-cost")
            out.push_back(&lab.spec());
    return out;
}

bool isNumeric(const ParamSpec &p)
{
    return p.kind == ParamKind::Real || p.kind == ParamKind::Integer;
}

// The valid value nearest to the given end of a parameter's range (multiples of 2 for RoPE widths).
double validEnd(const ParamSpec &p, bool top)
{
    double v = top ? p.max : p.min;
    if (p.kind == ParamKind::Integer && p.multipleOf > 1) {
        const double m = double(p.multipleOf);
        v = top ? std::floor(p.max / m) * m : std::ceil(p.min / m) * m;
    }
    return v;
}

// Every point of every series in the lab is finite, log axes only see positive values, value axes
// have finite ranges, and no label shows a non-finite number. Returns the first problem, or empty.
QString checkCharts(const LabView &lab)
{
    for (QXYSeries *series : lab.findChildren<QXYSeries *>()) {
        bool logX = false, logY = false;
        for (QAbstractAxis *axis : series->attachedAxes()) {
            const bool log = axis->type() == QAbstractAxis::AxisTypeLogValue;
            if (axis->orientation() == Qt::Horizontal) logX = logX || log;
            else logY = logY || log;
        }
        const QList<QPointF> points = series->points();
        for (qsizetype i = 0; i < points.size(); ++i) {
            const QPointF &pt = points[i];
            if (!std::isfinite(pt.x()) || !std::isfinite(pt.y()))
                return QStringLiteral("series '%1' point %2 is (%3, %4)").arg(series->name()).arg(i).arg(pt.x()).arg(pt.y());
            if ((logX && pt.x() <= 0) || (logY && pt.y() <= 0))
                return QStringLiteral("series '%1' point %2 (%3, %4) is not positive on a log axis")
                    .arg(series->name()).arg(i).arg(pt.x()).arg(pt.y());
        }
        for (QAbstractAxis *axis : series->attachedAxes()) {
            if (auto *v = qobject_cast<QValueAxis *>(axis); v && !(std::isfinite(v->min()) && std::isfinite(v->max())))
                return QStringLiteral("axis '%1' has range [%2, %3]").arg(v->titleText()).arg(v->min()).arg(v->max());
            if (auto *l = qobject_cast<QLogValueAxis *>(axis); l && !(l->min() > 0 && std::isfinite(l->max())))
                return QStringLiteral("log axis '%1' has range [%2, %3]").arg(l->titleText()).arg(l->min()).arg(l->max());
        }
    }
    // The figures beside the charts never read "nan" or "inf" either (the panel's message may quote
    // a refused input).
    static const QRegularExpression nonFinite(QStringLiteral("(^|[^A-Za-z])-?(nan|inf)([^A-Za-z]|$)"),
                                              QRegularExpression::CaseInsensitiveOption);
    for (QLabel *label : lab.findChildren<QLabel *>())
        if (!lab.panel()->isAncestorOf(label) && label->text().contains(nonFinite)) return QStringLiteral("label reads '%1'").arg(label->text().left(200));
    return {};
}

using Run = fb::test::CliRun;  // exitCode -1: crashed or timed out

Run runCompute(const QStringList &args)
{
    return fb::test::runFullband(QStringList { QStringLiteral("compute") } + args);
}

const QStringList kNonFinite { QStringLiteral("nan"), QStringLiteral("inf"), QStringLiteral("-inf"),
                               QStringLiteral("1e309"), QStringLiteral("-1e309"), QStringLiteral("NaN") };

} // namespace

class TestExtremes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN must point at the fullband executable");
    }

    void everyLabAtEveryLimit_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < labRegistry().size(); ++i)
            QTest::newRow(qPrintable(labRegistry()[i].name)) << i;
    }

    void everyLabAtEveryLimit()
    {
        QFETCH(int, index);
        const LabEntry &entry = labRegistry()[index];
        std::unique_ptr<LabView> lab(entry.create());
        lab->resize(1200, 800);
        lab->show();
        // The training labs train in waitForResult, from scratch only after Reset. They run short
        // trainings here, and skip the maxima that would train for minutes (100,000 steps, 4,096
        // sequences a batch, the widest layers, 256 passes); the trainers refuse what would not fit.
        const bool transformer = entry.name == QLatin1String("transformer");
        const bool training = entry.name == QLatin1String("training") || transformer;
        // The depth lab trains its LSTM classifier on every change; 10 steps (not the chapter's 200)
        // keep its widest and largest-batch limits to a fraction of a second, and its steps maximum
        // (2,000 steps) is left to tst_depth_gradients_view.
        const bool depth = entry.name == QLatin1String("depth-gradients");
        // The cost-against-length lab times training steps: small widths here, its widest and
        // longest maxima left to tst_length_cost_lab (the budget refuses the largest at once).
        const bool lengthCost = entry.name == QLatin1String("length-cost");
        const std::set<std::string> slowMaxima = training
            ? std::set<std::string> { "steps", "batch", "seq_len", "d_emb", "d_hid", "d_fuse", "passes", "d_model",
                                      "layers", "threads" }
            : depth ? std::set<std::string> { "steps" }
            : lengthCost ? std::set<std::string> { "tokens", "d_model", "layers" } : std::set<std::string> {};
        // The depth lab's widest LSTM (hidden = 256) is its slowest maximum (5 s in Release, half a
        // minute under the sanitizers); there the "every number at its maximum" check below reaches
        // the same computation once instead of twice.
        const std::set<std::string> maximaOnlyAllAtOnce =
            depth && sanitizedBuild() ? std::set<std::string> { "hidden" } : std::set<std::string> {};
        const auto settle = [&] {
            if (training)
                if (auto *reset = lab->findChild<QPushButton *>(QStringLiteral("reset")); reset && reset->isEnabled())
                    reset->click();
            lab->waitForResult();
        };
        if (training || depth || lengthCost) {
            ParamValues small = lab->values();
            const std::map<std::string, double> shortRun = transformer
                ? std::map<std::string, double> { { "steps", 5 }, { "batch", 4 }, { "seq_len", 8 }, { "layers", 1 },
                                                  { "heads", 2 }, { "d_model", 16 } }
                : training   ? std::map<std::string, double> { { "steps", 20 }, { "batch", 16 } }
                : lengthCost ? std::map<std::string, double> { { "tokens", 256 }, { "d_model", 16 }, { "layers", 1 },
                                                               { "heads", 2 }, { "repeats", 1 } }
                             : std::map<std::string, double> { { "steps", 10 } };
            for (const auto &[key, value] : shortRun)
                if (small.numbers.count(key)) small.numbers[key] = value;
            QCOMPARE(lab->setValues(small), QString());
        }
        settle();
        const ParamValues defaults = lab->values();
        QCOMPARE(checkCharts(*lab), QString());

        for (const ParamSpec &p : lab->panel()->spec().params) {
            if (!isNumeric(p)) continue;
            for (const bool top : { false, true }) {
                if (top && (slowMaxima.count(p.key) || maximaOnlyAllAtOnce.count(p.key))) continue;
                const double v = validEnd(p, top);
                const QString where = QStringLiteral("%1 = %2").arg(QString::fromStdString(p.key),
                                                                    QString::fromStdString(formatNumber(v)));
                // As a typed value (the panel's text path) ...
                lab->setValues(defaults);
                QElapsedTimer timer;
                timer.start();
                const QString err = lab->panel()->setValue(p.key, formatNumber(v));
                settle();
                if (!err.isEmpty()) {
                    // A refusal (a cross-key rule) names the parameter and keeps the values.
                    QVERIFY2(lab->values() == defaults, qPrintable(where));
                    qInfo("%s %s refused: %s", qPrintable(entry.name), qPrintable(where), qPrintable(err));
                } else {
                    QCOMPARE(lab->values().number(p.key), v);
                }
                const QString chart = checkCharts(*lab);
                QVERIFY2(chart.isEmpty(), qPrintable(QStringLiteral("%1, %2: %3").arg(entry.name, where, chart)));
                qInfo("%s %s: %lld ms", qPrintable(entry.name), qPrintable(where), qint64(timer.elapsed()));
                // ... and as a whole set of values (scenes, the command line). Under the sanitizers
                // the typed path alone: the same values reach the same computation (this half was
                // 4 of the test's 9 minutes there), the Release build checks both.
                if (sanitizedBuild()) continue;
                ParamValues candidate = defaults;
                candidate.numbers[p.key] = v;
                lab->setValues(defaults);
                lab->setValues(candidate);
                settle();
                const QString chart2 = checkCharts(*lab);
                QVERIFY2(chart2.isEmpty(), qPrintable(QStringLiteral("%1, %2 (setValues): %3").arg(entry.name, where, chart2)));
            }
        }
        // Every number at its maximum at once, then every one at its minimum (where the cross-key
        // rules allow it).
        for (const bool top : { false, true }) {
            if (training && top) continue;
            ParamValues all = defaults;
            for (const ParamSpec &p : lab->panel()->spec().params)
                if (isNumeric(p) && !(top && slowMaxima.count(p.key))) all.numbers[p.key] = validEnd(p, top);
            lab->setValues(all);
            settle();
            const QString chart = checkCharts(*lab);
            QVERIFY2(chart.isEmpty(), qPrintable(QStringLiteral("%1, all at %2: %3").arg(entry.name, top ? "max" : "min", chart)));
        }
    }

    void nonFiniteRefusedByEveryPanel()
    {
        for (const LabEntry &entry : labRegistry()) {
            std::unique_ptr<LabView> lab(entry.create());
            // The transformer lab's waitForResult would train its defaults for seconds: its preview only.
            const bool transformer = entry.name == QLatin1String("transformer");
            const auto settle = [&] {
                if (transformer) lab->LabView::waitForResult();
                else lab->waitForResult();
            };
            settle();
            const ParamValues before = lab->values();
            for (const ParamSpec &p : lab->panel()->spec().params) {
                if (!isNumeric(p)) continue;
                for (const QString &text : kNonFinite + QStringList { QString(), QStringLiteral("12abc"), QStringLiteral(" ") }) {
                    const QString err = lab->panel()->setValue(p.key, text.toStdString());
                    QVERIFY2(!err.isEmpty(), qPrintable(QStringLiteral("%1 %2=%3 accepted").arg(entry.name, QString::fromStdString(p.key), text)));
                    QVERIFY2(err.contains(QString::fromStdString(p.key)), qPrintable(err));
                    QVERIFY(lab->values() == before);
                }
                // A NaN or infinity handed over directly (not through text) is refused too.
                for (const double bad : { std::nan(""), HUGE_VAL, -HUGE_VAL }) {
                    ParamValues candidate = before;
                    candidate.numbers[p.key] = bad;
                    const QString err = lab->setValues(candidate);
                    QVERIFY2(!err.isEmpty() && err.contains(QString::fromStdString(p.key)), qPrintable(entry.name + QLatin1Char(' ') + err));
                    QVERIFY(lab->values() == before);
                }
            }
            settle();
            QCOMPARE(checkCharts(*lab), QString());
        }
    }

    void nonFiniteRefusedByScenes()
    {
        // JSON has no NaN or infinity: Qt's parser refuses 1e309 and NaN as illegal numbers, and a
        // string is the wrong type. Out-of-range finite numbers are refused with the place named.
        for (const QByteArray &bad : { QByteArray("1e309"), QByteArray("-1e309"), QByteArray("NaN"), QByteArray("\"nan\""),
                                       QByteArray("\"inf\""), QByteArray("1e300"), QByteArray("-1e300"), QByteArray("0") }) {
            const QByteArray json = "{\"format\": 1, \"lab\": \"decay-bound\", \"params\": {\"base\": " + bad + "}}";
            const SceneParse r = parseSceneOrDeck(json, labSpec);
            QVERIFY2(!r.error.isEmpty(), json.constData());
        }
        const SceneParse big = parseSceneOrDeck("{\"format\": 1, \"lab\": \"decay-bound\", \"params\": {\"base\": 1e300}}", labSpec);
        QVERIFY2(big.error.contains(QLatin1String("params.base")), qPrintable(big.error));
    }

    // The command line's path (parse, check, compute, exit code) for each analytic lab's first
    // numeric parameter, as a process; every other parameter through the same functions in this
    // process (applySets and the lab's computeJson, what `fullband compute` calls): a process per
    // case cost most of this test's time, and several minutes under the sanitizers.
    void nonFiniteRefusedByComputeCli()
    {
        for (const LabSpec *lab : analyticLabs()) {
            bool first = true;
            for (const ParamSpec &p : lab->params) {
                if (!isNumeric(p)) continue;
                for (const QString &v : kNonFinite) {
                    const QString set = QStringLiteral("%1=%2").arg(QString::fromStdString(p.key), v);
                    ParamValues values = lab->defaults();
                    const ParamValues before = values;
                    const QString err = applySets(*lab, values, { set });
                    QVERIFY2(!err.isEmpty() && err.contains(QString::fromStdString(p.key)),
                             qPrintable(QString::fromStdString(lab->name) + QLatin1Char(' ') + set + QStringLiteral(": ") + err));
                    QVERIFY(values == before);
                    if (!first) continue;
                    const QString problem = fb::test::badInputProblem(
                        runCompute({ QString::fromStdString(lab->name), QStringLiteral("--set"), set }), QString::fromStdString(p.key));
                    QVERIFY2(problem.isEmpty(),
                             qPrintable(QStringLiteral("compute %1 --set %2: %3").arg(QString::fromStdString(lab->name), set, problem)));
                }
                first = false;
            }
        }
    }

    void computeCliAtEveryLimit()
    {
        // Each analytic lab with one parameter at its minimum or maximum: a finite JSON result
        // (exit 0) or a clear refusal (exit 2), never a crash or a hang.
        for (const LabSpec *lab : analyticLabs()) {
            const LabDefinition *definition = findLab(lab->name);
            QVERIFY(definition);
            bool first = true;
            for (const ParamSpec &p : lab->params) {
                if (!isNumeric(p)) continue;
                for (const bool top : { false, true }) {
                    const QString set = QStringLiteral("%1=%2").arg(QString::fromStdString(p.key),
                                                                    QString::fromStdString(formatNumber(validEnd(p, top))));
                    const QString where = QString::fromStdString(lab->name) + QStringLiteral(" --set ") + set;
                    // In this process: the values parse, and the lab computes finite JSON or refuses.
                    ParamValues values = lab->defaults();
                    QCOMPARE(applySets(*lab, values, { set }), QString());
                    if (const std::string refused = definition->check(values); !refused.empty()) {
                        qInfo("%s: refused: %s", qPrintable(where), refused.c_str());
                    } else {
                        JsonWriter json;
                        RunControl stop;
                        try {
                            definition->computeJson(values, stop, json);
                        } catch (const std::exception &e) {
                            qInfo("%s: refused while computing: %s", qPrintable(where), e.what());
                            continue;
                        }
                        const std::string text = json.str();
                        QVERIFY2(text.find("null") == std::string::npos, qPrintable(where));  // non-finite numbers are written as null
                    }
                    if (!first) continue;
                    // As a process: exit 0 with JSON, or exit 2 with one line.
                    const Run r = runCompute({ QString::fromStdString(lab->name), QStringLiteral("--set"), set });
                    const QString what = QStringLiteral("compute %1: exit %2, %3").arg(where).arg(r.exitCode).arg(QString::fromUtf8(r.err.left(300)));
                    QVERIFY2(r.exitCode == 0 || r.exitCode == 2, qPrintable(what));
                    if (r.exitCode == 2) QVERIFY2(r.err.startsWith("fullband: "), qPrintable(what));
                    else QVERIFY2(!r.out.contains("null"), qPrintable(what));  // QJson writes NaN as null
                }
                first = false;
            }
        }
    }
};

QTEST_MAIN(TestExtremes)
#include "tst_extremes.moc"
