// Timings of the three chapter cells (218.1, 218.4.5, 218.6.2) at the chapter's sizes and at the
// largest their check functions accept, and of the GLU lab's alpha slider on a kept GluFusion.
// Run: build/tests/bench_cells (add -iterations N or -minimumvalue for steadier numbers).
#include "core/cells/glu_fusion.h"
#include "core/cells/mha_cell.h"
#include "core/cells/residual_block_cell.h"
#include "core/torch/torch_generator.h"

#include <QTest>

using namespace fb;

class BenchCells : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void residualBlock_data()
    {
        QTest::addColumn<int>("C");
        QTest::addColumn<int>("N");
        QTest::addColumn<int>("HW");
        QTest::addColumn<int>("blocks");
        QTest::newRow("chapter: 16 channels, 2 x 8 x 8, 1 block") << 16 << 2 << 8 << 1;
        QTest::newRow("largest: 32 channels, 8 x 16 x 16, 8 blocks") << 32 << 8 << 16 << 8;
    }
    void residualBlock()
    {
        QFETCH(int, C);
        QFETCH(int, N);
        QFETCH(int, HW);
        QFETCH(int, blocks);
        ResidualBlockParams p;
        p.channels = C;
        p.batch = N;
        p.height = p.width = HW;
        p.blocks = blocks;
        double sink = 0.0;
        QBENCHMARK { sink += residualBlockCell(p).inputGradNorm; }
        QVERIFY(sink > 0.0);
    }
    void mha_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("B");
        QTest::newRow("chapter: d_model 64, n 12, batch 3") << 64 << 12 << 3;
        QTest::newRow("largest: d_model 256, n 256, batch 8") << 256 << 256 << 8;
    }
    void mha()
    {
        QFETCH(int, d);
        QFETCH(int, n);
        QFETCH(int, B);
        MhaCellParams p;
        p.dModel = d;
        p.seqLen = n;
        p.batch = B;
        double sink = 0.0;
        QBENCHMARK { sink += mhaCell(p).outputNorm; }
        QVERIFY(sink > 0.0);
    }
    void gluFusion_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("B");
        QTest::newRow("chapter: 512 / 512, batch 4") << 512 << 4;
        QTest::newRow("d 1024, batch 64") << 1024 << 64;
        QTest::newRow("largest: 2048 / 2048, batch 64") << 2048 << 64;
    }
    void gluFusion()
    {
        QFETCH(int, d);
        QFETCH(int, B);
        GluFusionParams p;
        p.dModel = p.dEmb = d;
        p.batch = B;
        double sink = 0.0;
        QBENCHMARK { sink += fb::gluFusion(p).meanGate; }
        QVERIFY(sink > 0.0);
    }
    // The alpha slider: a kept GluFusion, one at() per value.
    void gluAlphaSlider_data() { gluFusion_data(); }
    void gluAlphaSlider()
    {
        QFETCH(int, d);
        QFETCH(int, B);
        GluFusionParams p;
        p.dModel = p.dEmb = d;
        p.batch = B;
        const GluFusion fusion(p);
        double sink = 0.0;
        int k = 0;
        QBENCHMARK
        {
            p.alpha = double(k++ % 101) / 100.0;
            sink += fusion.at(p).meanGate;
        }
        QVERIFY(sink > 0.0);
    }
    // The float32 draws alone: torch.randn of the largest GLU's two weight matrices (8.4M each).
    void randnFloat()
    {
        TorchGenerator g(0);
        float sink = 0.0f;
        QBENCHMARK { sink += g.randnFloat(2048 * 4096).back(); }
        QVERIFY(sink == sink);
    }
};

QTEST_APPLESS_MAIN(BenchCells)
#include "bench_cells.moc"
