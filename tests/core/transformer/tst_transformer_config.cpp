// The length table's rows before a run measures them (transformerLengthRows, transformer_report.h):
// RoPE and its three rescalings, one row for the other schemes, none for the tasks of one sequence
// length, at T, 2T and 4T up to the longest sequence attention accepts; no losses yet.
// TransformerEvaluator::lengthTable fills these very rows (tst_transformer_trainer checks the filled
// table's labels and lengths).
#include "core/transformer/transformer_report.h"

#include <QTest>

using namespace fb;

class TestTransformerConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lengthRowsBeforeARun()
    {
        TransformerConfig c;  // the induction defaults: RoPE, T 32
        std::vector<LengthRow> rows = transformerLengthRows(c);
        QCOMPARE(rows.size(), std::size_t(4));
        const char *labels[] = { "rope", "rope+pi", "rope+ntk", "rope+yarn" };
        const ScalingMethod methods[] = { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN };
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].label, std::string(labels[i]));
            QVERIFY(rows[i].scaling == methods[i]);
            QCOMPARE(rows[i].lengths, std::vector<int>({ 32, 64, 128 }));
            QVERIFY(rows[i].loss.empty() && rows[i].repeatLoss.empty());
        }

        c.pos = PositionalScheme::Sinusoidal;
        rows = transformerLengthRows(c);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0].label, std::string("sinusoidal"));

        c.seqLen = 1024;  // 4T would pass the longest sequence attention accepts
        rows = transformerLengthRows(c);
        QCOMPARE(rows[0].lengths, std::vector<int>({ 1024, 2048 }));
        QVERIFY(rows[0].lengths.back() <= kMaxTransformerTokens);

        c.task = TransformerTask::Mqar;  // one sequence length
        QVERIFY(transformerLengthRows(c).empty());
    }
};

QTEST_APPLESS_MAIN(TestTransformerConfig)
#include "tst_transformer_config.moc"
