#include "views/labs/costs_formulas.h"

#include "views/widgets/number_text.h"

namespace fb {

namespace {


QString result(const QString &s)
{
    QString kept = s;
    kept.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));  // "0.33 MB" never breaks across lines
    kept.replace(QLatin1Char('/'), QStringLiteral("/\u2060"));   // nor "tokens/s" after its slash (a word joiner)
    return QStringLiteral("<b style='color:#0b4f8a'>%1</b>").arg(kept);
}

// One item: a bold name and its formula, then the substituted values on an indented line. Two
// paragraphs, not table rows: Qt lays a table out several times slower (a drag that rewraps a line
// measured the panel again at 2.7 ms as a table, 1.0 ms as paragraphs).
QString item(const QString &name, const QString &formula, const QString &values)
{
    return QStringLiteral("<p style='margin:0'><b>%1</b> %2</p>"
                          "<p style='margin-top:1px; margin-bottom:8px; margin-left:18px'>%3</p>")
        .arg(name, formula, values);
}

} // namespace

QString costsFormulaHtml(const CostsLabParams &p, const CostsLabFigures &f)
{
    const QString b = text::short4(p.bytesPerValue) + QStringLiteral(" B");
    QString html;
    html += item(QStringLiteral("KV cache per token"), QStringLiteral("= 2 × layers × KV heads × head dim × bytes"),
                 QStringLiteral("= 2 × %1 × %2 × %3 × %4 = %5 B ≈ %6")
                     .arg(text::short4(p.layers), text::short4(p.kvHeads), text::short4(p.headDim), b, text::grouped(f.gqa.bytesPerToken),
                          result(text::fixed(f.gqa.bytesPerToken / 1e6, 2) + QStringLiteral(" MB"))));
    html += item(QStringLiteral("KV cache of one sequence"), QStringLiteral("= per token × n"),
                 QStringLiteral("= %1 MB × %2 = %3 &nbsp;(MHA, %4 KV heads: %5; MQA: %6)")
                     .arg(text::fixed(f.gqa.bytesPerToken / 1e6, 2), text::grouped(p.context), result(text::bytes(f.gqa.bytes)),
                          text::short4(p.queryHeads), text::bytes(f.mha.bytes), text::bytes(f.mqa.bytes)));
    html += item(QStringLiteral("Parameters"), QStringLiteral("≈ 12 · L · d²"),
                 QStringLiteral("= 12 · %1 · %2² = %3").arg(text::short4(p.layers), text::grouped(p.dModel), result(text::count(f.denseParams))));
    html += item(QStringLiteral("Training compute"), QStringLiteral("C ≈ 6 · N · D"),
                 QStringLiteral("= 6 · %1 · %2 = %3 FLOPs")
                     .arg(text::count(p.params), text::count(p.trainTokens), result(text::scientific(f.trainFlops))));
    html += item(QStringLiteral("Attention vs dense"), QStringLiteral("per token per layer: 4·n·d vs 24·d²"),
                 QStringLiteral("= %1 vs %2 FLOPs; equal at n = 6d = %3")
                     .arg(text::scientific(f.attentionFlops), text::scientific(f.denseFlops), result(text::grouped(f.crossover))));
    html += item(QStringLiteral("Decode ceiling"), QStringLiteral("= bandwidth / bytes of active weights"),
                 QStringLiteral("= %1 TB/s / (%2 × %3 B = %4) = %5")
                     .arg(text::short4(p.bandwidth / 1e12), text::count(p.params), text::short4(p.weightBytes), text::bytes(f.weightBytes),
                          result(text::fixed(f.decodeTokensPerSecond, 1) + QStringLiteral(" tokens/s"))));
    return html;
}

} // namespace fb
