// The time a long run has left, estimated from its pace so far (core/run/time_left.h). The window's
// progress bars that show it are tested in tests/views/training/tst_time_left_shown.cpp.
#include "core/run/time_left.h"

#include <QTest>

using namespace fb;

class TestTimeLeft : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void estimates()
    {
        QCOMPARE(timeLeftText(0.0, 0, 100), std::string());   // nothing to go on yet
        QCOMPARE(timeLeftText(0.2, 10, 100), std::string());  // too early to say
        QCOMPARE(timeLeftText(10.0, 10, 100), std::string("about 2 min left"));
        QCOMPARE(timeLeftText(2.0, 50, 100), std::string("about 5 s left"));
        QCOMPARE(timeLeftText(30.0, 50, 100), std::string("about 30 s left"));
        QCOMPARE(timeLeftText(60.0, 1, 100), std::string("about 1 h 39 min left"));
        QCOMPARE(timeLeftText(10.0, 100, 100), std::string());  // done
    }
};

QTEST_APPLESS_MAIN(TestTimeLeft)
#include "tst_time_left.moc"
