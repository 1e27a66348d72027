// The three cell labs of core's list (core/labs/residual_block_lab.h, mha_lab.h, glu_fusion_lab.h) and
// the cells inside the depth and attention labs: the chapter's values by default, the printed lines
// exactly as the chapter prints them, refused values named with their range, the JSON the command line
// prints, and the GLU lab's kept draws (a change of alpha draws nothing again).
#include "core/lab/lab.h"
#include "core/labs/attention_lab.h"
#include "core/labs/depth_gradients_lab.h"
#include "core/labs/glu_fusion_lab.h"
#include "core/labs/mha_lab.h"
#include "core/labs/printed.h"
#include "core/labs/residual_block_lab.h"
#include "core/attention/positional.h"
#include "support/fuzzy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <stdexcept>

using namespace fb;

namespace {

ParamValues with(const LabSpec &spec, ParamValues v, const std::string &key, const std::string &value)
{
    const std::string err = setFromText(spec, v, key, value);
    if (!err.empty()) qFatal("bad test value %s=%s: %s", key.c_str(), value.c_str(), err.c_str());
    return v;
}

QJsonObject jsonOf(const char *lab, const ParamValues &values)
{
    JsonWriter json;
    findLab(lab)->computeJson(values, RunControl(), json);
    return QJsonDocument::fromJson(QByteArray::fromStdString(json.str())).object();
}

} // namespace

class TestCellLabs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void inTheChaptersOrder()
    {
        std::vector<std::string> names;
        for (const LabDefinition &lab : labDefinitions()) names.push_back(lab.name());
        auto at = [&](const char *n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
        QCOMPARE(at("residual-block"), at("depth-gradients") + 1);                  // 218.1's cell
        QVERIFY(at("mha") > at("context-extension") && at("mha") < at("capacity"));  // 218.4.5
        QCOMPARE(at("glu-fusion"), at("capacity") + 1);                             // 218.6.2
        QVERIFY(at("glu-fusion") < at("training"));
        QVERIFY(!findLab("residual-block")->inWindow);
        QVERIFY(!findLab("mha")->inWindow);
        QVERIFY(findLab("glu-fusion")->inWindow);
    }

    void printedNumbers()
    {
        QCOMPARE(printedFixed(37.96060801, 4), std::string("37.9606"));
        QCOMPARE(printedFixed(-0.99999, 3), std::string("-1.000"));
        QCOMPARE(printedFixed(0.49268, 3), std::string("0.493"));
        QCOMPARE(printedScientific(0.0, 1), std::string("0.0e+00"));
        QCOMPARE(printedScientific(2.2596, 1), std::string("2.3e+00"));
        QCOMPARE(printedScientific(1.5e-7, 1), std::string("1.5e-07"));
    }

    // 218.1: "Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])",
    // "Input gradient norm: 37.9606".
    void residualBlock()
    {
        const LabSpec &spec = ResidualBlockLab::spec();
        QCOMPARE(QString::fromStdString(spec.keyList()),
                 QStringLiteral("channels, batch, height, width, seed, blocks, branch_gain"));
        const ResidualBlockParams p = ResidualBlockLab::params(spec.defaults());
        QCOMPARE(p.channels, 16);
        QCOMPARE(p.batch, 2);
        QCOMPARE(p.height, 8);
        QCOMPARE(p.width, 8);
        QCOMPARE(p.seed, std::uint64_t(0));
        QCOMPARE(p.blocks, 1);
        QCOMPARE(p.branchGain, 1.0);
        const ResidualBlockLabResult r = ResidualBlockLab().compute(spec.defaults(), RunControl());
        FB_FUZZY_COMPARE(r.cell.inputGradNorm, 37.9606, 5e-5 + 1e-5);  // see tst_residual_block_cell
        QCOMPARE(r.cell.inputGradNorm, residualBlockCell(ResidualBlockParams {}).inputGradNorm);
        QCOMPARE(int(r.printed.size()), 2);
        QCOMPARE(QString::fromStdString(r.printed[0]),
                 QStringLiteral("Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])"));
        QCOMPARE(QString::fromStdString(r.printed[1]), QStringLiteral("Input gradient norm: 37.9606"));

        const QJsonObject o = jsonOf("residual-block", spec.defaults());
        FB_FUZZY_COMPARE(o["input_grad_norm"].toDouble(), 37.9606, 6e-5);
        QCOMPARE(o["output_shape"].toArray(), (QJsonArray { 2, 16, 8, 8 }));
        QCOMPARE(o["channel_grad_norm"].toArray().size(), 16);
        QCOMPARE(o["block_grad_norm"].toArray().size(), 2);

        const ResidualBlockLabResult wide = ResidualBlockLab().compute(
            with(spec, with(spec, spec.defaults(), "channels", "4"), "blocks", "3"), RunControl());
        QCOMPARE(int(wide.cell.channelGradNorm.size()), 4);
        QCOMPARE(int(wide.cell.blockGradNorm.size()), 4);
        QCOMPARE(QString::fromStdString(wide.printed[0]),
                 QStringLiteral("Input shape: torch.Size([2, 4, 8, 8]), Output shape: torch.Size([2, 4, 8, 8])"));
    }

    // 218.4.5: "Positional encoding range: [-1.000, 1.000]", "Output norm: 1.7207".
    void mha()
    {
        const LabSpec &spec = MhaLab::spec();
        QCOMPARE(QString::fromStdString(spec.keyList()), QStringLiteral("d_model, heads, seq_len, batch, seed, positional"));
        const MhaCellParams p = MhaLab::params(spec.defaults());
        QCOMPARE(p.dModel, 64);
        QCOMPARE(p.heads, 4);
        QCOMPARE(p.seqLen, 12);
        QCOMPARE(p.batch, 3);
        QCOMPARE(p.seed, std::uint64_t(7));
        QVERIFY(p.positional);
        const MhaLabResult r = MhaLab().compute(spec.defaults(), RunControl());
        FB_FUZZY_COMPARE(r.cell.peMin, -1.000, 5e-4);
        FB_FUZZY_COMPARE(r.cell.peMax, 1.000, 5e-4);
        FB_FUZZY_COMPARE(r.cell.outputNorm, 1.7207, 5e-5 + 1e-6);  // see tst_mha_cell
        QCOMPARE(int(r.printed.size()), 3);
        QCOMPARE(QString::fromStdString(r.printed[0]),
                 QStringLiteral("Input: torch.Size([3, 12, 64]), Output: torch.Size([3, 12, 64])"));
        QCOMPARE(QString::fromStdString(r.printed[1]), QStringLiteral("Positional encoding range: [-1.000, 1.000]"));
        QCOMPARE(QString::fromStdString(r.printed[2]), QStringLiteral("Output norm: 1.7207"));

        const QJsonObject o = jsonOf("mha", spec.defaults());
        QCOMPARE(o["pe_max"].toDouble(), 1.0);
        FB_FUZZY_COMPARE(o["output_norm"].toDouble(), 1.7207, 5e-5 + 1e-6);
        QCOMPARE(o["weights"].toArray().size(), 4);
        QCOMPARE(o["pe"].toArray().size(), 12);
        QCOMPARE(o["pe"].toArray()[0].toArray().size(), 64);

        // Without the table the output changes; the printed range is still the table's.
        const MhaLabResult none = MhaLab().compute(with(spec, spec.defaults(), "positional", "none"), RunControl());
        QVERIFY(std::abs(none.cell.outputNorm - r.cell.outputNorm) > 1e-3);
        QCOMPARE(none.cell.peMax, 1.0);
    }

    // 218.6.2: "mean gate value 0.495, fraction of gates above 0.5: 0.493",
    // "with the h columns zeroed, sensitivity to h_t: 0.0e+00".
    void gluFusion()
    {
        const LabSpec &spec = GluFusionLab::spec();
        QCOMPARE(QString::fromStdString(spec.keyList()), QStringLiteral("d_model, d_emb, batch, seed, alpha, layers, bins"));
        const GluFusionParams p = GluFusionLab::params(spec.defaults());
        QCOMPARE(p.dModel, 512);
        QCOMPARE(p.dEmb, 512);
        QCOMPARE(p.batch, 4);
        QCOMPARE(p.seed, std::uint64_t(3));
        QCOMPARE(p.alpha, 1.0);
        QCOMPARE(p.layers, 32);
        GluFusionLab lab;
        const GluFusionLabResult r = lab.compute(spec.defaults(), RunControl());
        FB_FUZZY_COMPARE(r.fusion.meanGate, 0.495, 5e-4 + 1e-6);  // see tst_glu_fusion
        QCOMPARE(r.fusion.gatesOpen, 1009);
        QCOMPARE(r.gateCount, 2048);
        FB_FUZZY_COMPARE(r.fusion.fractionOpen, 0.493, 5e-4);
        QVERIFY(r.sensitivityZeroed == 0.0);
        QVERIFY(r.fusion.sensitivity > 1.0);
        QCOMPARE(int(r.printed.size()), 4);
        QCOMPARE(QString::fromStdString(r.printed[0]), QStringLiteral("token embedding (4, 512) and hidden state (4, 512)"));
        QCOMPARE(QString::fromStdString(r.printed[1]),
                 QStringLiteral("fused next input (4, 512), the shape the stack always consumed"));
        QCOMPARE(QString::fromStdString(r.printed[2]),
                 QStringLiteral("mean gate value 0.495, fraction of gates above 0.5: 0.493"));
        QCOMPARE(QString::fromStdString(r.printed[3]),
                 QStringLiteral("with the h columns zeroed, sensitivity to h_t: 0.0e+00"));
        // The chapter's overhead: 4d^2 and 8d^2 against 12 d^2 L and 24 d^2 L, 1/(3L) = 1.04% at L = 32.
        const double d = 512;
        QCOMPARE(r.fusion.overhead.fusionParams, 4 * d * d);
        QCOMPARE(r.fusion.overhead.fusionFlops, 8 * d * d);
        QCOMPARE(r.fusion.overhead.stackParams, 12 * d * d * 32);
        QCOMPARE(r.fusion.overhead.stackFlops, 24 * d * d * 32);
        FB_FUZZY_COMPARE(r.fusion.overhead.paramRatio, 1.0 / 96, 1e-15);
        FB_FUZZY_COMPARE(r.fusion.overhead.flopRatio, 1.0 / 96, 1e-15);
        QCOMPARE(int(r.fusion.curveAlpha.size()), GluFusionLab::kCurvePoints);
        QVERIFY(r.fusion.curveSensitivity.front() == 0.0);
        QCOMPARE(lab.draws(), 1);

        // Everything equals the core's, and alpha, layers and bins reuse the draws.
        ParamValues v = with(spec, with(spec, with(spec, spec.defaults(), "alpha", "0.25"), "layers", "8"), "bins", "10");
        const GluFusionLabResult q = lab.compute(v, RunControl());
        QCOMPARE(lab.draws(), 1);
        GluFusionParams cp = GluFusionLab::params(v);
        const GluFusionResult core = fb::gluFusion(cp);
        QCOMPARE(q.fusion.meanGate, core.meanGate);
        QCOMPARE(q.fusion.gatesOpen, core.gatesOpen);
        QCOMPARE(q.fusion.gateHistogram, core.gateHistogram);
        QCOMPARE(int(q.fusion.gateHistogram.size()), 10);
        QCOMPARE(q.fusion.sensitivity, core.sensitivity);
        QCOMPARE(q.fusion.curveSensitivity, core.curveSensitivity);
        QCOMPARE(q.fusion.overhead.stackParams, 12 * d * d * 8);
        // At alpha = 0 the fused input ignores h_t exactly.
        const GluFusionLabResult off = lab.compute(with(spec, v, "alpha", "0"), RunControl());
        QVERIFY(off.fusion.sensitivity == 0.0);
        QCOMPARE(lab.draws(), 1);
        // A width or the seed draws again.
        lab.compute(with(spec, v, "d_model", "64"), RunControl());
        QCOMPARE(lab.draws(), 2);
        lab.compute(with(spec, with(spec, v, "d_model", "64"), "seed", "4"), RunControl());
        QCOMPARE(lab.draws(), 3);

        const QJsonObject o = jsonOf("glu-fusion", spec.defaults());
        FB_FUZZY_COMPARE(o["mean_gate"].toDouble(), 0.495, 5e-4 + 1e-6);
        FB_FUZZY_COMPARE(o["fraction_open"].toDouble(), 0.493, 5e-4);
        QVERIFY(o["sensitivity_h_zeroed"].toDouble(-1) == 0.0);
        QCOMPARE(o["overhead"].toObject()["fusion_params"].toDouble(), 4 * d * d);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("lab");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("channels") << "residual-block" << "channels" << 33.0 << "channels must be an integer in [1, 32], got 33";
        QTest::newRow("branch gain") << "residual-block" << "branch_gain" << -0.5 << "branch_gain must be a number in [0, 2]";
        QTest::newRow("blocks") << "residual-block" << "blocks" << 9.0 << "blocks must be an integer in [1, 8]";
        QTest::newRow("odd d_model") << "mha" << "d_model" << 63.0 << "d_model must be an even integer in [2, 256]";
        QTest::newRow("heads") << "mha" << "heads" << 5.0 << "heads must be an integer from 1 to d_model that divides d_model (64)";
        QTest::newRow("seq_len") << "mha" << "seq_len" << 0.0 << "seq_len (tokens) must be an integer in [1, 256]";
        QTest::newRow("alpha") << "glu-fusion" << "alpha" << 1.5 << "alpha must be a number in [0, 1], got 1.5";
        QTest::newRow("d_model") << "glu-fusion" << "d_model" << 4096.0 << "d_model must be an integer in [1, 2048]";
        QTest::newRow("batch") << "glu-fusion" << "batch" << 0.0 << "batch (rows) must be an integer in [1, 64]";
    }
    void refusals()
    {
        QFETCH(QString, lab);
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, message);
        const LabDefinition *def = findLab(lab.toStdString());
        QVERIFY(def);
        ParamValues v = def->spec().defaults();
        v.numbers[key.toStdString()] = value;
        const QString err = QString::fromStdString(def->check(v));
        QVERIFY2(err.contains(message), qPrintable(err));
        JsonWriter json;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, def->computeJson(v, RunControl(), json));
    }

    // The depth lab's "block" study: the same cell, recomputed only when its own keys change.
    void depthLabCell()
    {
        const LabSpec &spec = DepthGradientsLab::spec();
        ParamValues v = with(spec, spec.defaults(), "depth", "10");
        DepthGradientsLab lab;
        const DepthGradientsLabResult r = lab.compute(v, RunControl());
        FB_FUZZY_COMPARE(r.block.cell.inputGradNorm, 37.9606, 6e-5);
        QCOMPARE(r.block.cell.inputGradNorm, residualBlockCell(ResidualBlockParams {}).inputGradNorm);
        QCOMPARE(lab.blockRuns(), 1);
        lab.compute(with(spec, v, "radius", "0.5"), RunControl());
        lab.compute(with(spec, with(spec, v, "radius", "0.5"), "depth", "12"), RunControl());
        QCOMPARE(lab.blockRuns(), 1);
        const DepthGradientsLabResult silent = lab.compute(with(spec, v, "branch_gain", "0"), RunControl());
        QCOMPARE(lab.blockRuns(), 2);
        QVERIFY(silent.block.cell.plainInputGradNorm == 0.0);
        QVERIFY(silent.block.cell.branchGradNorm == 0.0);
        QCOMPARE(silent.block.cell.inputGradNorm, silent.block.cell.identityGradNorm);
        const DepthGradientsLabResult deep = lab.compute(with(spec, v, "blocks", "4"), RunControl());
        QCOMPARE(int(deep.block.cell.blockGradNorm.size()), 5);
        // `fullband compute depth-gradients --set study=block` prints the cell.
        const QJsonObject o = jsonOf("depth-gradients", with(spec, spec.defaults(), "study", "block"));
        FB_FUZZY_COMPARE(o["input_grad_norm"].toDouble(), 37.9606, 6e-5);
        QCOMPARE(o["printed"].toArray()[1].toString(), QStringLiteral("Input gradient norm: 37.9606"));
    }

    // The attention lab: the sinusoidal table it adds, and the chapter's cell at its sizes and seed.
    void attentionLabCell()
    {
        const LabSpec &spec = AttentionLab::spec();
        AttentionLab lab;
        const AttentionLabResult r = lab.compute(spec.defaults(), RunControl());
        QVERIFY(r.pe);
        QCOMPARE(r.pe->rows(), Eigen::Index(12));
        QCOMPARE(r.pe->cols(), Eigen::Index(64));
        QVERIFY(*r.pe == sinusoidalTable(12, 64, 10000.0));
        QCOMPARE(int(r.peWavelength.size()), 32);
        FB_FUZZY_COMPARE(r.peWavelength[0], 2 * M_PI, 1e-12);
        FB_FUZZY_COMPARE(r.peWavelength[31], 2 * M_PI * std::pow(10000.0, 62.0 / 64), 1e-6);
        QVERIFY(r.cellRun && r.cell);
        FB_FUZZY_COMPARE(r.cell->peMin, -1.000, 5e-4);
        FB_FUZZY_COMPARE(r.cell->peMax, 1.000, 5e-4);
        FB_FUZZY_COMPARE(r.cell->outputNorm, 1.7207, 5e-5 + 1e-6);
        QCOMPARE(r.cell->outputNorm, mhaCell(MhaCellParams {}).outputNorm);

        const AttentionLabResult rope = lab.compute(with(spec, spec.defaults(), "positional", "rope"), RunControl());
        QVERIFY(!rope.pe && !rope.cellRun && !rope.cell);
        QVERIFY(QString::fromStdString(rope.cellNote).contains(QStringLiteral("sinusoidal")));
        const AttentionLabResult none = lab.compute(with(spec, spec.defaults(), "positional", "none"), RunControl());
        QVERIFY(!none.pe && none.cellRun);
        MhaCellParams plain;
        plain.positional = false;
        QCOMPARE(none.cell->outputNorm, mhaCell(plain).outputNorm);
        const AttentionLabResult wide = lab.compute(with(spec, spec.defaults(), "d_model", "512"), RunControl());
        QVERIFY(wide.pe && !wide.cellRun);
        QVERIFY(QString::fromStdString(wide.cellNote).contains(QStringLiteral("256")));
    }
};

QTEST_GUILESS_MAIN(TestCellLabs)
#include "tst_cell_labs.moc"
