#include "views/lab/explained_charts.h"

#include "views/lab/explanation_panel.h"

#include <QBoxLayout>
#include <QLayout>
#include <QResizeEvent>
#include <QScreen>
#include <QToolButton>

#include <algorithm>

namespace fb {

ExplainedCharts::ExplainedCharts(ExplanationPanel *panel, QWidget *charts, QWidget *parent)
    : QWidget(parent)
    , panel_(panel)
    , charts_(charts)
{
    layout_ = new QBoxLayout(QBoxLayout::TopToBottom, this);
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(6);
    // TopToBottom: the explanation above the charts; RightToLeft: beside them, on the right.
    layout_->addWidget(panel_);
    layout_->addWidget(charts_, 1);
    panel_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    connect(panel_, &ExplanationPanel::expandedChanged, this, [this] { arrange(); });
    arrange();
}

void ExplainedCharts::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
}

void ExplainedCharts::arrange()
{
    const int side = std::clamp(int(width() * 0.22), 260, 360);
    const QSize chartsMin = charts_->minimumSizeHint();
    const int besideMin = panel_->fontScale() > 1.0 ? kChartsBesideMinOnSlide : kChartsBesideMin;
    const bool beside = panel_->isExpanded()
        && width() - side - layout_->spacing() >= std::max(besideMin, chartsMin.width());
    if (beside != beside_) {
        beside_ = beside;
        layout_->setDirection(beside ? QBoxLayout::RightToLeft : QBoxLayout::TopToBottom);
        // Above the charts the strip is never higher than its text (the charts take the rest).
        panel_->setSizePolicy(QSizePolicy::Preferred, beside ? QSizePolicy::Preferred : QSizePolicy::Maximum);
    }
    if (beside) {
        panel_->setFixedWidth(side);
        panel_->setBodyLimit(-1);
        return;
    }
    panel_->setMinimumWidth(0);
    panel_->setMaximumWidth(QWIDGETSIZE_MAX);
    // As much of the text as fits in its share of the height, never more than the charts can spare.
    // The window measures the charts' minimum height at their narrowest (a row of controls that
    // wraps needs more lines there): so does this, or the window would grow.
    int chartsNeed = chartsMin.height();
    if (QLayout *l = charts_->layout(); l && l->hasHeightForWidth())
        chartsNeed = std::max(chartsNeed, l->totalMinimumHeightForWidth(chartsMin.width()));
    const int header = panel_->toggleButton()->sizeHint().height() + 8;
    const int room = heightOnScreen();
    const int spare = room - chartsNeed - layout_->spacing() - header - kSlack;
    // On a slide (lecture mode's larger text) the charts are the point: the text gets less of the
    // height and scrolls.
    const double share = panel_->fontScale() > 1.0 ? kAboveShareOnSlide : kAboveShare;
    panel_->setBodyLimit(std::max(0, std::min(int(room * share), spare)));
}

int ExplainedCharts::heightOnScreen() const
{
    // The strip's height is part of the window's minimum: measured while the window is still taller
    // than its screen (its first layout), it would keep the window that tall. What the screen
    // allows is the most this widget will get.
    const QWidget *top = window();
    const QScreen *screen = top ? top->screen() : nullptr;
    if (!top || top == this || !screen) return height();
    const QRect area = top->isFullScreen() ? screen->geometry() : screen->availableGeometry();
    const int around = top->frameGeometry().height() - height();  // title bar, menus, status bar
    return std::max(0, std::min(height(), area.height() - around));
}

} // namespace fb
