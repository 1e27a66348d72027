#include "app/window/model_actions.h"

#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "app/window/toast.h"
#include "views/training/transformer_view.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <stdexcept>

namespace fb {

namespace {

const QString kLab = QStringLiteral("transformer");

} // namespace

ModelActions::ModelActions(MainWindow *window)
    : QObject(window)
    , window_(window)
{
    timer_ = new QTimer(this);
    timer_->setInterval(30);
    connect(timer_, &QTimer::timeout, this, &ModelActions::poll);
    connect(this, &ModelActions::finished, this, [this](const QString &error) { window_->report(tr("Model file"), error); });
}

ModelActions::~ModelActions() = default;  // a save or an open under way is joined

void ModelActions::addTo(QMenu *file)
{
    file->addAction(tr("Open &model…"), this, &ModelActions::openDialog);
    file->addAction(tr("Save mo&del…"), this, &ModelActions::saveDialog);
}

TransformerView *ModelActions::transformer() const
{
    const int index = labIndex(kLab);
    return index < 0 ? nullptr : qobject_cast<TransformerView *>(window_->lab(index));
}

QString ModelActions::saveModel(const QString &path)
{
    if (busy()) return tr("a model file is being read or written: wait for it");
    TransformerView *view = transformer();
    std::optional<SavedModel> model = view ? view->modelToSave() : std::nullopt;
    if (!model)
        return tr("no trained model to save: train the tiny transformer (or stop its training) first");
    // The copy goes to the run's thread, which encodes and writes it all or nothing.
    auto copy = std::make_shared<SavedModel>(std::move(*model));
    path_ = path;
    save_ = std::make_unique<SaveRun>([copy, file = path.toStdString()](RunControl &, SaveRun::Outbox &) {
        if (const std::string err = ModelFile::save(file, copy->model, copy->run, copy->replay); !err.empty())
            throw std::runtime_error(err);
        return 0;
    });
    timer_->start();
    return {};
}

QString ModelActions::applySlide(const QString &modelPath, int replayStep, const QString &textPath)
{
    if (!modelPath.isEmpty()) return openModel(modelPath, replayStep, textPath);
    TransformerView *view = transformer();
    if (view && replayStep >= 0) view->holdReplayAt(replayStep);
    return {};
}

QString ModelActions::openModel(const QString &path, int replayStep, const QString &textPath)
{
    if (busy()) return tr("a model file is being read or written: wait for it");
    path_ = path;
    replayStep_ = replayStep;
    textPath_ = textPath;
    open_ = std::make_unique<OpenRun>([file = path.toStdString()](RunControl &, OpenRun::Outbox &) {
        auto saved = std::make_shared<SavedModel>();
        if (const std::string err = ModelFile::load(file, *saved); !err.empty()) throw std::runtime_error(err);
        return saved;
    });
    timer_->start();
    return {};
}

void ModelActions::poll()
{
    if (save_ && save_->ended()) {
        const SaveRun::Taken t = save_->take();
        save_.reset();  // ended: joins at once
        if (t.error.empty()) window_->toast()->showText(tr("Saved the model to %1").arg(path_), 5000);
        done(QString::fromStdString(t.error));
    }
    if (open_ && open_->ended()) {
        OpenRun::Taken t = open_->take();
        open_.reset();
        TransformerView *view = transformer();
        if (t.error.empty() && t.result && *t.result && view) {
            window_->showLab(labIndex(kLab));
            view->openSaved(std::move(**t.result), QFileInfo(path_).absoluteFilePath(), textPath_.toStdString());
            if (replayStep_ >= 0) view->holdReplayAt(replayStep_);
        }
        done(QString::fromStdString(t.error));
    }
}

void ModelActions::done(const QString &error)
{
    if (!busy()) timer_->stop();
    Q_EMIT finished(error);
}

void ModelActions::saveDialog()
{
    QSettings settings;
    const QString start = QDir(settings.value(QStringLiteral("models/folder"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString())
        .filePath(QStringLiteral("model") + QString::fromLatin1(ModelFile::kSuffix));
    if (!transformer() || !transformer()->modelToSave()) {
        window_->report(tr("Save model"), saveModel(QString()));
        return;
    }
    QString path = QFileDialog::getSaveFileName(window_, tr("Save model"), start, tr("FullBand models (*.fbmodel)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1String(ModelFile::kSuffix))) path += QLatin1String(ModelFile::kSuffix);
    settings.setValue(QStringLiteral("models/folder"), QFileInfo(path).absolutePath());
    window_->report(tr("Save model"), saveModel(path));
}

void ModelActions::openDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open model"),
        settings.value(QStringLiteral("models/folder")).toString(),
        tr("FullBand models (*.fbmodel);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("models/folder"), QFileInfo(path).absolutePath());
    window_->report(tr("Open model"), openModel(path));
}

} // namespace fb
