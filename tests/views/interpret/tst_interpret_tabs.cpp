// The trained transformer taken apart in its lab (views/interpret/interpret_tabs.h), offscreen: a
// small induction run, then its heads switched off by a click on their maps, the pages of the
// anatomy, and the maps' layer chooser. Split from tst_transformer_view (the lab's runs and charts).
#include "views/compare/compare_chart.h"
#include "views/compare/compare_panel.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/offset_profile_chart.h"
#include "views/interpret/state_page.h"
#include "views/interpret/value_grid.h"
#include "views/training/transformer_loss_chart.h"
#include "views/training/transformer_view.h"
#include "views/widgets/exportable.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/readout_panel.h"
#include "support/small_transformer_view.h"

#include <QApplication>
#include <QComboBox>
#include <QTabBar>
#include <QJsonObject>
#include <QPushButton>
#include <QSet>
#include <QTest>

#include <cmath>
#include <memory>

using namespace fb;

using test::kPatienceMs;

class TestInterpretTabs : public QObject {
    Q_OBJECT
private:
    static std::unique_ptr<TransformerView> makeView(int steps) { return test::smallTransformerView(steps); }

private Q_SLOTS:
    // The finished run taken apart: a click on a head's map switches it off (its map turns grey) and its held-out loss
    // arrives from the worker (equal to the run's own table for that head alone), a click on its
    // cell switches it on again; mean-ablation; the logit lens, the offset profile by RoPE pair,
    // the phase change on the curves; the replay slider shows an earlier frame and returns to live.
    void takenApart()
    {
        auto view = makeView(60);
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        const TransformerResult &r = *view->result();
        InterpretTabs *tabs = view->interpret();
        HeadAblationPanel *panel = tabs->ablation();
        QCOMPARE(int(panel->grid()->data().values.size()), 1);  // 1 layer x 2 heads
        QCOMPARE(int(panel->grid()->data().values[0].size()), 2);
        // Export chart offers the pages too: the ablation grid, the logit lens and the offsets, each
        // drawn (not blank) at a slide's size
        QStringList titles;
        for (Exportable *e : view->exportables()) titles << e->exportTitle();
        QCOMPARE(titles.size(), 9);
        QCOMPARE(view->exportables()[7], static_cast<Exportable *>(tabs->states()->grid()));
        QCOMPARE(view->exportables()[8], static_cast<Exportable *>(view->comparePanel()->recallChart()));
        QCOMPARE(view->exportables()[2], static_cast<Exportable *>(panel->grid()));
        QCOMPARE(view->exportables()[3], static_cast<Exportable *>(tabs->lens()));
        QCOMPARE(view->exportables()[4], static_cast<Exportable *>(tabs->offsets()));
        QCOMPARE(view->compareChartIndex(), 5);
        for (int i = 2; i <= 4; ++i) {
            const QImage image = view->exportables()[i]->renderImage(QSize(800, 500));
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 5, qPrintable(titles[i]));
        }

        QTest::mouseClick(view->maps(), Qt::LeftButton, {}, view->maps()->panelRect(1).center().toPoint());
        QCOMPARE(int(panel->heads().size()), 1);
        QVERIFY(panel->heads()[0] == (HeadId { 0, 1 }));
        panel->waitForWorker();
        QVERIFY(!panel->busy());
        QVERIFY(panel->ablatedHeldout() == r.ablationHeldoutLoss[0][1]);
        QVERIFY(panel->ablatedRepeat() == r.ablationSecondHalfLoss[0][1]);
        QVERIFY(view->readouts()->value(QStringLiteral("ablated")).startsWith(QStringLiteral("L1H2: ")));
        QVERIFY(panel->grid()->data().marked[0][1]);
        QVERIFY(view->maps()->data().images[1].isGrayscale());  // the head off, grey on the maps
        QVERIFY(!view->maps()->data().images[0].isGrayscale());

        tabs->setCurrentWidget(panel);
        QTest::mouseClick(panel->grid(), Qt::LeftButton, {}, panel->grid()->cellRect(0, 1).center().toPoint());
        QVERIFY(panel->heads().empty());
        QCOMPARE(view->readouts()->value(QStringLiteral("ablated")), QStringLiteral("—"));
        QVERIFY(!view->maps()->data().images[1].isGrayscale());

        // the layer's FFN switched off with its toggle: the run's own figure for it, named in the readouts
        QPushButton *ffn = nullptr;
        for (QPushButton *b : panel->findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("FFN L1 off")) ffn = b;
        QVERIFY(ffn);
        ffn->click();
        QCOMPARE(panel->ffnsOff(), std::vector<int> { 0 });
        panel->waitForWorker();
        QVERIFY(panel->ablatedHeldout() == r.ablationFfnHeldoutLoss[0]);
        QVERIFY(view->readouts()->value(QStringLiteral("ablated")).startsWith(QStringLiteral("FFN L1: ")));
        QVERIFY(panel->figures()->text().contains(QStringLiteral("Each FFN alone off")));
        ffn->click();
        QVERIFY(panel->ffnsOff().empty());

        panel->setMeanAblation(true);  // the mean-ablation table is computed on the worker
        panel->toggleHead(0, 0);
        panel->waitForWorker();
        QVERIFY(std::isfinite(panel->ablatedHeldout()) && panel->ablatedHeldout() != r.ablationHeldoutLoss[0][0]);
        panel->restoreAll();
        QVERIFY(panel->heads().empty());

        // the attention sink per head: the run's own figures, and the overall share in the text
        QComboBox *measure = nullptr;
        for (QComboBox *box : panel->findChildren<QComboBox *>())
            if (box->findText(QStringLiteral("Sink share (weight on position 0)")) >= 0) measure = box;
        QVERIFY(measure);
        measure->setCurrentIndex(measure->findText(QStringLiteral("Sink share (weight on position 0)")));
        QCOMPARE(panel->grid()->data().values[0][1], r.sinkShareByHead[0][1]);
        QVERIFY(std::isfinite(r.sinkShare) && r.sinkShare >= 0.0 && r.sinkShare <= 1.0);
        QVERIFY(panel->figures()->text().contains(QStringLiteral("Attention sink")));

        QCOMPARE(int(tabs->lens()->data().values.size()), 1);
        QCOMPARE(int(tabs->lens()->data().values[0].size()), 11);  // T 12: 11 predictions
        QCOMPARE(tabs->offsetHead()->count(), 2);
        QCOMPARE(tabs->offsets()->pairCount(), 4);  // d_head 8: 4 RoPE pairs
        QCOMPARE(view->chart()->phaseChange(), r.phaseChangeStep);
    }

    // One layer's heads on the maps (a model of many heads on a slide): the chooser beside the tabs
    // lists the layers once the first frame arrives; the maps draw the chosen layer's heads alone,
    // larger, and a click on one switches that head off by its own layer and number. A slide keeps
    // the choice ("maps_layer"); a bad one is refused with its range and changes nothing.
    void mapsShowOneLayer()
    {
        auto view = makeView(40);
        ParamValues v = view->values();
        v.numbers["layers"] = 2;
        QVERIFY(view->setValues(v).isEmpty());
        InterpretTabs *tabs = view->interpret();
        QComboBox *layer = tabs->layerChoice();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QCOMPARE(layer->count(), 3);  // all, L1, L2
        QCOMPARE(layer->itemText(2), QStringLiteral("L2"));
        QVERIFY(layer->isVisible());
        QCOMPARE(layer->currentIndex(), 0);
        HeatmapGrid *maps = view->maps();
        QCOMPARE(maps->data().images.size(), 4);
        const double allWidth = maps->panelRect(0).width();
        QVERIFY(allWidth > 0);
        QVERIFY(maps->panelRect(3).isValid());

        layer->activated(2);  // as a click on "L2" sends it
        QCOMPARE(tabs->mapsLayer(), 2);
        QCOMPARE(maps->data().images.size(), 4);  // the data stay whole
        QVERIFY(!maps->panelRect(0).isValid() && !maps->panelRect(1).isValid());  // layer 1's: not drawn
        QVERIFY(maps->panelRect(2).isValid() && maps->panelRect(3).isValid());
        QVERIFY2(maps->panelRect(2).width() > allWidth * 1.2,
                 qPrintable(QStringLiteral("%1 against %2").arg(maps->panelRect(2).width()).arg(allWidth)));
        QVERIFY2(maps->layoutProblems().isEmpty(), qPrintable(maps->layoutProblems().join(QLatin1Char('\n'))));
        QCOMPARE(maps->cellAt(maps->panelRect(3).center()).panel, 3);
        // the CSV: layer 2's heads, by their own numbers
        const QString csv = maps->csv();
        QVERIFY(csv.contains(QStringLiteral("\n3,0,0,")) && csv.contains(QStringLiteral("\n4,0,0,")));
        QVERIFY(!csv.contains(QStringLiteral("\n1,0,0,")) && !csv.contains(QStringLiteral("\n2,0,0,")));

        HeadAblationPanel *panel = tabs->ablation();
        QTest::mouseClick(maps, Qt::LeftButton, {}, maps->panelRect(3).center().toPoint());
        QCOMPARE(int(panel->heads().size()), 1);
        QVERIFY(panel->heads()[0] == (HeadId { 1, 1 }));
        QVERIFY(maps->data().images[3].isGrayscale());
        panel->waitForWorker();
        panel->restoreAll();

        // the slide's extra keeps the layer, and gives it back
        QCOMPARE(view->extraState().value(QStringLiteral("maps_layer")).toInt(), 2);
        QJsonObject extra;
        extra.insert(QStringLiteral("maps_layer"), 1);
        QCOMPARE(view->setExtraState(extra), QString());
        QCOMPARE(tabs->mapsLayer(), 1);
        QCOMPARE(layer->currentIndex(), 1);
        QVERIFY(maps->panelRect(0).isValid() && !maps->panelRect(2).isValid());
        for (const QJsonValue &bad : { QJsonValue(9), QJsonValue(-1), QJsonValue(1.5), QJsonValue(QStringLiteral("2")) }) {
            QJsonObject b;
            b.insert(QStringLiteral("maps_layer"), bad);
            QCOMPARE(view->setExtraState(b),
                     QStringLiteral("extra.maps_layer must be a whole number from 0 (every layer) to 8"));
            QCOMPARE(tabs->mapsLayer(), 1);
        }
        // a layer the model lacks: every map, the choice kept for a deeper model
        QVERIFY(tabs->setMapsLayer(5));
        QVERIFY(maps->panelRect(0).isValid() && maps->panelRect(3).isValid());
        QCOMPARE(layer->currentIndex(), 0);
        QVERIFY(tabs->setMapsLayer(0));
        QVERIFY(!view->extraState().contains(QStringLiteral("maps_layer")));

        // New values of one layer: their untrained model's preview has the chooser's shape (not the
        // run's): every map drawn and exported, no chooser; the choice is kept for a deeper model
        QVERIFY(tabs->setMapsLayer(2));
        v.numbers["layers"] = 1;
        QVERIFY(view->setValues(v).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(maps->data().title.contains(QStringLiteral("before training")), kPatienceMs);
        QCOMPARE(maps->data().images.size(), 2);
        QCOMPARE(layer->count(), 2);  // all, L1
        QVERIFY(!layer->isVisibleTo(tabs));
        QVERIFY(maps->panelRect(0).isValid() && maps->panelRect(1).isValid());
        const QString previewCsv = maps->csv();
        QVERIFY(previewCsv.contains(QStringLiteral("\n1,0,0,")) && previewCsv.contains(QStringLiteral("\n2,0,0,")));
        QCOMPARE(tabs->mapsLayer(), 2);
        // two layers again: the preview shows layer 2's heads
        v.numbers["layers"] = 2;
        QVERIFY(view->setValues(v).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(maps->data().images.size() == 4, kPatienceMs);
        QVERIFY(!maps->panelRect(0).isValid() && maps->panelRect(2).isValid());
    }


    // Lecture mode (the window's font 1.6 times the usual): the tabs and their corner are set 1.15
    // times larger where the row's width holds them, smaller where it does not, down to 0.8 times
    // the usual size, and the tab bar never needs its scroll arrows, on any page.
    void lectureRowFitsItsWidth()
    {
        auto view = makeView(20);  // made before lecture mode, as the window's labs are
        const QFont appFont = QApplication::font();
        QFont lecture = appFont;
        lecture.setPointSizeF(appFont.pointSizeF() * 1.6);
        QApplication::setFont(lecture);  // then the scale, as LectureMode::enter sets them
        view->setPresentationScale(1.6);
        view->resize(1900, 700);  // the maps beside the parameters and the length table
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        InterpretTabs *tabs = view->interpret();
        QTRY_VERIFY(tabs->tabBar()->isVisible());
        const auto arrows = [tabs] {
            for (QWidget *w : tabs->tabBar()->findChildren<QWidget *>())
                if (w->objectName().startsWith(QLatin1String("Scroll")) && w->isVisible()) return true;
            return false;
        };
        QVERIFY2(std::abs(tabs->tabBar()->font().pointSizeF() - appFont.pointSizeF() * InterpretTabs::kLectureRowScale) < 0.05,
                 qPrintable(QStringLiteral("%1 pt at %2 px").arg(tabs->tabBar()->font().pointSizeF()).arg(tabs->width())));
        for (int width : { 1400, 1100, 1900 }) {
            view->resize(width, 700);
            for (int page = 0; page < tabs->count(); ++page) {
                tabs->setCurrentIndex(page);
                QTest::qWait(20);
                QVERIFY2(!arrows(), qPrintable(QStringLiteral("page %1 at %2 px").arg(page).arg(width)));
            }
            if (width == 1100) QVERIFY(tabs->tabBar()->font().pointSizeF() < appFont.pointSizeF() * InterpretTabs::kLectureRowScale - 0.05);
        }
        QVERIFY(std::abs(tabs->tabBar()->font().pointSizeF() - appFont.pointSizeF() * InterpretTabs::kLectureRowScale) < 0.05);
        // beside the parameters (F6): the charts at 1.3, the window's font still 1.6 times the usual;
        // the row's sizes are still the usual font's (not 1.6 / 1.3 of it)
        view->setPresentationScale(1.3);
        view->resize(1100, 700);
        QTest::qWait(20);
        QVERIFY(!arrows());
        QVERIFY2(tabs->tabBar()->font().pointSizeF() <= appFont.pointSizeF() * InterpretTabs::kLectureRowScale + 0.05,
                 qPrintable(QString::number(tabs->tabBar()->font().pointSizeF())));
        view.reset();
        QApplication::setFont(appFont);
    }
};

QTEST_MAIN(TestInterpretTabs)
#include "tst_interpret_tabs.moc"
