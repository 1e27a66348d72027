#pragma once
// Lab: the long-term decay of the RoPE bound (Figure 218.1, right), with context extension and
// pinned curves for comparing bases and widths.
#include "core/labs/decay_bound_lab.h"
#include "views/lab/lab_view_for.h"

#include <QList>
#include <QPointF>

class QLineSeries;

namespace fb {

class ChartPanel;

class DecayBoundView : public LabViewFor<DecayBoundLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit DecayBoundView(QWidget *parent = nullptr);

    // Freezes the current plain curve as a labelled ghost; clearPins removes them all.
    void pinCurrent();
    void pin(const QString &label, const QList<QPointF> &points);
    void clearPins();
    int pinCount() const { return int(pins_.size()); }

    // Series shown, for tests.
    QLineSeries *plainSeries() const { return plain_; }
    QLineSeries *scaledSeries() const { return scaled_; }
    ChartPanel *decayChart() const { return decayChart_; }

    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;

protected:
    void draw(const DecayBoundLabResult &r) override;

private:
    ChartPanel *decayChart_ = nullptr;
    ChartPanel *wavelengthChart_ = nullptr;
    QLineSeries *plain_ = nullptr;
    QLineSeries *scaled_ = nullptr;
    QLineSeries *plainWavelength_ = nullptr;
    QLineSeries *scaledWavelength_ = nullptr;
    QLineSeries *trainedMark_ = nullptr;
    QList<QLineSeries *> pins_;
    QList<QPointF> lastPlain_;
    QString lastLabel_;
    double yMax_ = 1.0;
};

} // namespace fb
