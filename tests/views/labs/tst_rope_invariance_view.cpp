// The RoPE invariance lab against direct core calls: series, the flat RoPE line, the chapter's
// readout formats, refused input and export.
#include "core/labs/rope_invariance_lab.h"
#include "views/widgets/chart_panel.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/labs/rope_invariance_view.h"

#include <QAbstractAxis>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace fb;

class TestRopeInvarianceView : public QObject {
    Q_OBJECT

    void expectMatchesCore(const RopeInvarianceView &view)
    {
        QCOMPARE(QString::fromStdString(RopeInvarianceLab::check(view.values())), QString());
        const RopeInvarianceParams p = RopeInvarianceLab::params(view.values());
        const RopeInvarianceResult ref = ropeInvariance(p);
        const QList<QPointF> rope = view.ropeSeries()->points();
        const QList<QPointF> sinus = view.sinusoidalSeries()->points();
        QCOMPARE(rope.size(), qsizetype(p.positions));
        QCOMPARE(sinus.size(), qsizetype(p.positions));
        for (int m = 0; m < p.positions; ++m) {
            QCOMPARE(rope[m].x(), double(m));
            QCOMPARE(rope[m].y(), ref.ropeLogits[std::size_t(m)]);
            QCOMPARE(sinus[m].y(), ref.sinusoidalLogits[std::size_t(m)]);
            // Flat: the RoPE logit stays on its value at position 0.
            QVERIFY(std::fabs(rope[m].y() - ref.referenceLogit) <= 1e-9 * std::fabs(ref.referenceLogit));
        }
        const QList<QPointF> refLine = view.referenceSeries()->points();
        QCOMPARE(refLine.size(), 2);
        QCOMPARE(refLine[0].y(), ref.referenceLogit);
        QCOMPARE(refLine[1].y(), ref.referenceLogit);

        const ReadoutPanel *r = view.readouts();
        QCOMPARE(r->value(QStringLiteral("reference")),
                 QStringLiteral("RoPE logit at offset %1, query position 0: %2").arg(p.offset).arg(ref.referenceLogit, 0, 'f', 6));
        QCOMPARE(r->value(QStringLiteral("deviation")),
                 QStringLiteral("Max deviation across %1 shifted positions: %2").arg(p.positions).arg(ref.maxDeviationFloat32, 0, 'e', 2));
        QVERIFY(QRegularExpression(QStringLiteral("^Max deviation across \\d+ shifted positions: \\d\\.\\d\\de[+-]\\d\\d$"))
                    .match(r->value(QStringLiteral("deviation"))).hasMatch());
        QCOMPARE(r->value(QStringLiteral("range")),
                 QStringLiteral("Additive sinusoidal logit range: [%1, %2] (spread %3)")
                     .arg(ref.sinusoidalMin, 0, 'f', 3).arg(ref.sinusoidalMax, 0, 'f', 3)
                     .arg(ref.sinusoidalSpread(), 0, 'f', 3));
        QVERIFY(!r->value(QStringLiteral("relative")).isEmpty());
    }

    void set(RopeInvarianceView &view, const char *key, const char *value)
    {
        QCOMPARE(view.panel()->setValue(key, value), QString());
        view.waitForResult();
    }

private Q_SLOTS:
    void defaultsMatchCore()
    {
        RopeInvarianceView view;
        view.waitForResult();
        QCOMPARE(view.ropeSeries()->count(), 256);
        expectMatchesCore(view);
    }

    void parameterChangesMatchCore()
    {
        RopeInvarianceView view;
        view.waitForResult();
        set(view, "positions", "100");
        set(view, "offset", "3");
        expectMatchesCore(view);
        QVERIFY(view.chart()->axisX()->titleText().contains(QStringLiteral("m + 3")));
        set(view, "d", "128");
        set(view, "base", "500000");
        set(view, "seed", "11");
        expectMatchesCore(view);
    }

    void refusedValueKeepsState()
    {
        RopeInvarianceView view;
        view.waitForResult();
        const ParamValues before = view.values();
        const QList<QPointF> rope = view.ropeSeries()->points();
        const QString err = view.panel()->setValue("d", "63");
        QVERIFY(!err.isEmpty());
        QVERIFY2(err.contains(QStringLiteral("d")), qPrintable(err));
        QVERIFY(view.panel()->message().contains(QStringLiteral("d")));
        view.waitForResult();
        QVERIFY(view.values() == before);
        QCOMPARE(view.ropeSeries()->points(), rope);
    }

    void exportRendersRequestedSize()
    {
        RopeInvarianceView view;
        view.resize(1400, 900);
        view.show();
        view.waitForResult();
        for (double dpr : { 1.0, 2.0 }) {
            const QImage image = view.exportables().front()->renderImage(QSize(1600, 1000), dpr);
            QCOMPARE(image.size(), QSize(1600, 1000) * dpr);
            QSet<QRgb> colours;
            qint64 nonWhite = 0;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); x += 2) {
                    const QRgb c = image.pixel(x, y);
                    colours.insert(c);
                    if (qRed(c) < 245 || qGreen(c) < 245 || qBlue(c) < 245) ++nonWhite;
                }
            QVERIFY(colours.size() > 10);
            QVERIFY(nonWhite > image.width() * image.height() / 400);
        }
    }
};

QTEST_MAIN(TestRopeInvarianceView)
#include "tst_rope_invariance_view.moc"
