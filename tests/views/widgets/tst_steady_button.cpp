// SteadyButton: as wide as the widest of its texts whatever it shows, in any font; and the training
// controls, whose start button it is, keep their lines when a run ends.
#include "views/training/training_control_bar.h"
#include "views/widgets/steady_button.h"

#include <QLayout>
#include <QTest>

using namespace fb;

class TestSteadyButton : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void asWideAsItsWidestText()
    {
        SteadyButton button({ QStringLiteral("Go"), QStringLiteral("Go on, then, once more") });
        QPushButton plain(QStringLiteral("Go on, then, once more"));
        for (double scale : { 1.0, 1.6 }) {
            QFont f = plain.font();
            f.setPointSizeF(f.pointSizeF() * scale);
            button.setFont(f);
            plain.setFont(f);
            QCOMPARE(button.sizeHint().width(), plain.sizeHint().width());
            button.setText(QStringLiteral("Go on, then, once more"));
            QCOMPARE(button.sizeHint().width(), plain.sizeHint().width());
            button.setText(QStringLiteral("Go"));
        }
    }

    // The start button is as wide as "Start again" from the first, so the controls keep their lines
    // when a run ends (at 1920 x 1080 in lecture mode the last buttons went to a second line, and
    // everything under them moved down), in the lecture's font too.
    void controlsKeepTheirLinesWhenARunEnds()
    {
        for (double scale : { 1.0, 1.6 }) {
            TrainingControlBar bar;
            QFont f = bar.font();
            f.setPointSizeF(f.pointSizeF() * scale);
            bar.setFont(f);
            QPushButton *start = bar.startButton();
            const QSize before = start->sizeHint();
            QVector<int> heights;
            for (int width = 500; width <= 1900; width += 20) heights.append(bar.layout()->heightForWidth(width));
            bar.setStartAgain(true);
            QCOMPARE(start->sizeHint(), before);
            for (int i = 0, width = 500; width <= 1900; width += 20, ++i)
                QCOMPARE(bar.layout()->heightForWidth(width), heights[i]);
            bar.setStartAgain(false);
            QCOMPARE(start->sizeHint(), before);
        }
    }

};

QTEST_MAIN(TestSteadyButton)
#include "tst_steady_button.moc"
