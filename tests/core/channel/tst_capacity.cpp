// Section 218.6.1 and Part A of the cell in 218.6.5: the two channels' widths.
#include "core/channel/capacity.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>

using namespace fb;

class TestCapacity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tokenTable_data()
    {
        // "V = 32,000   log2(V) = 14.97 bits" ... printed with 2 decimals.
        QTest::addColumn<double>("vocab");
        QTest::addColumn<double>("bits");
        QTest::newRow("32,000") << 32000.0 << 14.97;
        QTest::newRow("50,257") << 50257.0 << 15.62;
        QTest::newRow("128,000") << 128000.0 << 16.97;
        QTest::newRow("256,000") << 256000.0 << 17.97;
    }
    void tokenTable()
    {
        QFETCH(double, vocab);
        QFETCH(double, bits);
        FB_FUZZY_COMPARE(fb::tokenBits(vocab), bits, 0.005);
        bool found = false;
        for (const TokenRow &row : fb::tokenTable(chapterVocabs()))
            if (row.vocab == vocab) {
                FB_FUZZY_COMPARE(row.bits, bits, 0.005);
                found = true;
            }
        QVERIFY(found);
    }
    void latentTable_data()
    {
        // "d = 4096   capacity = 7084.9 bits   ratio to log2(128000) = 417.6x": 1 decimal each.
        QTest::addColumn<double>("d");
        QTest::addColumn<double>("bits");
        QTest::addColumn<double>("ratio");
        QTest::newRow("512") << 512.0 << 885.6 << 52.2;
        QTest::newRow("1024") << 1024.0 << 1771.2 << 104.4;
        QTest::newRow("2048") << 2048.0 << 3542.5 << 208.8;
        QTest::newRow("4096") << 4096.0 << 7084.9 << 417.6;
        QTest::newRow("8192") << 8192.0 << 14169.8 << 835.2;
    }
    void latentTable()
    {
        QFETCH(double, d);
        QFETCH(double, bits);
        QFETCH(double, ratio);
        const std::vector<LatentRow> rows = fb::latentTable(chapterDims(), 10.0, 128000);
        QCOMPARE(rows.size(), std::size_t(5));
        bool found = false;
        for (const LatentRow &row : rows)
            if (row.d == d) {
                FB_FUZZY_COMPARE(row.bits, bits, 0.05);
                FB_FUZZY_COMPARE(row.ratio, ratio, 0.05);
                found = true;
            }
        QVERIFY(found);
        FB_FUZZY_COMPARE(latentBits(d, 10.0), bits, 0.05);
    }
    void chapterDefaults()
    {
        // "for d = 4096 and a modest SNR = 10 gives 7,084.9 bits, about 417.6 times the 16.97 bit token ceiling"
        const CapacityResult r = capacity(CapacityParams {});
        FB_FUZZY_COMPARE(r.tokenBits, 16.97, 0.005);
        FB_FUZZY_COMPARE(r.latentBits, 7084.9, 0.05);
        FB_FUZZY_COMPARE(r.ratio, 417.6, 0.05);
        QCOMPARE(r.ratio, r.latentBits / r.tokenBits);
    }
    void closedForms()
    {
        // SNR = 1: half a bit per coordinate. Doubling V buys exactly one bit.
        QCOMPARE(latentBits(4096, 1.0), 2048.0);
        QCOMPARE(latentBits(4096, 0.0), 0.0);
        FB_FUZZY_COMPARE(tokenBits(256000) - tokenBits(128000), 1.0, 1e-14);
        QCOMPARE(tokenBits(2), 1.0);
        CapacityParams p;
        p.vocab = 1;  // below the lab's range: no channel, no division by zero
        QCOMPARE(capacity(p).ratio, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestCapacity)
#include "tst_capacity.moc"
