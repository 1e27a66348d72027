// Section 218.1's cell: the residual block's input gradient norm and output shape at the chapter's
// settings, and what the depth lab shows with them (the shortcut's share of the gradient).
#include "core/cells/residual_block_cell.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace fb;

class TestResidualBlockCell : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chapterCell()
    {
        const ResidualBlockCell c = residualBlockCell(ResidualBlockParams{});
        // Printed: "Input gradient norm: 37.9606". Tolerance: the half-unit of the fourth decimal, 5e-5,
        // plus 1e-5 for float32 against double: PyTorch runs the block in float32 (37.9606094), FullBand
        // in double from the same float32 draws (37.9606080); each of the ~1,300 products summed per
        // entry adds ~6e-8 relative rounding in float32, so a few 1e-7 relative (1e-5 absolute) bounds
        // the difference with room (measured 1.4e-6).
        FB_FUZZY_COMPARE(c.inputGradNorm, 37.9606, 5e-5 + 1e-5);
        // PyTorch in float64 on the same float32 draws and weights (block.double(); x_req.double()):
        // 37.9606080114, what FullBand computes; the residue is double rounding.
        FB_FUZZY_COMPARE(c.inputGradNorm, 37.9606080114, 1e-9);
        const std::array<int, 4> shape{ 2, 16, 8, 8 };
        QCOMPARE(c.inputShape, shape);
        QCOMPARE(c.outputShape, shape);
    }

    void shortcutSplit()
    {
        const ResidualBlockCell c = residualBlockCell(ResidualBlockParams{});
        // dL/dx = dL/dS + (dF/dx)^T dL/dS: the squared norms add with twice the inner product.
        const double total2 = c.identityGradNorm * c.identityGradNorm + c.branchGradNorm * c.branchGradNorm
            + 2.0 * c.identityBranchCosine * c.identityGradNorm * c.branchGradNorm;
        FB_FUZZY_COMPARE(std::sqrt(total2), c.inputGradNorm, 1e-10 * c.inputGradNorm);
        // With L = y.sum(), dL/dS is the 0/1 mask of S > 0: its norm is sqrt(#positive entries).
        const double positives = c.identityGradNorm * c.identityGradNorm;
        FB_FUZZY_COMPARE(positives, std::round(positives), 1e-9);
        QVERIFY(positives > 0.0 && positives <= 2048.0);
        // Without the shortcut the same block passes back far less: PyTorch in float64 on the same
        // draws gives 15.7796357027.
        FB_FUZZY_COMPARE(c.plainInputGradNorm, 15.7796357027, 1e-9);
        QCOMPARE(int(c.channelGradNorm.size()), 16);
        double s = 0.0;
        for (double v : c.channelGradNorm) s += v * v;
        FB_FUZZY_COMPARE(std::sqrt(s), c.inputGradNorm, 1e-12 * c.inputGradNorm);
        QCOMPARE(int(c.blockGradNorm.size()), 2);
        FB_FUZZY_COMPARE(c.blockGradNorm.back(), std::sqrt(2048.0), 1e-12);  // dL/dy = 1 everywhere
    }

    void silentBranch()
    {
        // branchGain 0: F = 0 and dF/dx = 0. The residual block passes exactly dL/dS = relu'(x); the
        // plain block's output is relu(0) = 0 and its gradient exactly zero.
        ResidualBlockParams p;
        p.branchGain = 0.0;
        const ResidualBlockCell c = residualBlockCell(p);
        QCOMPARE(c.branchGradNorm, 0.0);
        QCOMPARE(c.inputGradNorm, c.identityGradNorm);
        QCOMPARE(c.plainInputGradNorm, 0.0);
    }

    void stackMatchesPyTorch()
    {
        // nn.Sequential of 3 blocks (4 channels), x of (3, 4, 5, 5), seed 9, bn2.weight = 0.5 (exact in
        // float32), in float64 on the float32 draws: 13.6490779146 and 7.2771234423 (plain).
        ResidualBlockParams p;
        p.channels = 4;
        p.batch = 3;
        p.height = p.width = 5;
        p.blocks = 3;
        p.branchGain = 0.5;
        p.seed = 9;
        const ResidualBlockCell c = residualBlockCell(p);
        FB_FUZZY_COMPARE(c.inputGradNorm, 13.6490779146, 1e-9);
        FB_FUZZY_COMPARE(c.plainInputGradNorm, 7.2771234423, 1e-9);
        QCOMPARE(int(c.blockGradNorm.size()), 4);
    }

    void validation()
    {
        QCOMPARE(checkResidualBlockParams(ResidualBlockParams{}), std::string());
        ResidualBlockParams p;
        p.channels = 0;
        QVERIFY(checkResidualBlockParams(p).find("channels") == 0);
        p = {};
        p.branchGain = std::nan("");
        QVERIFY(checkResidualBlockParams(p).find("branch_gain") == 0);
        p = {};
        p.blocks = 9;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, residualBlockCell(p));
    }
};

QTEST_APPLESS_MAIN(TestResidualBlockCell)
#include "tst_residual_block_cell.moc"
