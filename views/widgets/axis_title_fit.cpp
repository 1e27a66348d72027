#include "views/widgets/axis_title_fit.h"

#include <QAbstractAxis>
#include <QChart>
#include <QFontMetricsF>

#include <algorithm>

namespace fb {

void AxisTitleFit::fit(QChart *chart, QSizeF plot, const QFont &normal, bool exporting, QStringList &hidden)
{
    const QList<QAbstractAxis *> axes = chart->axes();
    for (auto it = hidden_.begin(); it != hidden_.end();)
        it = axes.contains(it.key()) ? std::next(it) : hidden_.erase(it);  // replaced axes
    for (QAbstractAxis *axis : axes) {
        const bool ours = hidden_.contains(axis);
        const QString brief = short_.value(axis);
        QString full = axis->titleText();  // a view may have set a new title since
        if (ours && (full == QLatin1String(" ") || (!brief.isEmpty() && full == brief))) full = hidden_.value(axis);
        if (!axis->isVisible() || full.isEmpty() || !axis->isTitleVisible()) continue;
        const qreal length = axis->orientation() == Qt::Vertical ? plot.height() : plot.width();
        auto scaleFor = [&](const QString &title) {
            const qreal need = QFontMetricsF(normal).horizontalAdvance(title) + 8;
            return (exporting || length <= 0) ? 1.0 : std::min(1.0, length / need);
        };
        // The full title, else the view's short one ("bits" for "bits per step boundary").
        QString shown = full;
        qreal scale = scaleFor(full);
        if (scale < 0.6 && !brief.isEmpty()) {
            shown = brief;
            scale = scaleFor(brief);
        }
        QFont font = normal;
        if (scale < 1.0) font.setPointSizeF(std::max(normal.pointSizeF() * 0.6, normal.pointSizeF() * scale * 0.97));
        if (axis->titleFont() != font) axis->setTitleFont(font);
        if (scale < 0.6) shown = QStringLiteral(" ");
        if (shown == full) {
            if (ours) {
                axis->setTitleText(full);
                hidden_.remove(axis);
            }
        } else {
            hidden_.insert(axis, full);
            if (axis->titleText() != shown) axis->setTitleText(shown);
            hidden << full;
        }
    }
}

} // namespace fb
