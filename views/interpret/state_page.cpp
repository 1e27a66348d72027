#include "views/interpret/state_page.h"

#include "views/widgets/heatmap_grid.h"

#include <QHBoxLayout>
#include <QToolButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace fb {

StatePage::StatePage(QWidget *parent)
    : QWidget(parent)
{
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    controls_ = new QWidget(this);  // placed by the owner of the page (hidden until then)
    controls_->hide();
    auto *row = new QHBoxLayout(controls_);
    row->setContentsMargins(0, 0, 0, 0);
    play_ = new QToolButton;
    play_->setText(tr("Play"));
    play_->setToolButtonStyle(Qt::ToolButtonTextOnly);  // as low as the tabs beside it
    play_->setToolTip(tr("Stream the probe sequence through the heads: the state after each position in turn"));
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setToolTip(tr("The probe position whose state is drawn"));
    slider_->setMinimumWidth(140);  // as wide as the replay bar it replaces
    row->addWidget(play_);
    row->addWidget(slider_, 1);
    grid_ = new HeatmapGrid;
    grid_->setExportTitle(tr("Linear mixer states"));
    grid_->setMinimumSize(240, 160);  // no taller than the maps' page: the loss curves below keep their height
    column->addWidget(grid_, 1);
    timer_ = new QTimer(this);
    timer_->setInterval(kPlayMs);
    connect(timer_, &QTimer::timeout, this, &StatePage::advance);
    connect(play_, &QToolButton::clicked, this, [this] { playing() ? stop() : play(); });
    connect(slider_, &QSlider::valueChanged, this, &StatePage::showPosition);
    clear();
}

void StatePage::clear()
{
    setStates(nullptr);
}

void StatePage::setStates(std::shared_ptr<const TransformerStates> states, const QString &whyNone)
{
    const bool atEnd = slider_->value() >= slider_->maximum();
    const int position = states_ && slider_->value() < int(states_->positions.size())
                             ? states_->positions[std::size_t(slider_->value())] : -1;
    states_ = std::move(states);
    const QSignalBlocker block(slider_);
    if (!states_ || states_->grids.empty()) {
        states_ = nullptr;
        stop();
        slider_->setRange(0, 0);
        slider_->setEnabled(false);
        play_->setEnabled(false);
        HeatmapGridData d;
        d.title = whyNone.isEmpty() ? tr("No linear mixer in this model: its states appear here") : whyNone;
        grid_->setData(std::move(d));
        return;
    }
    const int last = int(states_->positions.size()) - 1;
    slider_->setRange(0, last);
    slider_->setEnabled(last > 0);
    play_->setEnabled(last > 0);
    int index = last;
    if (!atEnd && position >= 0) {  // the same position in the new frame, or the nearest before it
        const auto it = std::upper_bound(states_->positions.begin(), states_->positions.end(), position);
        index = std::max(0, int(it - states_->positions.begin()) - 1);
    }
    slider_->setValue(index);
    showPosition(index);
}

void StatePage::showPosition(int index)
{
    if (!states_ || index < 0 || index >= int(states_->grids.size())) return;
    slider_->setToolTip(tr("The probe position whose state is drawn: %1 of %2")
                            .arg(states_->positions[std::size_t(index)]).arg(states_->seqLen - 1));
    grid_->setData(states_->grids[std::size_t(index)]);
}

bool StatePage::playing() const
{
    return timer_->isActive();
}

void StatePage::play()
{
    if (!states_ || slider_->maximum() == 0) return;
    if (slider_->value() >= slider_->maximum()) slider_->setValue(0);  // from the start again
    play_->setText(tr("Stop"));
    timer_->start();
}

void StatePage::stop()
{
    timer_->stop();
    play_->setText(tr("Play"));
    play_->setToolButtonStyle(Qt::ToolButtonTextOnly);  // as low as the tabs beside it
}

void StatePage::advance()
{
    if (slider_->value() >= slider_->maximum()) {
        stop();
        return;
    }
    slider_->setValue(slider_->value() + 1);
}

void StatePage::setFontScale(double scale)
{
    grid_->setFontScale(scale);
}

} // namespace fb
