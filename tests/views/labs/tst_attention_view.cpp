// The attention lab against direct core calls: heatmaps, entropies, the Toeplitz check, refused
// input, hover, the colour bar and the exported image.
#include "core/labs/attention_lab.h"
#include "views/labs/attention_view.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/number_spin_box.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

namespace {

// Distinct colours and the fraction of pixels that are not (near) white.
struct ImageStats {
    int distinctColours = 0;
    double nonWhite = 0.0;
};

ImageStats imageStats(const QImage &image)
{
    QSet<QRgb> colours;
    qint64 nonWhite = 0;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            colours.insert(line[x]);
            if (qRed(line[x]) < 245 || qGreen(line[x]) < 245 || qBlue(line[x]) < 245) ++nonWhite;
        }
    }
    return { int(colours.size()), double(nonWhite) / double(img.width() * img.height()) };
}

} // namespace

class TestAttentionView : public QObject {
    Q_OBJECT

    // The view shows exactly what the core computes for the view's current values.
    void expectMatchesCore(const AttentionView &view)
    {
        QCOMPARE(QString::fromStdString(AttentionLab::check(view.values())), QString());
        const AttentionParams p = AttentionLab::params(view.values());
        const AttentionResult ref = multiHeadAttention(p);
        const HeatmapGridData &d = view.grid()->data();
        QCOMPARE(qsizetype(d.images.size()), qsizetype(ref.weights.size()));
        QVERIFY(d.values);
        QCOMPARE(d.values->size(), ref.weights.size());
        double maxWeight = 0;
        for (const auto &w : ref.weights) maxWeight = std::max(maxWeight, w.maxCoeff());
        QCOMPARE(d.maxValue, maxWeight);
        QCOMPARE(view.grid()->colourBar().maximum(), maxWeight);
        for (std::size_t h = 0; h < ref.weights.size(); ++h) {
            QVERIFY((*d.values)[h] == ref.weights[h]);
            QCOMPARE(d.images[qsizetype(h)], HeatmapGrid::colourImage(ref.weights[h], maxWeight, p.causal));
            QVERIFY(d.panelTitles[qsizetype(h)].contains(QString::number(ref.entropy[h], 'f', 2)));
            QVERIFY(view.readouts()->value(QStringLiteral("entropy")).contains(QString::number(ref.entropy[h], 'f', 3)));
        }
        const int n = int(ref.weights.front().rows());
        QVERIFY(view.readouts()->value(QStringLiteral("uniform"))
                    .startsWith(QStringLiteral("ln %1 = %2 nats").arg(n).arg(std::log(double(n)), 0, 'f', 3)));
    }

    void set(AttentionView &view, const char *key, const char *value)
    {
        QCOMPARE(view.panel()->setValue(key, value), QString());
        view.waitForResult();
    }

private Q_SLOTS:
    void defaultsMatchCore()
    {
        AttentionView view;
        view.waitForResult();
        expectMatchesCore(view);
    }

    void parameterChangesMatchCore()
    {
        AttentionView view;
        view.waitForResult();
        set(view, "heads", "8");
        QCOMPARE(view.grid()->data().images.size(), 8);
        QCOMPARE(HeatmapGrid::gridRows(8), 2);
        QCOMPARE(HeatmapGrid::gridColumns(8), 4);
        expectMatchesCore(view);
        set(view, "positional", "rope");
        set(view, "causal", "1");
        expectMatchesCore(view);
        QVERIFY(view.grid()->data().masked);
        set(view, "scaled", "0");
        set(view, "n", "40");
        expectMatchesCore(view);
        QCOMPARE(view.grid()->data().images.front().width(), 40);
    }

    void ropeRepeatedTokenIsToeplitz()
    {
        AttentionView view;
        view.waitForResult();
        set(view, "content", "repeated");
        set(view, "n", "64");
        set(view, "heads", "8");
        set(view, "positional", "rope");
        expectMatchesCore(view);
        QVERIFY2(view.readouts()->value(QStringLiteral("toeplitz")).startsWith(QStringLiteral("yes")),
                 qPrintable(view.readouts()->value(QStringLiteral("toeplitz"))));
        set(view, "positional", "sinusoidal");
        QVERIFY2(view.readouts()->value(QStringLiteral("toeplitz")).startsWith(QStringLiteral("no")),
                 qPrintable(view.readouts()->value(QStringLiteral("toeplitz"))));
    }

    void sentenceLabelsTicksWithWords()
    {
        AttentionView view;
        view.waitForResult();
        set(view, "content", "sentence");
        set(view, "sentence", "the cat sat on the mat");
        const HeatmapGridData &d = view.grid()->data();
        QVERIFY(d.tokenTicks);
        QCOMPARE(d.tokens, QStringList({ "the", "cat", "sat", "on", "the", "mat" }));
        QCOMPARE(d.images.front().width(), 6);
        expectMatchesCore(view);
    }

    void refusedValuesKeepState_data()
    {
        QTest::addColumn<QString>("positional");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("named");
        QTest::newRow("n below range") << "sinusoidal" << "n" << "0" << "n";
        QTest::newRow("n above range") << "sinusoidal" << "n" << "513" << "n";
        QTest::newRow("d_model not divisible by heads") << "sinusoidal" << "heads" << "3" << "heads";
        QTest::newRow("odd head width under RoPE") << "rope" << "d_model" << "36" << "d_model";
    }

    void refusedValuesKeepState()
    {
        QFETCH(QString, positional);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, named);
        AttentionView view;
        view.waitForResult();
        set(view, "positional", positional.toUtf8().constData());
        const ParamValues before = view.values();
        const auto valuesBefore = view.grid()->data().values;
        const QString err = view.panel()->setValue(key.toStdString(), value.toStdString());
        QVERIFY(!err.isEmpty());
        QVERIFY2(err.contains(named), qPrintable(err));
        QVERIFY2(view.panel()->message().contains(named), qPrintable(view.panel()->message()));
        view.waitForResult();
        QVERIFY(view.values() == before);
        QCOMPARE(view.grid()->data().values, valuesBefore);  // nothing recomputed
        expectMatchesCore(view);
    }

    void steppingHeadsSkipsRefusedValues()
    {
        AttentionView view;
        view.waitForResult();
        NumberSpinBox *heads = nullptr;
        for (NumberSpinBox *box : view.panel()->findChildren<NumberSpinBox *>())
            if (box->toolTip().contains(QStringLiteral("key: heads "))) heads = box;
        QVERIFY(heads);
        QCOMPARE(heads->value(), 4.0);
        heads->stepBy(1);  // 5, 6 and 7 do not divide d_model = 64
        view.waitForResult();
        QCOMPARE(view.values().number("heads"), 8.0);
        QVERIFY2(view.panel()->message().contains(QStringLiteral("heads = 5 skipped")), qPrintable(view.panel()->message()));
        QCOMPARE(view.grid()->data().images.size(), 8);
        heads->stepBy(-1);
        view.waitForResult();
        QCOMPARE(view.values().number("heads"), 4.0);
        expectMatchesCore(view);
    }

    void colourBarExists()
    {
        AttentionView view;
        view.resize(1400, 900);
        view.show();
        view.waitForResult();
        const HeatmapGrid *grid = view.grid();
        const QRectF bar = grid->colourBarRect();
        QVERIFY(!bar.isEmpty());
        QVERIFY(QRectF(grid->rect()).contains(bar));
        const QList<double> ticks = grid->colourBar().ticks();
        QVERIFY(ticks.size() >= 2);
        QCOMPARE(ticks.front(), 0.0);
        QVERIFY(ticks.back() <= grid->colourBar().maximum() * (1 + 1e-9));
        QCOMPARE(grid->colourBar().label(), QStringLiteral("weight"));
        for (int i = 0; i < 4; ++i) QVERIFY(!grid->panelRect(i).intersects(bar));
    }

    void logColourScale()
    {
        AttentionView view;
        view.waitForResult();
        set(view, "n", "256");
        set(view, "causal", "1");
        view.logScaleBox()->setChecked(true);
        view.waitForResult();  // the maps coloured on the log scale
        HeatmapGrid *grid = view.grid();
        QVERIFY(grid->logScale());
        const HeatmapGridData &d = grid->data();
        QCOMPARE(d.logFloor, d.maxValue * 1e-4);
        QVERIFY(grid->colourBar().isLog());
        QCOMPARE(grid->shownImages().size(), qsizetype(d.values->size()));
        for (int h = 0; h < grid->shownImages().size(); ++h)
            QCOMPARE(grid->shownImages()[h],
                     HeatmapGrid::colourImage((*d.values)[std::size_t(h)], d.maxValue, true, d.logFloor));
        for (double t : grid->colourBar().ticks()) {
            QVERIFY(t >= d.logFloor && t <= d.maxValue);
            QCOMPARE(std::pow(10.0, std::round(std::log10(t))), t);
        }
        // A new result keeps the chosen scale.
        set(view, "heads", "8");
        QVERIFY(grid->colourBar().isLog());
        QCOMPARE(grid->shownImages().front(), grid->data().logImages.front());
        const QImage image = grid->renderImage(QSize(1600, 1000));
        QVERIFY(imageStats(image).distinctColours > 200);
        view.logScaleBox()->setChecked(false);
        view.waitForResult();
        QVERIFY(!grid->colourBar().isLog());
        QCOMPARE(grid->shownImages().front(), grid->data().images.front());
    }

    void logScaleIsKeptInScenes()
    {
        AttentionView view;
        view.waitForResult();
        QVERIFY(view.extraState().isEmpty());
        QCOMPARE(view.setExtraState(QJsonObject { { "logColourScale", true } }), QString());
        QVERIFY(view.grid()->logScale());
        QCOMPARE(view.extraState().value("logColourScale").toBool(), true);
        QVERIFY(!view.setExtraState(QJsonObject { { "logColourScale", 3 } }).isEmpty());
        QVERIFY(view.grid()->logScale());  // refused: unchanged
    }

    void presentationScaleEnlargesText()
    {
        AttentionView view;
        view.waitForResult();
        view.resize(1400, 900);
        const double before = view.grid()->panelRect(0).width();
        view.setPresentationScale(1.6);
        const double after = view.grid()->panelRect(0).width();
        QVERIFY2(after < before, "bigger fonts leave less room for the heatmaps");
        const QImage image = view.grid()->renderImage(QSize(1600, 1000));
        QVERIFY(imageStats(image).distinctColours > 100);
    }

    // The numbers under a row of maps never run together: at the first slide's values (4 heads of
    // 32 positions), in the lecture's font at 1024 x 768, the last map's "30" stood a space from the
    // next map's "0", read as "300".
    void keyTicksOfNeighbouringMapsStayApart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::newRow("lecture at 1024 x 768") << QSize(1008, 670) << 1.6;
        QTest::newRow("lecture at 1920 x 1080") << QSize(1900, 980) << 1.6;
        QTest::newRow("desk at 1024 x 768") << QSize(1000, 700) << 1.0;
        QTest::newRow("desk, narrow") << QSize(800, 600) << 1.0;
    }
    void keyTicksOfNeighbouringMapsStayApart()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        AttentionView view;
        view.waitForResult();
        set(view, "n", "32");
        set(view, "d_model", "64");
        set(view, "heads", "4");
        set(view, "positional", "sinusoidal");
        view.setPresentationScale(scale);
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QStringList problems = view.grid()->layoutProblems();
        QVERIFY2(problems.filter(QStringLiteral("run together")).isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void hoverShowsQueryKeyWeight()
    {
        AttentionView view;
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.waitForResult();
        HeatmapGrid *grid = view.grid();
        const QPoint pos = grid->panelRect(1).center().toPoint();
        const HeatmapGrid::Cell cell = grid->cellAt(pos);
        QCOMPARE(cell.panel, 1);
        QTest::mouseMove(grid, pos);
        QTRY_VERIFY_WITH_TIMEOUT(view.hoverLine()->text().startsWith(QStringLiteral("head 2")), 120000);
        const double w = (*grid->data().values)[1](cell.row, cell.col);
        const QString text = view.hoverLine()->text();
        QVERIFY2(text.contains(QStringLiteral("query %1").arg(cell.row)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("key %1").arg(cell.col)), qPrintable(text));
        QVERIFY2(text.contains(QString::number(w, 'f', 6)), qPrintable(text));
    }

    // The hint for the mouse is not projected: at lecture mode's scale the line is empty until a
    // cell is hovered, and back at the desk it says how to read a cell again.
    void noMouseHintOnAProjector()
    {
        AttentionView view;
        view.waitForResult();
        QVERIFY(view.hoverLine()->text().startsWith(QStringLiteral("Hover")));
        view.setPresentationScale(1.6);
        QVERIFY(view.hoverLine()->text().trimmed().isEmpty());
        view.setPresentationScale(1.0);
        QVERIFY(view.hoverLine()->text().startsWith(QStringLiteral("Hover")));
    }

    void exportRendersRequestedSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("dpr");
        QTest::newRow("1600x1000") << QSize(1600, 1000) << 1.0;
        QTest::newRow("1600x1000 at 2x") << QSize(1600, 1000) << 2.0;
        QTest::newRow("800x500") << QSize(800, 500) << 1.0;
    }

    void exportRendersRequestedSize()
    {
        QFETCH(QSize, size);
        QFETCH(double, dpr);
        AttentionView view;  // never shown: the heatmap paints itself, no widget grab needed
        view.waitForResult();
        QCOMPARE(view.exportables().size(), 2);  // the heads, the sinusoidal table
        const QImage image = view.exportables().front()->renderImage(size, dpr);
        QCOMPARE(image.size(), size * dpr);
        const ImageStats stats = imageStats(image);
        QVERIFY2(stats.distinctColours > 100, qPrintable(QString::number(stats.distinctColours)));
        QVERIFY2(stats.nonWhite > 0.2 && stats.nonWhite < 0.9, qPrintable(QString::number(stats.nonWhite)));
    }

    void headlessExportCommand()
    {
        const QString bin = qEnvironmentVariable("FULLBAND_BIN");
        if (bin.isEmpty()) QSKIP("FULLBAND_BIN not set (run through ctest)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("a.png"));
        QProcess p;
        p.start(bin, { "export", "attention", "--set", "heads=8", "--out", out, "--size", "1200x800" });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage image(out);
        QCOMPARE(image.size(), QSize(1200, 800));
        QVERIFY(imageStats(image).distinctColours > 100);
    }

    void largeInputStaysResponsive()
    {
        AttentionView view;
        view.resize(1400, 900);
        view.show();
        view.waitForResult();
        QElapsedTimer t;
        t.start();
        set(view, "heads", "8");
        set(view, "n", "512");
        const qint64 computeMs = t.elapsed();
        QCOMPARE(view.grid()->data().images.front().width(), 512);
        t.restart();
        for (int i = 0; i < 5; ++i) (void)view.grid()->grab();  // a full paint each time
        const qint64 paintMs = t.elapsed() / 5;
        // Printed, not asserted: speed is bench_lab_latency's job (a busy machine is slow).
        qInfo("n = 512, 8 heads: compute + show %lld ms, one full paint %lld ms", computeMs, paintMs);
        QCOMPARE(int(view.grid()->data().images.size()), 8);
    }
};

QTEST_MAIN(TestAttentionView)
#include "tst_attention_view.moc"
