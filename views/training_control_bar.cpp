#include "views/training_control_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

namespace fb {

TrainingControlBar::TrainingControlBar(QWidget *parent)
    : QWidget(parent)
{
    auto makeButton = [this](const QString &text, const QString &name, const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(tip);
        return b;
    };
    start_ = makeButton(tr("Start"), QStringLiteral("start"), tr("Train with the current parameters"));
    pause_ = makeButton(tr("Pause"), QStringLiteral("pause"), tr("Hold every arm after its current step"));
    resume_ = makeButton(tr("Resume"), QStringLiteral("resume"), tr("Continue a paused training"));
    stop_ = makeButton(tr("Stop"), QStringLiteral("stop"), tr("End the training now; the table shows it as cancelled"));
    reset_ = makeButton(tr("Reset"), QStringLiteral("reset"), tr("Stop, and clear the curves, the progress and the results"));
    ghost_ = makeButton(tr("Keep as ghost"), QStringLiteral("ghost"),
                        tr("Keep this run's curves, labelled, to compare with the next runs (k = 1, 2, 3, seeds ...)"));
    clear_ = makeButton(tr("Clear ghosts"), QStringLiteral("clear"), tr("Remove every kept curve"));

    progress_ = new QProgressBar(this);
    progress_->setFormat(tr("%v / %m steps"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMinimumWidth(120);
    progress_->setToolTip(tr("Training steps done, over all arms of the run"));

    window_ = new QSlider(Qt::Horizontal, this);
    window_->setRange(1, 101);
    window_->setValue(15);
    window_->setToolTip(tr("Moving-average window of the smoothed curves (the chapter uses 15 steps)"));
    windowLabel_ = new QLabel(this);
    windowLabel_->setMinimumWidth(windowLabel_->fontMetrics().horizontalAdvance(tr("smoothing: 101 steps")));
    setWindowText(window_->value());
    connect(window_, &QSlider::valueChanged, this, [this](int w) {
        setWindowText(w);
        Q_EMIT windowChanged(w);
    });

    // Three narrow rows rather than two wide ones: beside the sidebar and the parameters, a
    // 1024-pixel projector leaves the chart column about 400 pixels.
    auto *runRow = new QHBoxLayout;
    for (QPushButton *b : { start_, pause_, resume_, stop_, reset_ }) runRow->addWidget(b);
    runRow->addStretch(1);

    auto *viewRow = new QHBoxLayout;
    window_->setMinimumWidth(60);
    viewRow->addWidget(window_, 1);
    viewRow->addWidget(windowLabel_);
    viewRow->addSpacing(8);
    viewRow->addWidget(ghost_);
    viewRow->addWidget(clear_);

    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(4);
    outer->addLayout(runRow);
    outer->addWidget(progress_);
    outer->addLayout(viewRow);
}

void TrainingControlBar::setWindowText(int window)
{
    windowLabel_->setText(window == 1 ? tr("smoothing: off") : tr("smoothing: %1 steps").arg(window));
}

} // namespace fb
