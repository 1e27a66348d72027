// The RoPE decay-bound lab against direct core calls, and its pinned curves: the chart's curves are
// core's decayBound at the lab's values, a pin keeps its curve when a parameter changes, clearing
// removes it from the chart, pins survive a scene's round trip, and a malformed scene is refused
// without touching the pins shown.
#include "core/labs/decay_bound_lab.h"
#include "core/rope/decay_bound.h"
#include "views/labs/decay_bound_view.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QPushButton>
#include <QValueAxis>
#include <QTest>

#include <cmath>

using namespace fb;

namespace {

// The chart draws core's doubles as they are: a relative 1e-12 leaves room for nothing but the
// last bits of a copy.
constexpr double kRelTol = 1e-12;

bool close(double actual, double expected)
{
    return std::fabs(actual - expected) <= kRelTol * std::max(1.0, std::fabs(expected));
}

// Empty when every point of drawn is (t, curve.bound[t - 1]) of core's curve, t running from 1 to
// the last distance; otherwise the first point that is not.
QString mismatch(const QList<QPointF> &drawn, const DecayBoundResult &curve)
{
    const qsizetype n = qsizetype(curve.bound.size());
    if (drawn.isEmpty()) return QStringLiteral("no points drawn");
    if (drawn.first().x() != 1.0 || drawn.last().x() != double(n))
        return QStringLiteral("drawn from %1 to %2, not 1 to %3").arg(drawn.first().x()).arg(drawn.last().x()).arg(n);
    for (qsizetype i = 0; i < drawn.size(); ++i) {
        const double t = drawn[i].x();
        if (t != std::round(t) || t < 1 || t > n || (i > 0 && !(t > drawn[i - 1].x())))
            return QStringLiteral("point %1 is at distance %2").arg(i).arg(t, 0, 'g', 17);
        const double expected = curve.bound[std::size_t(t) - 1];
        if (!close(drawn[i].y(), expected))
            return QStringLiteral("at distance %1: drawn %2, core %3").arg(t).arg(drawn[i].y(), 0, 'g', 17).arg(expected, 0, 'g', 17);
    }
    return {};
}

QChart *decayChart(const DecayBoundView &view)
{
    return view.plainSeries()->chart();
}

// The pinned curves on the decay chart: every series there but the two live ones.
QList<QLineSeries *> pinSeries(const DecayBoundView &view)
{
    QList<QLineSeries *> pins;
    for (QAbstractSeries *s : decayChart(view)->series())
        if (s != view.plainSeries() && s != view.scaledSeries()) pins.append(qobject_cast<QLineSeries *>(s));
    return pins;
}

bool samePoints(const QList<QPointF> &a, const QList<QPointF> &b)
{
    if (a.size() != b.size()) return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (!close(a[i].x(), b[i].x()) || !close(a[i].y(), b[i].y())) return false;
    return true;
}

QPushButton *button(const DecayBoundView &view, const QString &text)
{
    for (QPushButton *b : view.findChildren<QPushButton *>())
        if (b->text() == text) return b;
    return nullptr;
}

} // namespace

class TestDecayBoundView : public QObject {
    Q_OBJECT

    void set(DecayBoundView &view, const char *key, const char *value)
    {
        QCOMPARE(view.panel()->setValue(key, value), QString());
        view.waitForResult();
    }

    // One pinned curve of the defaults (d = 64, b = 10000), checked.
    void pinDefaults(DecayBoundView &view)
    {
        view.waitForResult();
        QPushButton *pin = button(view, QStringLiteral("Pin curve"));
        QVERIFY(pin);
        pin->click();
        QCOMPARE(view.pinCount(), 1);
        QCOMPARE(pinSeries(view).size(), 1);
        QCOMPARE(pinSeries(view).front()->name(), QStringLiteral("pinned: d = 64, b = 10,000"));
    }

private Q_SLOTS:
    void curvesMatchCore_data()
    {
        QTest::addColumn<QStringList>("settings");  // key, value, key, value ...
        QTest::newRow("defaults") << QStringList {};
        QTest::newRow("d 128, b 500000") << QStringList { "d", "128", "base", "500000", "max_distance", "2048" };
        // Above 2,048 distances the chart draws about 2,000 log-spaced ones.
        QTest::newRow("65536 distances") << QStringList { "d", "256", "max_distance", "65536" };
        QTest::newRow("YaRN s 8") << QStringList { "scaling", "yarn", "factor", "8", "trained_length", "512", "max_distance", "4096" };
        QTest::newRow("PI s 4") << QStringList { "scaling", "pi", "factor", "4" };
    }
    void curvesMatchCore()
    {
        QFETCH(QStringList, settings);
        DecayBoundView view;
        view.waitForResult();
        for (qsizetype i = 0; i + 1 < settings.size(); i += 2)
            set(view, settings[i].toUtf8().constData(), settings[i + 1].toUtf8().constData());
        QCOMPARE(QString::fromStdString(DecayBoundLab::check(view.values())), QString());
        const DecayBoundParams p = DecayBoundLab::params(view.values());

        DecayBoundParams plain = p;
        plain.extension = ContextExtension {};
        const DecayBoundResult curve = decayBound(plain);
        const QList<QPointF> drawn = view.plainSeries()->points();
        if (p.maxDistance <= 2048) QCOMPARE(drawn.size(), qsizetype(p.maxDistance));
        else QVERIFY2(drawn.size() > 1 && drawn.size() <= 2000, qPrintable(QString::number(drawn.size())));  // log-spaced
        const QString plainProblem = mismatch(drawn, curve);
        QVERIFY2(plainProblem.isEmpty(), qPrintable(plainProblem));

        const bool extended = p.extension.method != ScalingMethod::None;
        QCOMPARE(view.scaledSeries()->isVisible(), extended);
        if (extended) {
            const QString scaledProblem = mismatch(view.scaledSeries()->points(), decayBound(p));
            QVERIFY2(scaledProblem.isEmpty(), qPrintable(scaledProblem));
        }
        // The vertical axis shows the whole curve.
        const auto *y = qobject_cast<QValueAxis *>(decayChart(view)->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        for (const QPointF &pt : drawn) QVERIFY(pt.y() <= y->max());
    }

    // The chapter's marks at the defaults, as the readout prints them.
    void defaultsPrintTheChapterMarks()
    {
        DecayBoundView view;
        view.waitForResult();
        QCOMPARE(view.readouts()->value(QStringLiteral("bound")), QStringLiteral("15.95 / 5.70 / 2.99"));
    }

    void pinKeepsItsCurveWhenAParameterChanges()
    {
        DecayBoundView view;
        pinDefaults(view);
        const QList<QPointF> pinned = view.plainSeries()->points();
        QVERIFY(samePoints(pinSeries(view).front()->points(), pinned));

        set(view, "base", "500000");
        set(view, "d", "32");
        QCOMPARE(view.pinCount(), 1);
        QCOMPARE(pinSeries(view).size(), 1);
        QCOMPARE(pinSeries(view).front()->name(), QStringLiteral("pinned: d = 64, b = 10,000"));
        QVERIFY(samePoints(pinSeries(view).front()->points(), pinned));
        QVERIFY(!samePoints(view.plainSeries()->points(), pinned));  // the live curve moved on
        // the live curve's legend names the base it shows (a slide sweeping b shows every frame's)
        QCOMPARE(view.plainSeries()->name(), QStringLiteral("plain RoPE, b = 500,000"));
        set(view, "base", "2154.4");
        QCOMPARE(view.plainSeries()->name(), QStringLiteral("plain RoPE, b = 2,154"));
        set(view, "base", "12.5");
        QCOMPARE(view.plainSeries()->name(), QStringLiteral("plain RoPE, b = 12.5"));
        set(view, "base", "500000");
        // The pin stays in view: the vertical axis reaches its highest point.
        double top = 0;
        for (const QPointF &pt : pinned) top = std::max(top, pt.y());
        const auto *y = qobject_cast<QValueAxis *>(decayChart(view)->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QVERIFY2(y->max() >= top, qPrintable(QStringLiteral("axis to %1, pin to %2").arg(y->max()).arg(top)));

        // A second pin, of the new curve, beside the first.
        button(view, QStringLiteral("Pin curve"))->click();
        QCOMPARE(view.pinCount(), 2);
        QCOMPARE(pinSeries(view).size(), 2);
        QCOMPARE(pinSeries(view).back()->name(), QStringLiteral("pinned: d = 32, b = 500,000"));
        QVERIFY(samePoints(pinSeries(view).back()->points(), view.plainSeries()->points()));
    }

    void clearingRemovesThePins()
    {
        DecayBoundView view;
        pinDefaults(view);
        set(view, "base", "500");
        button(view, QStringLiteral("Pin curve"))->click();
        QCOMPARE(pinSeries(view).size(), 2);

        QPushButton *clear = button(view, QStringLiteral("Clear pins"));
        QVERIFY(clear);
        clear->click();
        QCOMPARE(view.pinCount(), 0);
        QCOMPARE(pinSeries(view).size(), 0);
        QCOMPARE(decayChart(view)->series().size(), 2);  // the plain and the scaled curve
        QVERIFY(view.extraState().isEmpty());

        // A scene without pins clears them too.
        button(view, QStringLiteral("Pin curve"))->click();
        QCOMPARE(pinSeries(view).size(), 1);
        QCOMPARE(view.setExtraState(QJsonObject()), QString());
        QCOMPARE(view.pinCount(), 0);
        QCOMPARE(pinSeries(view).size(), 0);
    }

    // extraState goes into a scene file as JSON text and back (app/scene): the pins come back with
    // their labels and points, in order, on a new view.
    void pinsSurviveASceneRoundTrip()
    {
        DecayBoundView view;
        pinDefaults(view);
        set(view, "d", "128");
        set(view, "max_distance", "8192");  // a log-sampled curve
        button(view, QStringLiteral("Pin curve"))->click();
        QCOMPARE(view.pinCount(), 2);
        const QList<QLineSeries *> before = pinSeries(view);

        const QByteArray text = QJsonDocument(view.extraState()).toJson();
        const QJsonObject state = QJsonDocument::fromJson(text).object();
        QCOMPARE(state.value(QStringLiteral("pins")).toArray().size(), 2);

        DecayBoundView restored;
        restored.waitForResult();
        QCOMPARE(restored.setExtraState(state), QString());
        QCOMPARE(restored.pinCount(), 2);
        const QList<QLineSeries *> after = pinSeries(restored);
        QCOMPARE(after.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(after[i]->name(), before[i]->name());
            QVERIFY2(samePoints(after[i]->points(), before[i]->points()), qPrintable(before[i]->name()));
        }
        QCOMPARE(restored.extraState(), view.extraState());

        // Setting the same state again replaces the pins, never adds to them.
        QCOMPARE(restored.setExtraState(state), QString());
        QCOMPARE(restored.pinCount(), 2);
        QCOMPARE(pinSeries(restored).size(), 2);
    }

    void malformedStateIsRefusedAndChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");  // part of the refusal
        const QByteArray ok = R"({"label": "x", "distance": [1, 2], "bound": [1, 0.5]})";
        QTest::newRow("pins not an array") << QByteArray(R"({"pins": 3})") << "must be an array";
        QTest::newRow("no label") << QByteArray(R"({"pins": [{"distance": [1], "bound": [1]}]})") << "needs a label";
        QTest::newRow("label not text") << QByteArray(R"({"pins": [{"label": 4, "distance": [1], "bound": [1]}]})") << "needs a label";
        QTest::newRow("lengths differ") << QByteArray(R"({"pins": [{"label": "x", "distance": [1, 2], "bound": [1]}]})")
                                        << "equally long";
        QTest::newRow("distance 0") << QByteArray(R"({"pins": [{"label": "x", "distance": [0], "bound": [1]}]})") << "distance in [1";
        QTest::newRow("distance too far") << QByteArray(R"({"pins": [{"label": "x", "distance": [70000], "bound": [1]}]})")
                                          << "distance in [1";
        QTest::newRow("bound negative") << QByteArray(R"({"pins": [{"label": "x", "distance": [1], "bound": [-1]}]})")
                                        << "bound in [0";
        QTest::newRow("bound above d/2") << QByteArray(R"({"pins": [{"label": "x", "distance": [1], "bound": [513]}]})")
                                         << "bound in [0";
        QTest::newRow("bound not a number") << QByteArray(R"({"pins": [{"label": "x", "distance": [1], "bound": ["1"]}]})")
                                            << "point 0";
        // The second curve is bad: the good first one is not applied either.
        QTest::newRow("second pin bad") << QByteArray(R"({"pins": [)" + ok + R"(, {"label": "y", "distance": [1], "bound": [1e308]}]})")
                                        << "extra.pins[1]";
        QByteArray many = R"({"pins": [)";
        for (int i = 0; i < 17; ++i) many += (i ? "," : "") + ok;
        QTest::newRow("17 pins") << many + "]}" << "at most 16";
    }
    void malformedStateIsRefusedAndChangesNothing()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QJsonParseError perr;
        const QJsonObject state = QJsonDocument::fromJson(json, &perr).object();
        QCOMPARE(perr.error, QJsonParseError::NoError);

        DecayBoundView view;
        pinDefaults(view);
        const QJsonObject before = view.extraState();
        const QList<QPointF> pinned = pinSeries(view).front()->points();

        const QString err = view.setExtraState(state);
        QVERIFY2(err.contains(message), qPrintable(err));
        QCOMPARE(view.pinCount(), 1);
        QCOMPARE(pinSeries(view).size(), 1);
        QCOMPARE(pinSeries(view).front()->name(), QStringLiteral("pinned: d = 64, b = 10,000"));
        QVERIFY(samePoints(pinSeries(view).front()->points(), pinned));
        QCOMPARE(view.extraState(), before);
    }
};

QTEST_MAIN(TestDecayBoundView)
#include "tst_decay_bound_view.moc"
