#include "views/widgets/legend_fit.h"

#include <QAbstractAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>

#include <algorithm>

namespace fb {

void LegendFit::fit(QChart *chart, QSizeF size, qreal room, bool exporting, QStringList &hidden)
{
    QLegend *legend = chart->legend();
    if ((cutAt_ > 0 || tooTallAt_ > 0 || rightCutAt_ > 0) && state(chart) != cutFor_) {
        cutAt_ = 0;
        tooTallAt_ = 0;
        rightCutAt_ = 0;
    }
    if (!legend->isVisible() && !hiddenToFit_) return;  // hidden by its view, not here
    const QFontMetricsF fm(legend->font());
    qreal need = 16, widest = 0;
    QStringList names;
    for (QLegendMarker *m : legend->markers()) {
        if (!m->isVisible()) continue;
        need += fm.height() + fm.horizontalAdvance(m->label()) + 16;
        widest = std::max(widest, fm.height() + fm.horizontalAdvance(m->label()) + 24);
        names << m->label();
    }
    const bool bottomFits = need <= room && (exporting || (size.width() > cutAt_ && size.height() > tooTallAt_));
    // Too tall at the bottom: on the right, where the axes keep at least kAxesWidth beside it.
    const bool bottomHome = onRight_ || legend->alignment() == Qt::AlignBottom;
    // Its entries stacked beside the plot must not be taller than the plot (Qt Charts would cut the
    // axes' texts): a row per entry, and about four for the title and the horizontal axis.
    const qreal tall = names.size() * (fm.height() + 10) + 4 * fm.height();
    const bool right = !bottomFits && !exporting && bottomHome && size.height() <= tooTallAt_
        && size.width() - widest >= kAxesWidth && size.height() >= tall && size.width() > rightCutAt_;
    if (bottomHome) {
        const Qt::Alignment want = right ? Qt::AlignRight : Qt::AlignBottom;
        if (legend->alignment() != want) legend->setAlignment(want);
        onRight_ = right;
    }
    const bool fits = bottomFits || right;
    if (fits != legend->isVisible()) legend->setVisible(fits);
    hiddenToFit_ = !fits;
    if (!fits) hidden << names;
}

bool LegendFit::noteCuts(QChart *chart, QSizeF size, qreal minPlotHeight)
{
    // Legend entries cut: the width is short. Tick labels or axis titles cut while the legend is
    // shown: Qt Charts ran out of height and fell back to its minimum sizes; the legend's row goes.
    QLegend *legend = chart->legend();
    if (!legend->isVisible()) return false;
    const auto isCut = [](const QGraphicsItem *item) {
        const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
        return text && text->isVisible() && text->toPlainText().endsWith(QLatin1String("..."));
    };
    QList<QGraphicsItem *> items = legend->childItems();
    for (qsizetype i = 0; i < items.size(); ++i) {
        items << items[i]->childItems();
        if (isCut(items[i])) {
            (onRight_ ? rightCutAt_ : cutAt_) = size.width();
            cutFor_ = state(chart);
            return true;
        }
    }
    if (!onRight_ && legend->alignment() == Qt::AlignBottom && chart->plotArea().height() < minPlotHeight) {
        tooTallAt_ = size.height();
        cutFor_ = state(chart);
        return true;
    }
    if (!chart->scene()) return false;
    for (const QGraphicsItem *item : chart->scene()->items()) {
        if (!legend->isAncestorOf(item) && isCut(item)) {
            if (onRight_) {  // the axes are short of width now: no legend at all
                rightCutAt_ = size.width();
                cutFor_ = state(chart);
                return true;
            }
            tooTallAt_ = size.height();
            cutFor_ = state(chart);
            return true;
        }
    }
    return false;
}

QString LegendFit::state(QChart *chart)
{
    QString state = QString::number(chart->legend()->font().pointSizeF());
    for (QLegendMarker *m : chart->legend()->markers())
        if (m->isVisible()) state += QLatin1Char('|') + m->label();
    // Not the axis ranges: they change at every redraw of a training, and the legend would flicker.
    for (QAbstractAxis *a : chart->axes()) state += QLatin1Char('|') + QString::number(a->labelsFont().pointSizeF());
    return state;
}

} // namespace fb
