#include "views/training/training_control_bar.h"

#include "views/widgets/flow_layout.h"
#include "views/widgets/steady_button.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <initializer_list>

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
    // as wide as "Start again" from the first: the row keeps its lines when a run ends
    start_ = new SteadyButton({ startText(false), startText(true) }, this);
    start_->setObjectName(QStringLiteral("start"));
    start_->setToolTip(tr("Train with the current parameters"));
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

    pace_ = new QComboBox(this);
    pace_->setObjectName(QStringLiteral("pace"));
    pace_->addItem(tr("full speed"), 0.0);
    for (int n : { 100, 30, 10, 3 }) pace_->addItem(tr("%1 steps/s").arg(n), double(n));
    pace_->addItem(tr("1 step/s"), 1.0);
    pace_->setToolTip(tr("How fast the run goes: full speed, or at most this many training steps a second "
                         "per arm, to narrate it. Works while it trains."));
    connect(pace_, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT paceChanged(pace()); });

    // Groups that belong together stay on one line; the groups wrap when the width runs out
    // (1024 px, lecture mode's large fonts) instead of being squeezed.
    const auto group = [this](std::initializer_list<QWidget *> widgets) {
        auto *g = new QWidget(this);
        auto *row = new QHBoxLayout(g);
        row->setContentsMargins(0, 0, 0, 0);
        for (QWidget *w : widgets) row->addWidget(w);
        return g;
    };
    window_->setFixedWidth(110);
    auto *flow = new FlowLayout(nullptr, 18, 4);
    flow->addWidget(group({ start_, pause_, resume_, stop_, reset_ }));
    flow->addWidget(group({ new QLabel(tr("Pace"), this), pace_ }));
    flow->addWidget(group({ new QLabel(tr("Moving average"), this), window_, windowLabel_ }));
    QWidget *ghosts = group({ ghost_, clear_ });
    ghostRow_ = static_cast<QHBoxLayout *>(ghosts->layout());
    flow->addWidget(ghosts);

    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(progress_);
    outer->addLayout(flow);
}

void TrainingControlBar::addButton(QPushButton *button)
{
    ghostRow_->addWidget(button);
}

double TrainingControlBar::pace() const
{
    return pace_->currentData().toDouble();
}

QString TrainingControlBar::startText(bool again)
{
    return again ? tr("Start again") : tr("Start");
}

void TrainingControlBar::setStartAgain(bool again)
{
    start_->setText(startText(again));
}

void TrainingControlBar::setWindowText(int window)
{
    windowLabel_->setText(window == 1 ? tr("smoothing: off") : tr("smoothing: %1 steps").arg(window));
}

} // namespace fb
