// Section 218.4.5's cell: multi-head attention over sinusoidal positions at the chapter's settings.
#include "core/cells/mha_cell.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace fb;

class TestMhaCell : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chapterCell()
    {
        const MhaCell c = mhaCell(MhaCellParams{});
        // Printed: "Positional encoding range: [-1.000, 1.000]": the half-unit of the third decimal.
        // The table's minimum is sin or cos near 3 pi / 2 at one of the 12 positions, -0.99999 in float32
        // and in double alike (PyTorch's float32 table differs by a few 1e-7: no allowance needed).
        FB_FUZZY_COMPARE(c.peMin, -1.000, 5e-4);
        FB_FUZZY_COMPARE(c.peMax, 1.000, 5e-4);
        QCOMPARE(c.peMax, 1.0);  // cos(0) in column 1 of position 0
        // Printed: "Output norm: 1.7207". Tolerance: the half-unit of the fourth decimal, 5e-5, plus
        // 1e-6 for float32 against double: PyTorch computes in float32 (1.72068846), FullBand in double on
        // the same float32 draws (1.72068853); about 400 float32 roundings of ~6e-8 relative feed each
        // output entry, a few 1e-7 relative at worst, and the mean over 36 rows averages them down.
        FB_FUZZY_COMPARE(c.outputNorm, 1.7207, 5e-5 + 1e-6);
        // PyTorch in float64 on the same float32 draws (mha.double(), x.double(), the table in float64):
        FB_FUZZY_COMPARE(c.outputNorm, 1.7206885274, 1e-9);
        const std::array<int, 3> shape{ 3, 12, 64 };
        QCOMPARE(c.outputShape, shape);
    }

    void figures()
    {
        const MhaCell c = mhaCell(MhaCellParams{});
        QCOMPARE(int(c.weights.size()), 4);
        QCOMPARE(int(c.headEntropy.size()), 4);
        QCOMPARE(int(c.pe.rows()), 12);
        QCOMPARE(int(c.pe.cols()), 64);
        QCOMPARE(int(c.positionNorm.size()), 12);
        for (const Eigen::MatrixXd &w : c.weights) {
            QCOMPARE(int(w.rows()), 12);
            QCOMPARE(int(w.cols()), 12);
            QVERIFY(w.minCoeff() > 0.0);
            for (int i = 0; i < 12; ++i) FB_FUZZY_COMPARE(w.row(i).sum(), 1.0, 1e-14);
        }
        for (double h : c.headEntropy) QVERIFY(h > 0.0 && h < std::log(12.0) + 1e-12);
        // PE(pos, 2i) = sin(pos 10000^(-2i/64)), PE(pos, 2i+1) = cos(...)
        FB_FUZZY_COMPARE(c.pe(5, 6), std::sin(5.0 * std::pow(10000.0, -6.0 / 64.0)), 1e-15);
        FB_FUZZY_COMPARE(c.pe(5, 7), std::cos(5.0 * std::pow(10000.0, -6.0 / 64.0)), 1e-15);
    }

    void withoutPositions()
    {
        MhaCellParams p;
        p.positional = false;
        const MhaCell c = mhaCell(p);
        QVERIFY(std::fabs(c.outputNorm - mhaCell(MhaCellParams{}).outputNorm) > 1e-3);
    }

    void validation()
    {
        QCOMPARE(checkMhaCellParams(MhaCellParams{}), std::string());
        MhaCellParams p;
        p.heads = 5;
        QVERIFY(checkMhaCellParams(p).find("heads") == 0);
        p = {};
        p.dModel = 63;
        QVERIFY(checkMhaCellParams(p).find("d_model") == 0);
        p = {};
        p.seqLen = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mhaCell(p));
    }
};

QTEST_APPLESS_MAIN(TestMhaCell)
#include "tst_mha_cell.moc"
