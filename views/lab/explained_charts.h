#pragma once
// The right-hand side of a lab: its charts and the explanation of what they show. A wide lab has
// the explanation beside the charts, a narrow one above them; collapsed it is one line above the
// charts, and they take the rest.
#include <QWidget>

class QBoxLayout;

namespace fb {

class ExplanationPanel;

class ExplainedCharts : public QWidget {
    Q_OBJECT
public:
    ExplainedCharts(ExplanationPanel *panel, QWidget *charts, QWidget *parent = nullptr);

    // The explanation is a column beside the charts (else a strip above them).
    bool isBeside() const { return beside_; }

    // The explanation is a column beside the charts when they keep at least this width (two
    // charts side by side keep their legends whole), else a strip above them.
    static constexpr int kChartsBesideMin = 960;
    // On a slide the charts keep their height: the text goes beside them down to this width.
    static constexpr int kChartsBesideMinOnSlide = 600;
    // Above the charts, the expanded explanation takes at most this share of the height.
    static constexpr double kAboveShare = 0.2;
    static constexpr double kAboveShareOnSlide = 0.08;
    // Pixels of height left over above the charts' minimum (rounding of the window's own layout).
    static constexpr int kSlack = 8;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange();
    // This widget's height, or less when its window reaches below the screen.
    int heightOnScreen() const;

    QBoxLayout *layout_ = nullptr;
    ExplanationPanel *panel_ = nullptr;
    QWidget *charts_ = nullptr;
    bool beside_ = false;
};

} // namespace fb
