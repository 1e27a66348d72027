#include "views/labs/costs_view.h"

#include "core/labs/costs_spec.h"
#include "views/widgets/chart_label.h"
#include "views/widgets/chart_panel.h"
#include "views/labs/costs_formulas.h"
#include "views/widgets/formula_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/scrolled_text.h"
#include "views/widgets/series_points.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

double decadeFloor(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decadeCeil(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

// Whole decades around the positive values of the lists (a log axis).
void decades(std::initializer_list<const QList<QPointF> *> lists, double &lo, double &hi)
{
    lo = HUGE_VAL;
    hi = 0;
    for (const auto *pts : lists)
        for (const QPointF &pt : *pts)
            if (pt.y() > 0 && std::isfinite(pt.y())) {
                lo = std::min(lo, pt.y());
                hi = std::max(hi, pt.y());
            }
    if (hi <= 0) lo = hi = 1;
    lo = decadeFloor(lo);
    hi = decadeCeil(hi * 1.0001);
}

QScatterSeries *markers(const QColor &color, qreal size)
{
    auto *s = new QScatterSeries;
    s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    s->setMarkerSize(size);
    s->setColor(color);
    s->setBorderColor(Qt::white);
    return s;
}

void rename(QAbstractSeries *s, const QString &name)
{
    if (s->name() != name) s->setName(name);
}

// A unit for the bar chart so its axis reads 0 ... 400 GB rather than 0 ... 4e+11.
void barUnitFor(double bytes, double &unit, QString &name)
{
    static const struct { double unit; const char *name; } units[] = {
        { 1e15, "PB" }, { 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "kB" } };
    for (const auto &u : units)
        if (bytes >= u.unit) {
            unit = u.unit;
            name = QLatin1String(u.name);
            return;
        }
    unit = 1;
    name = QStringLiteral("B");
}

// Okabe-Ito colours shared by the bar and line charts: MHA vermillion, GQA blue, MQA green.
QColor variantColor(int v)
{
    static const int index[3] = { 1, 0, 2 };
    return seriesColor(index[v]);
}

} // namespace

CostsView::CostsView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    // Presets under the parameters.
    presets_ = new QComboBox;
    presets_->setObjectName(QStringLiteral("costsPresets"));
    presets_->addItem(tr("Custom values"));
    for (const CostsPreset &preset : costsPresets()) presets_->addItem(QString::fromStdString(preset.name));
    presets_->setToolTip(tr("Load a configuration from the encyclopedia page"));
    // Narrower than its longest preset when the column is (a projector's fonts): names elide.
    presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presets_->setMinimumContentsLength(14);
    presetNote_ = new QLabel;
    presetNote_->setWordWrap(true);
    presetNote_->setStyleSheet(QStringLiteral("color:#444;"));
    auto *presetLabel = new QLabel(tr("<b>Preset</b>"));
    sideArea()->addWidget(presetLabel);
    sideArea()->addWidget(presets_);
    sideArea()->addWidget(presetNote_);
    connect(presets_, &QComboBox::activated, this, [this](int item) {
        if (item > 0) applyPreset(item - 1);
    });
    connect(panel(), &ParamPanel::valuesChanged, this, [this] { syncPresetBox(); });

    // KV cache at the chosen context: one bar per variant.
    barChart_ = new ChartPanel(tr("KV cache of one sequence"));
    barSeries_ = new QBarSeries;
    const QString names[3] = { tr("MHA"), tr("GQA"), tr("MQA") };
    for (int v = 0; v < 3; ++v) {
        bars_[v] = new QBarSet(names[v]);
        bars_[v]->setColor(variantColor(v));
        bars_[v]->setBorderColor(variantColor(v).darker(120));
        bars_[v]->append(0.0);
        barSeries_->append(bars_[v]);
    }
    barSeries_->setLabelsVisible(true);
    barSeries_->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    barSeries_->setLabelsPrecision(3);
    barSeries_->setBarWidth(0.8);
    barChart_->chart()->addSeries(barSeries_);
    for (QBarSet *set : bars_) {
        set->setLabelColor(QColor(20, 20, 20));
        QFont font = set->labelFont();
        font.setPointSizeF(11.0);
        font.setBold(true);
        set->setLabelFont(font);
    }
    // One category and no need to show it: the legend names the bars, the y axis the context.
    barAxis_ = new QBarCategoryAxis;
    barAxis_->append(QStringLiteral("KV cache"));
    barAxis_->setVisible(false);
    barChart_->chart()->addAxis(barAxis_, Qt::AlignBottom);
    barSeries_->attachAxis(barAxis_);
    barChart_->setValueAxis(Qt::Vertical, tr("KV cache (GB)"))->setLabelFormat(QStringLiteral("%g"));

    // KV cache against context length.
    kvChart_ = new ChartPanel(tr("KV cache vs context"));
    kvChart_->setLogAxis(Qt::Horizontal, tr("context n (tokens)"), 10.0)->setLabelFormat(QStringLiteral("%.0f"));
    kvChart_->setLogBases({ 10.0, 100.0, 1000.0 });  // a tick every decade where the labels fit
    kvChart_->setLogAxis(Qt::Vertical, tr("GB"), 10.0);
    for (int v = 0; v < 3; ++v) kvLines_[v] = kvChart_->addLine(names[v], variantColor(v), 2.5);
    kvContext_ = kvChart_->addLine(tr("context n"), QColor(60, 60, 60), 1.5, Qt::DotLine);
    kvNow_ = kvChart_->attach(markers(QColor(0, 0, 0), 11));
    // The context line and the crossover carry their own labels on the chart: the legends name
    // the curves only, so that they fit a 1024 x 768 projector whole.
    hideFromLegend(kvChart_->chart(), kvNow_);
    hideFromLegend(kvChart_->chart(), kvContext_);

    // Attention against dense compute per token per layer.
    flopsChart_ = new ChartPanel(tr("Attention vs dense compute"));
    flopsChart_->setLogAxis(Qt::Horizontal, tr("context n (tokens)"), 10.0)->setLabelFormat(QStringLiteral("%.0f"));
    flopsChart_->setLogBases({ 10.0, 100.0, 1000.0 });
    flopsChart_->setLogAxis(Qt::Vertical, tr("FLOPs per token per layer"), 10.0);
    attention_ = flopsChart_->addLine(tr("attention 4·n·d"), seriesColor(0), 2.5);
    dense_ = flopsChart_->addLine(tr("dense 24·d²"), seriesColor(4), 2.5, Qt::DashLine);
    flopsContext_ = flopsChart_->addLine(tr("context n"), QColor(60, 60, 60), 1.5, Qt::DotLine);
    crossover_ = flopsChart_->attach(markers(seriesColor(1), 14));
    crossover_->setName(tr("n = 6d"));
    hideFromLegend(flopsChart_->chart(), flopsContext_);
    hideFromLegend(flopsChart_->chart(), crossover_);
    crossoverLabel_ = new ChartLabel(flopsChart_->chart(), crossover_, QColor(20, 20, 20));
    kvContextLabel_ = new ChartLabel(kvChart_->chart(), kvContext_, QColor(20, 20, 20));
    flopsContextLabel_ = new ChartLabel(flopsChart_->chart(), flopsContext_, QColor(20, 20, 20));

    formulas_ = new FormulaPanel(tr("The page's formulas, today's values"));
    formulas_->setObjectName(QStringLiteral("costsFormulas"));
    QFont f = formulas_->font();
    f.setPointSizeF(12.0);
    formulas_->setFont(f);

    auto *grid = grid_ = new QGridLayout;
    grid->setSpacing(8);
    grid->addWidget(barChart_, 0, 0);
    grid->addWidget(kvChart_, 0, 1);
    grid->addWidget(flopsChart_, 1, 0);
    // All of the page's formulas need more height than a 1024 x 768 window leaves them: they
    // scroll there rather than lose their last lines (on a slide their row gets more of the height;
    // see setPresentationScale).
    formulaScroll_ = new ScrolledText(formulas_);
    grid->addWidget(formulaScroll_, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    chartArea()->addLayout(grid, 1);
    for (Exportable *e : { static_cast<Exportable *>(barChart_), static_cast<Exportable *>(kvChart_),
                           static_cast<Exportable *>(flopsChart_), static_cast<Exportable *>(formulas_) })
        registerExportable(e);

    beginComputing();
    syncPresetBox();
}

void CostsView::setPresentationScale(double scale)
{
    LabViewFor<CostsLab>::setPresentationScale(scale);
    // On a slide the formulas' row takes five eighths of the height: all of them fit at 1024 x 768,
    // and the charts above keep their minimum.
    grid_->setRowStretch(0, scale > 1.0 ? 3 : 1);
    grid_->setRowStretch(1, scale > 1.0 ? 5 : 1);
}

QString CostsView::applyPreset(int index)
{
    const auto &presets = costsPresets();
    if (index < 0 || index >= int(presets.size()))
        return tr("preset must be an index in [0, %1], got %2").arg(int(presets.size()) - 1).arg(index);
    const QString err = setValues(presets[std::size_t(index)].values);
    syncPresetBox();
    return err;
}

void CostsView::syncPresetBox()
{
    const int index = costsPresetIndex(values());
    const QSignalBlocker block(presets_);
    presets_->setCurrentIndex(index + 1);
    presetNote_->setText(index >= 0 ? QString::fromStdString(costsPresets()[std::size_t(index)].note)
                                    : tr("Values changed by hand; pick a preset to load the page's numbers."));
}

void CostsView::draw(const CostsLabResult &r)
{
    const CostsLabParams &p = r.params;
    const CostsLabFigures &f = r.figures;
    const KvCacheResult now[3] = { f.mha, f.gqa, f.mqa };

    // Bars, in a unit that suits the largest.
    QString unitName;
    barUnitFor(f.mha.bytes, barUnit_, unitName);
    for (int v = 0; v < 3; ++v) bars_[v]->replace(0, now[v].bytes / barUnit_);
    const QString labelFormat = QStringLiteral("@value ") + unitName;
    if (barSeries_->labelsFormat() != labelFormat) barSeries_->setLabelsFormat(labelFormat);
    ChartPanel::setRange(barChart_->axisY(), 0.0, f.mha.bytes / barUnit_ * 1.12, 0.0);
    if (auto *y = qobject_cast<QValueAxis *>(barChart_->axisY())) y->applyNiceNumbers();
    const QString yTitle = unitName;
    if (barChart_->axisY()->titleText() != yTitle) barChart_->axisY()->setTitleText(yTitle);
    const QString variantNames[3] = {
        tr("MHA (%1)").arg(p.queryHeads),
        tr("GQA (%1)").arg(p.kvHeads),
        tr("MQA (1)"),
    };
    // Curves in GB against context, on whole decades.
    QList<QPointF> kv[3];
    for (int v = 0; v < 3; ++v) {
        kv[v] = xyPoints(r.contexts, r.kvBytes[std::size_t(v)], 1e-9);
        if (bars_[v]->label() != variantNames[v]) bars_[v]->setLabel(variantNames[v]);
        kvChart_->replacePoints(kvLines_[v], kv[v]);
        rename(kvLines_[v], variantNames[v]);
    }
    const double xMin = r.contexts.front(), xMax = r.contexts.back();
    double kvMin = 1, kvMax = 1;
    decades({ &kv[0], &kv[1], &kv[2] }, kvMin, kvMax);
    QList<QPointF> kvNow;
    for (const KvCacheResult &k : now) kvNow.append(QPointF(p.context, k.bytes / 1e9));
    kvChart_->replacePoints(kvContext_, { QPointF(p.context, kvMin), QPointF(p.context, kvMax) });
    kvChart_->replacePoints(kvNow_, kvNow);
    ChartPanel::setRange(kvChart_->axisX(), xMin, xMax, 0.0);
    ChartPanel::setRange(kvChart_->axisY(), kvMin, kvMax, 0.0);
    // A context line's label at its top; else beside it at the top or at the foot, where it hides the
    // least of the curves (the charts are short on a 1024 x 768 slide).
    const auto contextLabel = [&](ChartLabel *label, double bottom, double top) {
        label->set(tr("n = %1").arg(text::grouped(p.context)), QPointF(p.context, top), Qt::AlignHCenter | Qt::AlignTop,
                   QPointF(0, 4),
                   { { QPointF(p.context, top), Qt::AlignRight | Qt::AlignTop, QPointF(-6, 4) },
                     { QPointF(p.context, top), Qt::AlignLeft | Qt::AlignTop, QPointF(6, 4) },
                     { QPointF(p.context, bottom), Qt::AlignRight | Qt::AlignBottom, QPointF(-6, -4) },
                     { QPointF(p.context, bottom), Qt::AlignLeft | Qt::AlignBottom, QPointF(6, -4) } });
    };
    contextLabel(kvContextLabel_, kvMin, kvMax);

    const QList<QPointF> attention = xyPoints(r.contexts, r.attentionFlops);
    const QList<QPointF> dense { QPointF(xMin, r.denseFlops), QPointF(xMax, r.denseFlops) };
    double flopsMin = 1, flopsMax = 1;
    decades({ &attention, &dense }, flopsMin, flopsMax);
    const QPointF crossover(f.crossover, r.denseFlops);
    flopsChart_->replacePoints(attention_, attention);
    flopsChart_->replacePoints(dense_, dense);
    flopsChart_->replacePoints(crossover_, { crossover });
    flopsChart_->replacePoints(flopsContext_, { QPointF(p.context, flopsMin), QPointF(p.context, flopsMax) });
    ChartPanel::setRange(flopsChart_->axisX(), xMin, xMax, 0.0);
    ChartPanel::setRange(flopsChart_->axisY(), flopsMin, flopsMax, 0.0);
    contextLabel(flopsContextLabel_, flopsMin, flopsMax);
    // the crossover's label below right of its point; else in another corner of it
    crossoverLabel_->set(tr("n = 6d = %1").arg(text::grouped(f.crossover)), crossover,
                         Qt::AlignLeft | Qt::AlignTop, QPointF(10, 6),
                         { { crossover, Qt::AlignRight | Qt::AlignBottom, QPointF(-10, -6) },
                           { crossover, Qt::AlignLeft | Qt::AlignBottom, QPointF(10, -6) },
                           { crossover, Qt::AlignRight | Qt::AlignTop, QPointF(-10, 6) } });

    formulas_->setFormulas(costsFormulaHtml(p, f));

    readouts()->setRow(QStringLiteral("kvtoken"), tr("KV cache per token"),
                       tr("%1 MB (%2 B)").arg(text::fixed(f.gqa.bytesPerToken / 1e6, 2), text::grouped(f.gqa.bytesPerToken)),
                       tr("The page: about 0.33 MB for 80 layers, 8 KV heads of 128, 16-bit values"));
    readouts()->setRow(QStringLiteral("kv"), tr("KV cache, one sequence"),
                       text::bytes(f.gqa.bytes), tr("The page: roughly 43 GB at a 128K-token context"));
    readouts()->setRow(QStringLiteral("kvmha"), tr("… with MHA"), text::bytes(f.mha.bytes),
                       tr("The page: around 344 GB with 64 KV heads"));
    readouts()->setRow(QStringLiteral("kvmqa"), tr("… with MQA"), text::bytes(f.mqa.bytes));
    readouts()->setRow(QStringLiteral("params"), tr("Parameters ≈ 12·L·d²"),
                       text::count(f.denseParams), tr("The page's GPT-3 check: 96 × 12 × 12,288² ≈ 174 billion"));
    readouts()->setRow(QStringLiteral("train"), tr("Training compute 6·N·D"), tr("%1 FLOPs").arg(text::scientific(f.trainFlops)));
    readouts()->setRow(QStringLiteral("crossover"), tr("Crossover n = 6d"), tr("%1 tokens").arg(text::grouped(f.crossover)),
                       tr("The page: for d = 4,096 that is a few tens of thousands of tokens"));
    readouts()->setRow(QStringLiteral("attn"), tr("Attention / dense at n"),
                       tr("%1×").arg(text::fixed(r.attentionOverDense, 2)));
    readouts()->setRow(QStringLiteral("weights"), tr("Weights read per token"), text::bytes(f.weightBytes));
    readouts()->setRow(QStringLiteral("decode"), tr("Decode ceiling"),
                       tr("%1 tokens/s").arg(text::fixed(f.decodeTokensPerSecond, 1)),
                       tr("The page: about 70 tokens/s for 140 GB at 10 TB/s"));
}

QString CostsView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> The cost formulas of the encyclopedia page on the Transformer. KV cache "
        "bytes ≈ 2 × layers × KV heads × head dimension × tokens × bytes per value, for multi-head, grouped-query "
        "and multi-query attention; parameters ≈ 12·L·d²; training compute C ≈ 6ND; attention ≈ 4·n·d against "
        "≈ 24·d² of dense work per token and layer; and the decode ceiling, bandwidth ÷ bytes of weights read "
        "per token.</p>"
        "<p><b>Try.</b> The defaults are the page's Llama-3-70B-class example: about 0.33 MB per token, 43 GB "
        "for one 128K sequence, 344 GB with 64 KV heads instead of 8, and about 70 tokens/s for 140 GB of "
        "weights at 10 TB/s. Load the other presets, or raise the context until attention overtakes dense compute "
        "(about n = 6d). These are back-of-envelope figures from the page: they ignore MoE, sliding windows and "
        "compression, and 12·L·d² assumes a 4× MLP.</p>");
}

} // namespace fb
