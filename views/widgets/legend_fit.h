#pragma once
// Whether a chart's bottom legend is shown. Qt Charts lays it out in one row and cuts every entry
// ("MHA (6...") when they do not all fit, and where it runs out of height it cuts the tick labels
// instead. So the legend is hidden (its names go to the chart's tooltip) where its entries would be
// cut, by an estimate before the layout and by what Qt Charts did after it: the width (or height)
// at which it cut is remembered until the legend's entries or the fonts change. A bottom legend
// that leaves the axes too little height stands on the right instead where the chart is wide
// enough (a short, wide chart on a slide keeps its legend); a legend its view put above the plot
// stays there.
#include <QSizeF>
#include <QString>
#include <QStringList>

class QChart;

namespace fb {

class LegendFit {
public:
    // Shows or hides chart's legend for a chart of size whose title row has room pixels; the names
    // of a hidden legend are appended to hidden. exporting: at an export's size (no memory of
    // Qt's cuts, which were made at the window's size).
    void fit(QChart *chart, QSizeF size, qreal room, bool exporting, QStringList &hidden);
    // After Qt Charts laid the chart out at size: true when it cut the legend or, with the legend
    // shown, other texts, or when a bottom legend left the plot less than minPlotHeight (the caller
    // fits again, and fit() then moves the legend to the right, or hides it where the chart is too
    // narrow for the axes beside it).
    bool noteCuts(QChart *chart, QSizeF size, qreal minPlotHeight = 0);

    // The least width the axes keep beside a legend on the right.
    static constexpr qreal kAxesWidth = 400;

private:
    // The legend entries and fonts the cut sizes were measured with.
    static QString state(QChart *chart);

    bool hiddenToFit_ = false;
    bool onRight_ = false;      // moved from the bottom to the right by fit()
    qreal rightCutAt_ = 0;      // the widest width at which Qt cut the legend on the right
    qreal cutAt_ = 0;      // the widest width at which Qt cut the legend
    qreal tooTallAt_ = 0;  // the tallest height at which the legend left the axes too little
    QString cutFor_;       // state() when those two were measured
};

} // namespace fb
