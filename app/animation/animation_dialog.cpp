#include "app/animation/animation_dialog.h"

#include "app/animation/animation.h"
#include "app/animation/animation_run.h"
#include "app/registry/lab_registry.h"
#include "views/lab/lab_view.h"
#include "views/lab/replayable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>

namespace fb {

namespace {
QSpinBox *spin(int lo, int hi, int value, const QString &suffix = {})
{
    auto *s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}
} // namespace

AnimationDialog::AnimationDialog(LabView *lab, QWidget *parent)
    : QDialog(parent)
    , lab_(lab)
{
    setWindowTitle(tr("Export animation"));
    auto *form = new QFormLayout(this);
    if (dynamic_cast<Replayable *>(lab)) {
        mode_ = new QComboBox;
        mode_->setObjectName(QStringLiteral("animationMode"));
        mode_->addItem(tr("Record the training run"), true);
        mode_->addItem(tr("Sweep a parameter"), false);
        // A sweep would draw the same single run in every frame (the lab trains once, not once per
        // value): as `fullband animate training` refuses --sweep, the item is there but greyed out.
        if (auto *items = qobject_cast<QStandardItemModel *>(mode_->model())) {
            items->item(1)->setEnabled(false);
            items->item(1)->setToolTip(tr("A training lab trains once: sweeping one of its parameters would show "
                                          "the same run in every frame."));
        }
        mode_->setToolTip(tr("Record: the current values are trained once to the end on a copy of the lab, "
                             "then frame i shows the chart at step round(i × steps / (frames − 1))."));
        form->addRow(tr("Animate"), mode_);
    }
    param_ = new QComboBox;
    if (const LabSpec *spec = labSpec(lab->name()))
        for (const ParamSpec &p : spec->params)
            if (p.kind == ParamKind::Real || p.kind == ParamKind::Integer)
                param_->addItem(QString::fromStdString(p.label), QString::fromStdString(p.key));
    form->addRow(tr("Parameter"), param_);
    from_ = new QLineEdit;
    to_ = new QLineEdit;
    scale_ = new QComboBox;
    scale_->addItem(tr("linear"), false);
    scale_->addItem(tr("logarithmic"), true);
    auto *range = new QHBoxLayout;
    range->addWidget(from_);
    range->addWidget(new QLabel(tr("to")));
    range->addWidget(to_);
    range->addWidget(scale_);
    form->addRow(tr("From"), range);

    QSettings settings;
    frames_ = spin(2, 3000, settings.value(QStringLiteral("animation/frames"), 150).toInt());
    fps_ = spin(1, 60, settings.value(QStringLiteral("animation/fps"), 30).toInt(), tr(" fps"));
    auto *timing = new QHBoxLayout;
    timing->addWidget(frames_);
    timing->addWidget(fps_);
    form->addRow(tr("Frames"), timing);
    width_ = spin(16, 8192, settings.value(QStringLiteral("animation/width"), 1600).toInt(), tr(" px"));
    height_ = spin(16, 8192, settings.value(QStringLiteral("animation/height"), 1000).toInt(), tr(" px"));
    auto *size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(height_);
    form->addRow(tr("Size"), size);
    caption_ = new QCheckBox(tr("Caption strip with the swept value"));
    caption_->setChecked(true);
    form->addRow(QString(), caption_);
    freeAxes_ = new QCheckBox(tr("Axes follow each frame (else every frame has the whole sweep's axes)"));
    freeAxes_->setObjectName(QStringLiteral("freeAxes"));
    form->addRow(QString(), freeAxes_);

    path_ = new QLineEdit;
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &AnimationDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File"), pathRow);
    // The last folder used; else Pictures where it exists, else home (a fresh account may have no Pictures).
    QString folder = settings.value(QStringLiteral("export/folder")).toString();
    if (folder.isEmpty() || !QDir(folder).exists()) {
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        if (!QDir(folder).exists()) folder = QDir::homePath();
    }
    path_->setText(QDir(folder).filePath(lab->name() + QStringLiteral("-sweep.mp4")));

    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    form->addRow(tr("Progress"), progress_);
    status_ = new QLabel;
    status_->setWordWrap(true);
    form->addRow(status_);

    auto *buttons = new QDialogButtonBox;
    export_ = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    cancel_ = buttons->addButton(QDialogButtonBox::Cancel);
    connect(export_, &QPushButton::clicked, this, &AnimationDialog::startExport);
    connect(cancel_, &QPushButton::clicked, this, &AnimationDialog::reject);
    form->addRow(buttons);

    connect(param_, &QComboBox::currentIndexChanged, this, &AnimationDialog::parameterChanged);
    parameterChanged();
    // The lab's own sweep where it names one (the decay bound: the RoPE base, 100 to 10^6, log).
    if (const LabSpec *spec = labSpec(lab->name()); spec && !spec->sweep.empty()) {
        Sweep proposed;
        if (parseSweep(*spec, QString::fromStdString(spec->sweep), proposed).isEmpty()) {
            param_->setCurrentIndex(param_->findData(QString::fromStdString(proposed.key)));
            from_->setText(QString::fromStdString(formatNumber(proposed.from)));
            to_->setText(QString::fromStdString(formatNumber(proposed.to)));
            scale_->setCurrentIndex(proposed.log ? 1 : 0);
        }
    }
    if (mode_) {
        connect(mode_, &QComboBox::currentIndexChanged, this, &AnimationDialog::modeChanged);
        modeChanged();
    }
}

bool AnimationDialog::isRecording() const
{
    return mode_ && mode_->currentData().toBool();
}

void AnimationDialog::setRecording(bool on)
{
    // Only a lab that trains records; its sweep item is disabled (see the constructor).
    if (mode_ && on) mode_->setCurrentIndex(0);
}

void AnimationDialog::modeChanged()
{
    const bool record = isRecording();
    for (QWidget *w : std::initializer_list<QWidget *> { param_, from_, to_, scale_, freeAxes_ }) w->setEnabled(!record);
    caption_->setText(record ? tr("Caption strip with the step (\"step s of S\")") : tr("Caption strip with the swept value"));
    // The file name follows the mode while it is still the suggested one.
    const QFileInfo file(path_->text());
    const QString sweepName = lab_->name() + QStringLiteral("-sweep.mp4"), runName = lab_->name() + QStringLiteral("-run.mp4");
    if (file.fileName() == sweepName || file.fileName() == runName)
        path_->setText(file.dir().filePath(record ? runName : sweepName));
}

AnimationDialog::~AnimationDialog() = default;

void AnimationDialog::parameterChanged()
{
    const LabSpec *spec = labSpec(lab_->name());
    const ParamSpec *p = spec ? spec->find(param_->currentData().toString().toStdString()) : nullptr;
    if (!p) return;
    // The slider's whole range and scale, except for the RoPE base: the chapter's 100 to 10^6.
    double lo = p->min, hi = p->max;
    if (p->key == "base") { lo = std::max(lo, 100.0); hi = std::min(hi, 1e6); }
    from_->setText(QString::fromStdString(formatNumber(lo)));
    to_->setText(QString::fromStdString(formatNumber(hi)));
    scale_->setCurrentIndex(p->logScale ? 1 : 0);
    param_->setToolTip(QString::fromStdString(p->help + " Valid: " + rangeText(*p) + "."));
}

QString AnimationDialog::sweepText() const
{
    return QStringLiteral("%1=%2:%3%4").arg(param_->currentData().toString(), from_->text().trimmed(),
                                             to_->text().trimmed(),
                                             scale_->currentData().toBool() ? QStringLiteral(":log") : QString());
}

void AnimationDialog::browse()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export animation"), path_->text(),
                                                      tr("MP4 video (*.mp4);;GIF animation (*.gif)"));
    if (file.isEmpty()) return;
    const AnimationOutput kind = animationOutputOf(file);
    path_->setText(kind == AnimationOutput::Mp4 || kind == AnimationOutput::Gif ? file : file + QStringLiteral(".mp4"));
}

void AnimationDialog::setRunning(bool running)
{
    for (QWidget *w : std::initializer_list<QWidget *> { frames_, fps_, width_, height_, caption_, path_, export_ })
        w->setEnabled(!running);
    if (mode_) mode_->setEnabled(!running);
    for (QWidget *w : std::initializer_list<QWidget *> { param_, from_, to_, scale_, freeAxes_ })
        w->setEnabled(!running && !isRecording());
}

void AnimationDialog::startExport()
{
    if (run_) return;
    const LabSpec *spec = labSpec(lab_->name());
    AnimationJob job;
    job.sweep.frames = frames_->value();
    job.recording = isRecording();
    if (auto *r = dynamic_cast<Replayable *>(lab_); job.recording && r) job.chart = r->recordedChart();
    QString err = !spec ? tr("unknown lab") : job.recording ? QString() : parseSweep(*spec, sweepText(), job.sweep);
    job.fps = fps_->value();
    job.size = QSize(width_->value(), height_->value());
    job.caption = caption_->isChecked();
    job.fixedAxes = !freeAxes_->isChecked();
    job.out = path_->text().trimmed();
    const AnimationOutput kind = animationOutputOf(job.out);
    if (err.isEmpty() && kind != AnimationOutput::Mp4 && kind != AnimationOutput::Gif)
        err = tr("the file must end in .mp4 or .gif, got '%1'").arg(job.out);
    if (err.isEmpty() && !QFileInfo(job.out).absoluteDir().exists())
        err = tr("folder '%1' does not exist").arg(QFileInfo(job.out).absolutePath());
    if (err.isEmpty() && kind == AnimationOutput::Mp4 && (job.size.width() % 2 || job.size.height() % 2))
        err = tr("MP4 needs an even width and height, got %1x%2").arg(job.size.width()).arg(job.size.height());
    if (!err.isEmpty()) {
        status_->setText(err.replace(QStringLiteral("--sweep "), QString()));
        lastError_ = err;
        Q_EMIT exportFinished(err);
        return;
    }
    QSettings s;
    s.setValue(QStringLiteral("animation/frames"), frames_->value());
    s.setValue(QStringLiteral("animation/fps"), fps_->value());
    s.setValue(QStringLiteral("animation/width"), width_->value());
    s.setValue(QStringLiteral("animation/height"), height_->value());

    // A recording trains its own copy of the lab (with the same values and ghosts): the visible lab
    // and its run stay as they are.
    run_ = new AnimationRun(lab_->name(), lab_->values(), job, this, job.recording ? lab_->extraState() : QJsonObject());
    progress_->setRange(0, job.sweep.frames);
    progress_->setValue(0);
    progress_->setFormat(tr("%v / %m frames"));
    status_->setText(job.recording ? tr("Training the run…") : tr("Rendering and encoding…"));
    setRunning(true);
    connect(run_, &AnimationRun::training, progress_, [this](int done, int total) {
        progress_->setFormat(tr("training: %v / %m steps"));
        progress_->setRange(0, std::max(1, total));
        progress_->setValue(std::min(done, total));
    });
    connect(run_, &AnimationRun::progress, progress_, [this](int done, int total) {
        if (done == 1) status_->setText(tr("Rendering and encoding…"));
        progress_->setFormat(tr("%v / %m frames"));
        progress_->setRange(0, total);
        progress_->setValue(done);
    });
    connect(run_, &AnimationRun::finished, this, [this, out = job.out](const QString &error) {
        run_->deleteLater();
        run_ = nullptr;
        setRunning(false);
        lastError_ = error;
        status_->setText(error.isEmpty() ? tr("Written: %1").arg(out) : tr("Not written: %1").arg(error));
        if (error.isEmpty()) cancel_->setText(tr("Close"));
        Q_EMIT exportFinished(error);
    });
    run_->start();
}

void AnimationDialog::reject()
{
    // Cancel stops a running export first (nothing is left behind); a second Cancel closes.
    if (run_) {
        run_->cancel();
        return;
    }
    QDialog::reject();
}

} // namespace fb
