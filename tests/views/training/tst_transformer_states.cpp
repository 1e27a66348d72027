// The transformer lab with a linear mixer (issue 30): a run of DeltaNet shows the States page (its
// tab appears with the first frame), whose grids are the linear heads' states of the newest frame;
// the replay's older frames say the states are kept for the newest only and the live end shows them
// again; a slide's "page": "states" keeps the page across a reset and a new run; a softmax run has
// no States tab; a bad page name gets one line and changes nothing.
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/replay_bar.h"
#include "views/interpret/state_page.h"
#include "views/training/transformer_view.h"
#include "views/widgets/heatmap_grid.h"

#include <QJsonObject>
#include <QSlider>
#include <QTabBar>
#include <QTest>

using namespace fb;

namespace {

constexpr int kPatienceMs = 120000;

std::unique_ptr<TransformerView> makeView(const char *mixer)
{
    auto view = std::make_unique<TransformerView>();
    ParamValues v = view->values();
    v.texts["task"] = "induction";
    v.texts["mixer"] = mixer;
    v.numbers["vocab"] = 8;
    v.numbers["seq_len"] = 40;
    v.numbers["batch"] = 8;
    v.numbers["layers"] = 2;
    v.numbers["heads"] = 2;
    v.numbers["d_model"] = 16;
    v.numbers["steps"] = 40;
    v.numbers["eval_every"] = 20;
    const QString err = view->setValues(v);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    view->resize(1024, 700);
    view->show();
    return view;
}

} // namespace

class TestTransformerStates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deltaNetRunShowsItsStates()
    {
        auto view = makeView("softmax,deltanet");
        InterpretTabs *tabs = view->interpret();
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(tabs->states())));
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(tabs->isTabVisible(tabs->indexOf(tabs->states())));
        StatePage *page = tabs->states();
        QVERIFY(page->hasStates());
        const HeatmapGridData &d = page->grid()->data();
        QCOMPARE(d.images.size(), 2);  // layer 2's two heads
        QCOMPARE(d.images.at(0).width(), 8);  // d_head 8
        QVERIFY(d.panelTitles.at(0).startsWith(QStringLiteral("L2 H1 · |S| ")));
        QCOMPARE(page->position()->maximum(), TransformerSnapshot::kStatePositions - 1);
        QVERIFY(d.title.contains(QLatin1String("position 39 of 39")));
        QVERIFY(d.title.contains(QStringLiteral("step %1").arg(view->lastFrameStep())));
        // an earlier frame of the replay: the states are the newest frame's only
        ReplayBar *replay = tabs->replay();
        QVERIFY(replay->framesKept() > 1);
        replay->slider()->setValue(0);
        QVERIFY(!page->hasStates());
        QVERIFY(page->grid()->data().title.contains(QLatin1String("newest frame only")));
        replay->slider()->setValue(replay->slider()->maximum());  // live again
        QVERIFY(page->hasStates());
        QVERIFY(page->grid()->data().title.contains(QStringLiteral("step %1").arg(view->lastFrameStep())));
    }

    // Frames that arrive while the replay holds an earlier one still bring their states: back at the
    // live end, and on the States page whatever the replay holds, the newest frame's are shown.
    void statesFollowTheRunWhileReplaying()
    {
        auto view = makeView("deltanet");
        ParamValues v = view->values();
        v.numbers["steps"] = 1500;  // stopped once a frame has come while held (all 1,500: 105 s under ASan)
        QVERIFY(view->setValues(v).isEmpty());
        InterpretTabs *tabs = view->interpret();
        ReplayBar *replay = tabs->replay();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(replay->framesKept() > 1, kPatienceMs);
        replay->slider()->setValue(0);  // held while the run goes on
        const int held = view->lastFrameStep();
        QTRY_VERIFY_WITH_TIMEOUT(view->lastFrameStep() > held || view->state() == TransformerView::State::Done,
                                 kPatienceMs);
        QVERIFY2(view->lastFrameStep() > held, "a frame came while the replay held an earlier one");
        QVERIFY(!replay->live());
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(!tabs->states()->hasStates());  // the held frame's were dropped
        replay->slider()->setValue(replay->slider()->maximum());
        const QString newest = QStringLiteral("step %1").arg(view->lastFrameStep());
        QVERIFY2(tabs->states()->grid()->data().title.endsWith(newest), qPrintable(tabs->states()->grid()->data().title));
        tabs->setCurrentWidget(tabs->states());
        QVERIFY(replay->live());
        replay->showStep(0);  // a click on the loss chart, a slide's replay: the page stays live
        QVERIFY(tabs->states()->hasStates());
        QVERIFY(tabs->states()->grid()->data().title.endsWith(newest));
    }

    void slidePageStaysAcrossRuns()
    {
        auto view = makeView("gated-deltanet");
        InterpretTabs *tabs = view->interpret();
        QVERIFY(view->setExtraState(QJsonObject { { QStringLiteral("page"), QStringLiteral("states") } }).isEmpty());
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(tabs->currentWidget() == tabs->states(), kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QCOMPARE(view->extraState().value(QStringLiteral("page")).toString(), QStringLiteral("states"));
        view->reset();
        view->start();  // the first frame of the new run brings the page back
        QTRY_VERIFY_WITH_TIMEOUT(tabs->currentWidget() == tabs->states() && tabs->states()->hasStates(), kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        const QString err = view->setExtraState(QJsonObject { { QStringLiteral("page"), QStringLiteral("state") } });
        QCOMPARE(err, QStringLiteral("extra.page must be one of attention, heads, logit-lens, offsets, states"));
        QCOMPARE(tabs->currentWidget(), tabs->states());
        QVERIFY(view->setExtraState(QJsonObject {}).isEmpty());  // no page: the maps
        QCOMPARE(tabs->pageName(), QStringLiteral("attention"));
        QVERIFY(view->extraState().isEmpty());
    }

    void softmaxRunHasNoStatesTab()
    {
        auto view = makeView("softmax");
        InterpretTabs *tabs = view->interpret();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(tabs->states())));
        QVERIFY(!tabs->states()->hasStates());
    }
};

QTEST_MAIN(TestTransformerStates)
#include "tst_transformer_states.moc"
