#pragma once
// A styled Qt Charts view: title, labelled axes, legend, readable fonts, no animations, and an
// export that renders the complete chart at any pixel size.
#include "views/widgets/axis_title_fit.h"
#include "views/widgets/exportable.h"
#include "views/widgets/legend_fit.h"
#include "views/widgets/replot_hold.h"

#include <QChartView>
#include <QHash>
#include <QList>
#include <QStringList>
#include <QPointF>

class QAbstractAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;
class QXYSeries;

namespace fb {

class MinorGrid;

class ChartPanel : public QChartView, public Exportable {
    Q_OBJECT
public:
    explicit ChartPanel(const QString &title, QWidget *parent = nullptr);

    QString exportTitle() const override;
    // The chart's title. Where the whole title does not fit the chart's width, the part before
    // its first ": " is shown (the export, at its own size, shows what fits there).
    void setTitle(const QString &title);
    QString title() const { return fullTitle_; }
    void paintExport(QPainter &painter, QSize logicalSize) override;
    // One x and one y column per series, in legend order.
    QString csv() const override;

    // Axes. The returned axis is attached to the chart; series added later attach to both axes.
    QValueAxis *setValueAxis(Qt::Orientation orientation, const QString &title);
    QLogValueAxis *setLogAxis(Qt::Orientation orientation, const QString &title, double base = 10.0);
    // The horizontal log axis takes the first of these bases whose tick labels all fit the plot's
    // width (e.g. 2, 4, 16: a label every octave where there is room), chosen again on every
    // result and resize.
    // Bases must be above 1.
    void setLogBases(const QList<double> &bases) { logBases_ = bases; }
    QAbstractAxis *axisX() const { return axisX_; }
    QAbstractAxis *axisY() const { return axisY_; }

    // A line series in the given colour, attached to the current axes.
    QLineSeries *addLine(const QString &name, const QColor &color, qreal width = 2.5,
                         Qt::PenStyle style = Qt::SolidLine);
    void removeSeries(QXYSeries *series);
    // Adds any series to the chart and attaches it to the current axes; returns it.
    template<class Series>
    Series *attach(Series *series)
    {
        attachSeries(series);
        return series;
    }

    // Replaces a series' points in one call, dropping non-finite points and, where an axis is
    // logarithmic, points that are not strictly positive on it. Points equal to the series' own
    // leave it untouched (no layout, no repaint).
    void replacePoints(QXYSeries *series, const QList<QPointF> &points);
    // Until settleLayout(): a replaced series is laid out once, by the axis range change that
    // usually follows its new points, not once for the points and again for the range (Qt Charts
    // strokes a series' whole path each time). LabView holds every chart while a result is drawn.
    void holdReplots() { held_.hold(); }

    // Sets an axis range with a little padding; ignores empty or non-finite ranges.
    static void setRange(QAbstractAxis *axis, double lo, double hi, double padFraction = 0.04);

    // An axis exactly [lo, hi] with ticks at multiples of `interval` from 0 (a training's steps, a
    // channel index): the spacing is set before the range, so no burst of ticks is laid out in
    // between. Returns whether the axis changed (an unchanged one is not laid out again).
    static bool setTickedRange(QValueAxis *axis, double lo, double hi, double interval);

    // Multiplies every font of the chart (1.0 = normal; lecture mode uses more).
    void setFontScale(double scale);

    // Lays the chart out now if a change asked for it (a legend name, a title, an axis' labels), so
    // that the next paint shows the final layout: otherwise Qt lays it out after that paint and the
    // change costs two frames. LabView calls it after every result.
    void settleLayout();

    // What does not fit (for the layout test): every text Qt Charts had to cut short (a title, an
    // axis title, tick labels, legend entries end in "..."), and a plot area too small to read.
    QStringList layoutProblems() const;
    // The title an axis shows where its whole one does not fit even set smaller (the whole one
    // then goes to the tooltip); without one the axis shows no title there.
    void setShortAxisTitle(QAbstractAxis *axis, const QString &title);
    static constexpr int kMinPlotHeight = 60;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // Title and legend for a chart width: the short title where the whole one does not fit, the
    // legend hidden (its names in the tooltip) where its entries would be cut.
    // exporting: at an export's size (the axes' lengths are not known before its layout).
    void fitTexts(QSizeF size, bool exporting = false);
    // The axis titles (AxisTitleFit) and a log axis' base to a plot of that size (part of fitTexts;
    // settleLayout's again to the plot laid out), and what does not show, with the legend's hidden
    // names, to the tooltip unless exporting
    void fitToPlot(QSizeF plot, bool exporting);
    // A log horizontal axis' base: the first of logBases_ whose labels fit side by side in width
    void fitLogBase(qreal width);
    // After a layout: where Qt Charts cut legend entries all the same, or a bottom legend left the
    // plot under kMinPlotHeight, the legend moves to the right or is hidden (LegendFit::noteCuts).
    void checkCutLegend();
    void attachSeries(QAbstractSeries *series);
    void styleAxis(QAbstractAxis *axis, const QString &title);
    void applyFonts();

    QAbstractAxis *axisX_ = nullptr;
    QAbstractAxis *axisY_ = nullptr;
    double fontScale_ = 1.0;
    QString fullTitle_;
    LegendFit legendFit_;
    AxisTitleFit axisTitleFit_;
    ReplotHold held_;
    QString toolTipBeforeFit_;
    bool tipSaved_ = false;
    bool settleQueued_ = false;  // fitTexts asked for a settleLayout after Qt's layout
    bool settling_ = false;      // inside settleLayout: its own fits ask for none
    QSizeF fittedPlot_;          // the plot size the axis titles were last fitted to
    QStringList legendHidden_;   // the legend's names fitTexts hid (they go to the tooltip)
    QList<double> logBases_;
    MinorGrid *minorGrid_ = nullptr;  // the log axes' 2 ... 9 grid; a child of the chart
};

} // namespace fb
