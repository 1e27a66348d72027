#include "views/labs/attention_view.h"

#include "core/attention/toeplitz.h"
#include "views/widgets/heatmap_buffers.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/number_text.h"
#include "views/labs/positional_table.h"
#include "views/widgets/readout_panel.h"

#include <QCheckBox>
#include <QJsonObject>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace fb {

namespace {

// The log colour scale spans this many decades below the largest weight.
constexpr double kLogDecades = 4.0;

QString figureTitle(const AttentionParams &p, int n)
{
    QString t = p.scaled ? QStringLiteral("softmax(QKᵀ/√d_k)") : QStringLiteral("softmax(QKᵀ), unscaled");
    t += QStringLiteral(" per head · n = %1 · d_k = %2 · %3 positions")
             .arg(n).arg(p.dModel / std::max(p.heads, 1))
             .arg(QString::fromStdString(positionalSchemeName(p.positional)));
    if (p.causal) t += QStringLiteral(" · causal");
    return t;
}

// On the worker, after the lab's compute: the heatmap images, in memory of frames no longer shown.
// Colours the maps on the scale the view shows (log when log is true): both scales for every result
// was half the time of a frame at n = 512.
AttentionFrame prepareFrame(AttentionLabResult &&result, HeatmapBuffers &buffers, bool log)
{
    AttentionFrame frame;
    frame.result = std::move(result);
    const AttentionLabResult &r = frame.result;
    const AttentionParams &p = r.params;
    HeatmapGridData &g = frame.grid;
    g.title = figureTitle(p, r.n);
    g.maxValue = r.maxWeight;
    g.logFloor = r.maxWeight * std::pow(10.0, -kLogDecades);
    g.masked = p.causal;
    g.xTitle = QObject::tr("key position");
    g.yTitle = QObject::tr("query position");
    g.valueTitle = QObject::tr("weight");  // the title says whose: softmax(QKᵀ/√d_k)
    g.tokenTicks = p.content == AttentionContent::Sentence;
    for (const std::string &t : r.tokens) g.tokens << QString::fromStdString(t);
    auto colour = [&](const Eigen::MatrixXd &w, double logFloor) {
        QImage image = buffers.takeImage(QSize(int(w.cols()), int(w.rows())));
        HeatmapGrid::colourInto(image, w, r.maxWeight, p.causal, logFloor);
        buffers.keepImage(image);
        return image;
    };
    for (int h = 0; h < r.heads; ++h) {
        const Eigen::MatrixXd &w = (*r.weights)[std::size_t(h)];
        if (log) g.logImages << colour(w, g.logFloor);
        else g.images << colour(w, 0.0);
        g.panelTitles << QObject::tr("head %1 · entropy %2 nats").arg(h + 1).arg(r.entropy[std::size_t(h)], 0, 'f', 2);
        g.shortTitles << QObject::tr("head %1 · %2 nats").arg(h + 1).arg(r.entropy[std::size_t(h)], 0, 'f', 2);
    }
    g.values = r.weights;

    if (r.pe) {
        PositionalTableData &t = frame.table;
        t.values = r.pe;
        t.image = PositionalTable::colourImage(*r.pe);
        t.wavelength = r.peWavelength;
        t.base = p.base;
        t.title = QObject::tr("Sinusoidal table PE(pos, i) added to the embeddings · n = %1 × d_model = %2 · b = %3")
                      .arg(r.n).arg(p.dModel).arg(QString::fromStdString(formatNumber(p.base)));
        t.shortTitle = QObject::tr("Sinusoidal table PE(pos, i) · b = %1").arg(QString::fromStdString(formatNumber(p.base)));
    }

    if (r.cellRun) {
        const MhaCell &cell = *r.cell;
        HeatmapGridData &c = frame.cellGrid;
        double top = 0.0;
        for (const Eigen::MatrixXd &w : cell.weights) top = std::max(top, w.maxCoeff());
        c.title = QObject::tr("The chapter's cell (218.4.5): softmax(QKᵀ/√d_k) of batch item 0 · n = %1 · d_k = %2 · %3")
                      .arg(r.n).arg(p.dModel / std::max(p.heads, 1))
                      .arg(p.positional == PositionalScheme::Sinusoidal ? QObject::tr("x + PE") : QObject::tr("no positions"));
        c.maxValue = top;
        c.logFloor = top * std::pow(10.0, -kLogDecades);
        c.xTitle = g.xTitle;
        c.yTitle = g.yTitle;
        c.valueTitle = g.valueTitle;
        for (std::size_t h = 0; h < cell.weights.size(); ++h) {
            if (log) c.logImages << HeatmapGrid::colourImage(cell.weights[h], top, false, c.logFloor);
            else c.images << HeatmapGrid::colourImage(cell.weights[h], top, false);
            c.panelTitles << QObject::tr("cell head %1 · entropy %2 nats").arg(h + 1).arg(cell.headEntropy[h], 0, 'f', 2);
            c.shortTitles << QObject::tr("head %1 · %2 nats").arg(h + 1).arg(cell.headEntropy[h], 0, 'f', 2);
        }
        // The cell's weights, kept alive by the cell they belong to.
        c.values = std::shared_ptr<const std::vector<Eigen::MatrixXd>>(r.cell, &r.cell->weights);
    }
    return frame;
}

// "1.23, 2.34, 3.45, 4.56" with a line break after every fourth value.
QString entropyList(const std::vector<double> &entropy)
{
    QString s;
    for (std::size_t h = 0; h < entropy.size(); ++h) {
        if (h > 0) s += (h % 4 == 0) ? QStringLiteral(",\n") : QStringLiteral(", ");
        s += QString::number(entropy[h], 'f', 3);
    }
    return s;
}

} // namespace

AttentionView::AttentionView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    grid_ = new HeatmapGrid;
    grid_->setExportTitle(tr("Attention weights per head"));
    hoverLine_ = new QLabel(tr("Hover a cell to read its query, key and weight."));
    hoverLine_->setObjectName(QStringLiteral("hoverLine"));
    hoverLine_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hoverLine_->setStyleSheet(QStringLiteral("color:#333; padding:2px 6px;"));
    hoverPointSize_ = hoverLine_->font().pointSizeF() * 1.1;
    QFont f = hoverLine_->font();
    f.setPointSizeF(hoverPointSize_);
    hoverLine_->setFont(f);
    table_ = new PositionalTable;
    table_->setToolTip(tr("218.4.3: PE(pos, 2i) = sin(pos · b^(−2i/d)), PE(pos, 2i+1) = cos(pos · b^(−2i/d)); "
                          "pair i turns once every 2π · b^(2i/d) tokens"));
    addChart(grid_, grid_, 3);
    chartArea()->addWidget(hoverLine_);
    addChart(table_, table_, 1);
    table_->setVisible(false);
    // On a projector the hint for the mouse is noise: the line stays, empty, until a cell is hovered.
    auto hover = [this](const QString &text) {
        hoverLine_->setText(!text.isEmpty() ? text : presenting_ ? QStringLiteral(" ") : tr("Hover a cell to read its query, key and weight."));
    };
    connect(grid_, &HeatmapGrid::hoverTextChanged, this, hover);
    connect(table_, &PositionalTable::hoverTextChanged, this, hover);

    logScale_ = new QCheckBox(tr("Log colour scale (4 decades)"));
    logScale_->setToolTip(tr("Shows the small weights too: long sequences and causal masks put most weights "
                             "far below the largest one."));
    // The worker colours the maps on the scale asked for when it starts a result; a toggle asks
    // for them again on the other scale (the grid keeps showing the old ones until then).
    auto logWanted = std::make_shared<std::atomic<bool>>(false);
    connect(logScale_, &QCheckBox::toggled, this, [this, logWanted](bool on) {
        logWanted->store(on);
        grid_->setLogScale(on);
        recompute();
    });
    sideArea()->addWidget(logScale_);
    cellHeads_ = new QCheckBox(tr("The chapter's cell's heads"));
    cellHeads_->setToolTip(tr("The heatmaps show the heads of the chapter's multi-head attention cell at these n, "
                              "d_model, heads and seed: x = torch.randn(3, n, d_model) with its own projections, "
                              "plus the sinusoidal table or nothing. RoPE is not the cell's."));
    connect(cellHeads_, &QCheckBox::toggled, this, &AttentionView::showGrid);
    sideArea()->addWidget(cellHeads_);

    // The buffers belong to the computation (not to this view); only the worker uses them.
    beginComputing([buffers = std::make_shared<HeatmapBuffers>(), logWanted](AttentionLabResult &&r) {
        return prepareFrame(std::move(r), *buffers, logWanted->load());
    });
}

void AttentionView::setPresentationScale(double scale)
{
    LabView::setPresentationScale(scale);
    grid_->setFontScale(scale);
    table_->setFontScale(scale);
    // Readable from the back of a room in lecture mode, like the charts.
    QFont f = hoverLine_->font();
    f.setPointSizeF(hoverPointSize_ * scale);
    hoverLine_->setFont(f);
    const bool was = presenting_;
    presenting_ = scale > 1.0;
    if (presenting_ != was && (hoverLine_->text().startsWith(QLatin1String("Hover")) || hoverLine_->text() == QLatin1String(" ")))
        hoverLine_->setText(presenting_ ? QStringLiteral(" ") : tr("Hover a cell to read its query, key and weight."));
}

QJsonObject AttentionView::extraState() const
{
    QJsonObject state;
    if (logScale_->isChecked()) state.insert(QStringLiteral("logColourScale"), true);
    if (cellHeads_->isChecked()) state.insert(QStringLiteral("cellHeads"), true);
    return state;
}

QString AttentionView::setExtraState(const QJsonObject &state)
{
    const QJsonValue log = state.value(QStringLiteral("logColourScale"));
    if (!log.isUndefined() && !log.isBool()) return tr("extra.logColourScale must be true or false");
    const QJsonValue cell = state.value(QStringLiteral("cellHeads"));
    if (!cell.isUndefined() && !cell.isBool()) return tr("extra.cellHeads must be true or false");
    logScale_->setChecked(log.toBool(false));
    cellHeads_->setChecked(cell.toBool(false));
    return {};
}

void AttentionView::showGrid()
{
    const bool cell = cellHeads_->isChecked() && !(cellGrid_.images.isEmpty() && cellGrid_.logImages.isEmpty());
    // The hover text names words when the content is a sentence, and masked keys when causal (the
    // cell has neither: random x, no mask).
    const QStringList tokens = cell ? QStringList() : tokens_;
    const bool causal = !cell && causal_;
    grid_->setHoverFormatter([tokens, causal, cell](int head, int query, int key, double weight) {
        auto pos = [&](int i) {
            return i < tokens.size() ? QStringLiteral("%1 “%2”").arg(i).arg(tokens[i]) : QString::number(i);
        };
        QString w = (causal && key > query) ? tr("masked (key after query)")
                                            : QStringLiteral("%1").arg(weight, 0, 'f', 6);
        return tr("%1head %2 · query %3 · key %4 · weight %5")
            .arg(cell ? tr("cell ") : QString()).arg(head + 1).arg(pos(query), pos(key), w);
    });
    grid_->setData(cell ? cellGrid_ : labGrid_);
}

void AttentionView::draw(const AttentionFrame &frame)
{
    const AttentionLabResult &r = frame.result;
    const bool sentence = r.params.content == AttentionContent::Sentence;
    const bool causal = r.params.causal;
    tokens_ = sentence ? frame.grid.tokens : QStringList();
    causal_ = causal;
    labGrid_ = frame.grid;
    cellGrid_ = frame.cellGrid;
    cellHeads_->setEnabled(r.cellRun);
    showGrid();
    table_->setData(frame.table);
    table_->setVisible(bool(r.pe));

    readouts()->setRow(QStringLiteral("entropy"), tr("Entropy per head (nats)"), entropyList(r.entropy),
                       tr("Mean over queries of −Σ w ln w for each head"));
    readouts()->setRow(QStringLiteral("mean"), tr("Mean entropy over heads"),
                       QStringLiteral("%1 nats").arg(r.meanEntropy, 0, 'f', 3));
    QString uniform = QStringLiteral("ln %1 = %2 nats").arg(r.n).arg(r.uniformEntropy, 0, 'f', 3);
    if (causal) uniform += tr("\ncausal: %1 nats").arg(r.causalUniformEntropy, 0, 'f', 3);
    readouts()->setRow(QStringLiteral("uniform"), tr("Uniform attention"), uniform,
                       tr("The entropy of attending equally to every key, the largest possible. Under the "
                          "causal mask query i sees i + 1 keys: the mean of ln(i + 1) over the queries."));
    const double reference = causal ? r.causalUniformEntropy : r.uniformEntropy;
    readouts()->setRow(QStringLiteral("ratio"), tr("Mean / uniform"),
                       reference > 0 ? QString::number(r.meanOverUniform, 'f', 3) : QStringLiteral("—"),
                       tr("1 means no preference among keys; near 0 means each query looks at one key"));
    const bool toeplitz = r.toeplitzHolds;
    readouts()->setRow(QStringLiteral("toeplitz"), tr("Pre-softmax logits Toeplitz?"),
                       tr("%1, max deviation %2\n(relative %3)")
                           .arg(toeplitz ? tr("yes") : tr("no"))
                           .arg(r.toeplitz.maxAbs, 0, 'e', 2)
                           .arg(r.toeplitz.relative(), 0, 'e', 2),
                       tr("Largest |L(i, j) − L(i − s, j − s)| over all heads: each logit against the start "
                          "of its diagonal. Zero up to rounding means the logit depends on j − i alone."));

    // The chapter's cell (218.4.5) at these sizes and seed.
    const QString cellTip = tr("The chapter's cell: torch.manual_seed(seed), W_Q, W_K, W_V, W_O = nn.Linear(d_model, "
                               "d_model), x = torch.randn(3, n, d_model) plus the sinusoidal table (base 10000) or "
                               "nothing, 4-head attention in the chapter. It prints [-1.000, 1.000] and 1.7207 at "
                               "n = 12, d_model = 64, heads = 4, seed 7.");
    if (r.cellRun) {
        readouts()->setRow(QStringLiteral("cellpe"), tr("Cell 218.4.5: positional encoding range"),
                           tr("[%1, %2]   (the chapter prints [-1.000, 1.000])")
                               .arg(text::fixed(r.cell->peMin, 3), text::fixed(r.cell->peMax, 3)),
                           cellTip);
        readouts()->setRow(QStringLiteral("cellnorm"), tr("Cell 218.4.5: output norm, mean of ‖out[b, i, :]‖"),
                           tr("%1   (the chapter prints 1.7207)").arg(text::fixed(r.cell->outputNorm, 4)), cellTip);
    } else {
        const QString why = QStringLiteral("— (%1)").arg(QString::fromStdString(r.cellNote));
        readouts()->setRow(QStringLiteral("cellpe"), tr("Cell 218.4.5: positional encoding range"), why, cellTip);
        readouts()->setRow(QStringLiteral("cellnorm"), tr("Cell 218.4.5: output norm, mean of ‖out[b, i, :]‖"), why, cellTip);
    }

    readouts()->setNote(sentence ? tr("<b>n follows the sentence: %1 words</b> (the n slider is not used).").arg(r.n)
                                 : QString());
}

QString AttentionView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Self-attention as 218.4.1 and 218.4.2 write it: Q = XW<sub>Q</sub>, "
        "K = XW<sub>K</sub>, and every head computes softmax(QKᵀ/√d<sub>k</sub>) over its own d<sub>k</sub> = "
        "d_model / heads coordinates. One heatmap per head: each row is one query's distribution over the keys "
        "(rows sum to 1); all heads share one colour scale. The figures give each head's entropy.</p>"
        "<p><b>Positions</b> (218.4.3, 218.4.4): none, the sinusoidal table "
        "PE<sub>(pos, 2i)</sub> = sin(pos / 10000<sup>2i/d</sup>) added to the embeddings, or RoPE rotating each "
        "head's q and k.</p>"
        "<p><b>Try.</b> Positional = rope with content = repeated: every diagonal of the logits is then "
        "constant, because RoPE's logit depends only on the offset (the Toeplitz check reads zero). Positional = "
        "none with repeated content: every row is uniform, attention alone cannot tell positions apart. "
        "Scale off: the rows sharpen and the entropies fall, the saturation that 1/√d<sub>k</sub> prevents. "
        "Causal = 1 masks the keys after each query, as a decoder does.</p>");
}

} // namespace fb
