#pragma once
// A push button as wide as the widest of the texts it may show ("Start", "Start again"), in the
// font it has now: a row of buttons in a flow layout keeps its lines when the text changes (at the
// end of a run, 1920 x 1080 in lecture mode, "Start again" pushed the last buttons onto a second
// line and everything under them down).
#include <QPushButton>
#include <QStringList>

namespace fb {

class SteadyButton : public QPushButton {
    Q_OBJECT
public:
    // texts: every text the button may show; the first is shown
    explicit SteadyButton(const QStringList &texts, QWidget *parent = nullptr);
    // (QPushButton's minimum size hint is its size hint: this one)
    QSize sizeHint() const override;

private:
    QStringList texts_;
    // the width QPushButton would want for the widest of texts_, in the current font and style
    int widest() const;
};

} // namespace fb
