#include "views/attention_view.h"

#include "core/toeplitz.h"
#include "views/heatmap_buffers.h"
#include "views/heatmap_grid.h"
#include "views/readout_panel.h"

#include <QCheckBox>
#include <QJsonObject>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
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
AttentionFrame prepareFrame(AttentionLabResult &&result, HeatmapBuffers &buffers)
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
    g.valueTitle = QObject::tr("attention weight");
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
        g.images << colour(w, 0.0);
        g.logImages << colour(w, g.logFloor);
        g.panelTitles << QObject::tr("head %1 · entropy %2 nats").arg(h + 1).arg(r.entropy[std::size_t(h)], 0, 'f', 2);
        g.shortTitles << QObject::tr("head %1 · %2 nats").arg(h + 1).arg(r.entropy[std::size_t(h)], 0, 'f', 2);
    }
    g.values = r.weights;
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
    addChart(grid_, grid_, 1);
    chartArea()->addWidget(hoverLine_);
    connect(grid_, &HeatmapGrid::hoverTextChanged, this, [this](const QString &text) {
        hoverLine_->setText(text.isEmpty() ? tr("Hover a cell to read its query, key and weight.") : text);
    });

    logScale_ = new QCheckBox(tr("Logarithmic colour scale (4 decades)"));
    logScale_->setToolTip(tr("Shows the small weights too: long sequences and causal masks put most weights "
                             "far below the largest one. Both scales are computed with every result."));
    connect(logScale_, &QCheckBox::toggled, grid_, &HeatmapGrid::setLogScale);
    sideArea()->addWidget(logScale_);

    // The buffers belong to the computation (not to this view); only the worker uses them.
    beginComputing([buffers = std::make_shared<HeatmapBuffers>()](AttentionLabResult &&r) {
        return prepareFrame(std::move(r), *buffers);
    });
}

void AttentionView::setPresentationScale(double scale)
{
    LabView::setPresentationScale(scale);
    grid_->setFontScale(scale);
    // Readable from the back of a room in lecture mode, like the charts.
    QFont f = hoverLine_->font();
    f.setPointSizeF(hoverPointSize_ * scale);
    hoverLine_->setFont(f);
}

QJsonObject AttentionView::extraState() const
{
    return logScale_->isChecked() ? QJsonObject { { QStringLiteral("logColourScale"), true } } : QJsonObject();
}

QString AttentionView::setExtraState(const QJsonObject &state)
{
    const QJsonValue log = state.value(QStringLiteral("logColourScale"));
    if (!log.isUndefined() && !log.isBool()) return tr("extra.logColourScale must be true or false");
    logScale_->setChecked(log.toBool(false));
    return {};
}

void AttentionView::draw(const AttentionFrame &frame)
{
    const AttentionLabResult &r = frame.result;
    const bool sentence = r.params.content == AttentionContent::Sentence;
    // The hover text names words when the content is a sentence, and masked keys when causal.
    const QStringList tokens = sentence ? frame.grid.tokens : QStringList();
    const bool causal = r.params.causal;
    grid_->setHoverFormatter([tokens, causal](int head, int query, int key, double weight) {
        auto pos = [&](int i) {
            return i < tokens.size() ? QStringLiteral("%1 “%2”").arg(i).arg(tokens[i]) : QString::number(i);
        };
        QString w = (causal && key > query) ? tr("masked (key after query)")
                                            : QStringLiteral("%1").arg(weight, 0, 'f', 6);
        return tr("head %1 · query %2 · key %3 · weight %4").arg(head + 1).arg(pos(query), pos(key), w);
    });
    grid_->setData(frame.grid);

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

    QString note = tr("Each row is one query's distribution over the keys (rows sum to 1); all heads share "
                      "one colour scale. Try positional = rope with content = repeated: every diagonal of "
                      "the logits is then constant, because RoPE's logit depends only on the offset.");
    if (sentence) note += tr("<br><b>n follows the sentence: %1 words</b> (the n slider is not used).").arg(r.n);
    readouts()->setNote(note);
}

} // namespace fb
