#include "app/main_window.h"

#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStackedWidget>

namespace fb {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("FullBand"));
    sidebar_ = new QListWidget;
    stack_ = new QStackedWidget;
    const QStringList labs { QStringLiteral("Attention"), QStringLiteral("RoPE invariance"),
                             QStringLiteral("RoPE decay bound"), QStringLiteral("Channel capacity"),
                             QStringLiteral("Latent-feedback training"), QStringLiteral("Compute accounting"),
                             QStringLiteral("Costs") };
    for (const QString &lab : labs) {
        sidebar_->addItem(lab);
        stack_->addWidget(new QLabel(lab));
    }
    auto *split = new QSplitter;
    split->addWidget(sidebar_);
    split->addWidget(stack_);
    setCentralWidget(split);
    connect(sidebar_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    sidebar_->setCurrentRow(0);
    resize(1280, 800);
}

} // namespace fb
