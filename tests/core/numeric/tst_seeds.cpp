// The seeds every random figure starts from, pinned bit for bit: mixSeed (the attention lab's
// streams, the Bayes floor's chunks), streamSeed (the depth labs) and Rng's own seeding all go
// through mix64, and the figures the other tests check were drawn from these exact values.
#include "core/depth/depth_random.h"
#include "core/numeric/rng.h"

#include <QTest>

#include <cstdint>

using namespace fb;

class TestSeeds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seedsArePinned_data()
    {
        QTest::addColumn<quint64>("a");
        QTest::addColumn<quint64>("b");
        QTest::addColumn<quint64>("mixed");   // mixSeed(a, b)
        QTest::addColumn<quint64>("stream");  // streamSeed(a, b)
        QTest::newRow("0, 0") << quint64(0) << quint64(0) << quint64(0x6db6ca64564daeaaULL) << quint64(0xe220a8397b1dcdafULL);
        QTest::newRow("42, 1") << quint64(42) << quint64(1) << quint64(0x417e481c9297d437ULL) << quint64(0x28efe333b266f103ULL);
        QTest::newRow("218, 4") << quint64(218) << quint64(4) << quint64(0x79a5c88755db03d1ULL) << quint64(0x19350c3f772ee0bfULL);
        QTest::newRow("2^32 - 1, 65535") << quint64(4294967295ULL) << quint64(65535) << quint64(0x10d3574d311a62aeULL)
                                         << quint64(0x9913861d7d1b9199ULL);
        QTest::newRow("2^64 - 1, 7") << quint64(0xffffffffffffffffULL) << quint64(7) << quint64(0x0c656fc9f7e47508ULL)
                                     << quint64(0x405da438a39e8064ULL);
    }
    void seedsArePinned()
    {
        QFETCH(quint64, a);
        QFETCH(quint64, b);
        QFETCH(quint64, mixed);
        QFETCH(quint64, stream);
        QCOMPARE(quint64(mixSeed(a, b)), mixed);
        QCOMPARE(quint64(streamSeed(a, b)), stream);
    }

    void rngStartsWhereItDid()
    {
        Rng zero(0);
        QCOMPARE(quint64(zero.next()), quint64(0x99ec5f36cb75f2b4ULL));
        QCOMPARE(quint64(zero.next()), quint64(0xbf6e1f784956452aULL));
        Rng chapter(218);
        QCOMPARE(quint64(chapter.next()), quint64(0x5c61c0059aad4102ULL));
        QCOMPARE(quint64(chapter.next()), quint64(0xe85c962c8c66218dULL));
    }
};

QTEST_GUILESS_MAIN(TestSeeds)
#include "tst_seeds.moc"
