// The linear mixers' state page (views/interpret/state_page.h) and the frames it draws
// (TransformerRun::makeStates): one grid per position kept, a panel per linear head titled with the
// state's norm, one colour scale over every position and head; the slider keeps its position across
// live frames and follows the newest at its end; Play streams to the last position and stops; a model
// without a linear mixer, or a replayed frame whose states were dropped, gets one line saying why.
#include "views/interpret/replay_bar.h"
#include "views/interpret/state_page.h"
#include "views/training/transformer_run.h"
#include "views/widgets/heatmap_grid.h"

#include <QLabel>
#include <QToolButton>
#include <QSlider>
#include <QTest>

#include <cmath>

using namespace fb;

namespace {

// A snapshot of 2 layers x 2 heads, d_head 3, T 40: layer 0 softmax, layer 1 linear, whose head h's
// state after position t is (t + 1) (h + 1) times a fixed matrix (it grows, as linear attention's does).
TransformerSnapshot snapshot(int step = 100)
{
    TransformerSnapshot s;
    s.step = step;
    s.seqLen = 40;
    s.layers = 2;
    s.heads = 2;
    s.probeTokens.assign(40, 1);
    s.attention.assign(4, Eigen::MatrixXf::Zero(40, 40));
    const int kept = TransformerSnapshot::kStatePositions;
    for (int i = 0; i < kept; ++i) s.statePositions.push_back((i + 1) * 40 / kept - 1);
    s.states.resize(4);
    Eigen::MatrixXf base(3, 3);
    base << 1, -2, 0, 0.5f, 0, 0, 0, 0, -0.25f;
    for (int h = 0; h < 2; ++h)
        for (int i = 0; i < kept; ++i)
            s.states[std::size_t(2 + h)].push_back(base * float((s.statePositions[std::size_t(i)] + 1) * (h + 1)));
    return s;
}

} // namespace

class TestStatePage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesColourTheLinearHeadsOnOneScale()
    {
        const TransformerSnapshot s = snapshot();
        const auto states = TransformerRun::makeStates(s);
        QVERIFY(states);
        QCOMPARE(int(states->grids.size()), TransformerSnapshot::kStatePositions);
        QCOMPARE(states->positions.back(), 39);
        const HeatmapGridData &last = states->grids.back();
        QCOMPARE(last.images.size(), 2);  // the linear layer's two heads, not the softmax layer's
        QCOMPARE(last.panelTitles.at(0), QStringLiteral("L2 H1 · |S| %1").arg(40.0 * std::sqrt(5.3125), 0, 'f', 2));
        QCOMPARE(last.maxValue, 2.0 * 40 * 2);  // the largest |entry| of any position and head
        QCOMPARE(states->grids.front().maxValue, last.maxValue);
        QCOMPARE((*last.values)[1](0, 1), 160.0);
        QVERIFY(last.title.contains(QLatin1String("position 39 of 39")));
        // the frame carries them; its snapshot copy (a model file's replay) does not
        const auto frame = TransformerRun::makeFrame(s, TransformerTask::Induction);
        QVERIFY(frame->states);
        QVERIFY(frame->snapshot->states.empty());
        TransformerSnapshot softmax = s;
        softmax.states.clear();
        softmax.statePositions.clear();
        QVERIFY(!TransformerRun::makeStates(softmax));
    }

    void sliderKeepsItsPositionAndFollowsAtTheEnd()
    {
        StatePage page;
        page.resize(700, 500);
        page.setStates(TransformerRun::makeStates(snapshot(100)));
        QSlider *slider = page.position();
        QCOMPARE(slider->maximum(), TransformerSnapshot::kStatePositions - 1);
        QCOMPARE(slider->value(), slider->maximum());  // the whole sequence read
        slider->setValue(5);
        QCOMPARE(page.grid()->data().title, TransformerRun::makeStates(snapshot(100))->grids[5].title);
        page.setStates(TransformerRun::makeStates(snapshot(200)));  // a newer frame: the same position
        QCOMPARE(slider->value(), 5);
        QVERIFY(page.grid()->data().title.contains(QLatin1String("step 200")));
        slider->setValue(slider->maximum());
        page.setStates(TransformerRun::makeStates(snapshot(300)));
        QCOMPARE(slider->value(), slider->maximum());
        QVERIFY(page.grid()->data().title.contains(QLatin1String("step 300")));
    }

    void playStreamsToTheEndAndStops()
    {
        StatePage page;
        page.setStates(TransformerRun::makeStates(snapshot()));
        QVERIFY(page.playButton()->isEnabled());
        page.play();  // at the end: from the start again
        QVERIFY(page.playing());
        QCOMPARE(page.position()->value(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!page.playing(), 60000);
        QCOMPARE(page.position()->value(), page.position()->maximum());
        QCOMPARE(page.playButton()->text(), QStringLiteral("Play"));
    }

    void noStatesSaysWhy()
    {
        StatePage page;
        page.setStates(nullptr);
        QVERIFY(!page.hasStates());
        QVERIFY(!page.playButton()->isEnabled());
        QVERIFY(page.grid()->data().title.contains(QLatin1String("No linear mixer")));
        page.setStates(nullptr, QStringLiteral("kept for the newest frame only"));
        QCOMPARE(page.grid()->data().title, QStringLiteral("kept for the newest frame only"));
    }

    // The replay keeps frames without their states (memory: one frame's states are as large as its
    // maps), marked so that the lab keeps showing the newest frame's.
    void replayDropsStates()
    {
        const auto full = TransformerRun::makeFrame(snapshot(10), TransformerTask::Induction);
        const auto dropped = TransformerRun::withoutStates(full);
        QVERIFY(full->states && !dropped->states && dropped->statesDropped);
        QCOMPARE(dropped->step, 10);
        QCOMPARE(dropped->maps.images.size(), full->maps.images.size());
        TransformerSnapshot none = snapshot(11);
        none.states.clear();
        none.statePositions.clear();
        const auto plain = TransformerRun::makeFrame(none, TransformerTask::Induction);
        QCOMPARE(TransformerRun::withoutStates(plain), plain);  // nothing to drop: the frame itself
        QVERIFY(!plain->statesDropped);
        ReplayBar bar;
        bar.record(TransformerRun::makeFrame(snapshot(10), TransformerTask::Induction));
        QCOMPARE(bar.framesKept(), 1);
        QVERIFY(!bar.frame(0)->states);
        QVERIFY(bar.frame(0)->statesDropped);
    }
};

QTEST_MAIN(TestStatePage)
#include "tst_state_page.moc"
