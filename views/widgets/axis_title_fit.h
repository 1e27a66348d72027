#pragma once
// The axis titles of a chart fitted to its plot: a title longer than its axis is set smaller, down
// to 60% of its size; one that does not fit even then shows the view's short title, or is taken off
// (it goes to the chart's tooltip) rather than cut. Its text becomes a space, not nothing: without
// a title Qt Charts cuts a vertical axis' tick labels. The whole titles taken off are remembered,
// so that a title fits again once the plot has room.
#include <QFont>
#include <QHash>
#include <QSizeF>
#include <QString>
#include <QStringList>

class QAbstractAxis;
class QChart;

namespace fb {

class AxisTitleFit {
public:
    // Fits every visible axis title of chart to a plot of size plot, at the font normal (its full
    // size); the whole titles not shown are appended to hidden. exporting: every title at its full
    // size (an export's axes are not laid out yet).
    void fit(QChart *chart, QSizeF plot, const QFont &normal, bool exporting, QStringList &hidden);
    // What the axis shows when its whole title does not fit ("bits" for "bits per step boundary");
    // empty: none
    void setShortTitle(QAbstractAxis *axis, const QString &title) { short_.insert(axis, title); }

private:
    QHash<QAbstractAxis *, QString> hidden_;  // axis -> its whole title, taken off to fit
    QHash<QAbstractAxis *, QString> short_;   // axis -> what it shows when the whole title does not fit
};

} // namespace fb
