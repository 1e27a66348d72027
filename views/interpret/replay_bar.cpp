#include "views/interpret/replay_bar.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace fb {

ReplayBar::ReplayBar(QWidget *parent)
    : QWidget(parent)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 0, 4, 0);
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setMinimumWidth(60);  // beside five tabs and a page's own controls, parameters shown
    slider_->setToolTip(tr("Replay: the maps, scores and losses as they were at that step; the right end is live"));
    label_ = new QLabel;
    fitLabel();
    row->addWidget(new QLabel(tr("Replay")));
    row->addWidget(slider_, 1);
    row->addWidget(label_);
    connect(slider_, &QSlider::valueChanged, this, &ReplayBar::moved);
    clear();
}

void ReplayBar::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // as wide for "live" as for a long run's steps: the row beside the tabs keeps its width as the
    // replay moves
    if (event->type() == QEvent::FontChange) fitLabel();
}

void ReplayBar::fitLabel()
{
    label_->setMinimumWidth(QFontMetrics(font()).horizontalAdvance(tr("step %1").arg(QStringLiteral("100,000"))));
}

void ReplayBar::clear()
{
    history_.clear();
    live_ = true;
    const QSignalBlocker block(slider_);
    slider_->setRange(0, 0);
    slider_->setEnabled(false);
    updateLabel();
}

void ReplayBar::record(Frame frame)
{
    if (!frame) return;
    frame = TransformerRun::withoutStates(std::move(frame));  // as large as its maps: the lab keeps the newest's
    const int step = frame->step;
    history_.add(step, std::move(frame));
    const QSignalBlocker block(slider_);
    const int last = int(history_.size()) - 1;
    const int shownStep = live_ ? -1 : history_.step(std::size_t(std::min(slider_->value(), last)));
    slider_->setRange(0, last);
    slider_->setEnabled(last > 0);
    // Live: follow the newest. Replaying: stay on the step shown (its index moves when thinned).
    slider_->setValue(live_ ? last : int(history_.indexAt(shownStep)));
    updateLabel();
}

void ReplayBar::showStep(int step)
{
    if (history_.empty()) return;
    slider_->setValue(int(history_.indexAt(step)));
}

void ReplayBar::moved(int index)
{
    if (history_.empty()) return;
    const std::size_t i = std::size_t(std::clamp(index, 0, int(history_.size()) - 1));
    live_ = i + 1 == history_.size();
    updateLabel();
    Q_EMIT frameChosen(history_.value(i), live_);
}

void ReplayBar::updateLabel()
{
    if (history_.empty() || live_) {
        label_->setText(tr("live"));
        return;
    }
    label_->setText(tr("step %1").arg(history_.step(std::size_t(slider_->value()))));
}

QString ReplayBar::describe(const TransformerFrame &f)
{
    QString text = tr("step %1").arg(f.step);
    if (f.heldoutStep >= 0 && std::isfinite(f.heldoutLoss)) {
        text += tr(": held-out %1").arg(f.heldoutLoss, 0, 'f', 3);
        if (std::isfinite(f.secondHalfLoss)) text += tr(", repeat %1").arg(f.secondHalfLoss, 0, 'f', 3);
        if (f.heldoutStep != f.step) text += tr(" (at step %1)").arg(f.heldoutStep);
    }
    double best = std::nan("");
    for (const auto &layer : f.inductionScore)
        for (double s : layer)
            if (std::isfinite(s) && !(best >= s)) best = s;
    if (std::isfinite(best)) text += tr("; best induction %1").arg(best, 0, 'f', 2);
    return text;
}

} // namespace fb
