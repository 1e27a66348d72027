// Long runs in the window say how long they have left (item 9 of "Nothing lost, nothing hangs"):
// the training lab's progress bar and the depth lab's classifier line, estimated from the pace so
// far (core/run/time_left.h). The tests wait for the estimate to appear, never for a time.
#include "views/labs/depth_gradients_view.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_view.h"

#include <QProgressBar>
#include <QRegularExpression>
#include <QTest>

using namespace fb;

namespace {
constexpr int kPatienceMs = 120000;  // a passing test never waits this long
} // namespace

class TestTimeLeftShown : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trainingProgressBarSaysTimeLeft()
    {
        TrainingView view;
        ParamValues v = view.values();
        v.numbers["steps"] = 100000;  // minutes: the run is reset long before its end
        QCOMPARE(view.setValues(v), QString());
        view.resize(1200, 800);
        view.show();
        view.start();
        QTRY_VERIFY_WITH_TIMEOUT(view.progressBar()->format().contains(QLatin1String("left")), kPatienceMs);
        QVERIFY2(view.progressBar()->format().startsWith(QLatin1String("%v / %m steps (2 arms of 100000), about ")),
                 qPrintable(view.progressBar()->format()));
        view.pause();
        view.pull();
        QCOMPARE(view.progressBar()->format(), QStringLiteral("%v / %m steps (2 arms of 100000), paused"));  // no estimate while paused
        view.reset();
    }

    void classifierLineSaysTimeLeft()
    {
        DepthGradientsView view;
        view.resize(1200, 800);
        view.show();  // the lab trains while shown (or waited for)
        view.waitForResult();
        ParamValues v = view.values();
        v.numbers["steps"] = 2000;  // about the longest training the lab accepts: seconds
        v.numbers["batch"] = 32;
        QCOMPARE(view.setValues(v), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view.readouts()->value(QStringLiteral("training")).contains(QLatin1String("left")), kPatienceMs);
        QVERIFY2(view.readouts()->value(QStringLiteral("training")).contains(QRegularExpression(QStringLiteral("^LSTM \\d+/2000, about \\d+ (s|min) left…$"))),
                 qPrintable(view.readouts()->value(QStringLiteral("training"))));
    }
};

QTEST_MAIN(TestTimeLeftShown)
#include "tst_time_left_shown.moc"
