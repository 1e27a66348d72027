#include "app/window/start_entry.h"

#include "app/registry/lab_registry.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>

namespace fb {

namespace {

QLabel *textLabel(const QString &text, const QString &style)
{
    auto *l = new QLabel(text);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    l->setStyleSheet(style);
    l->setAttribute(Qt::WA_TransparentForMouseEvents);
    return l;
}

} // namespace

StartEntry::StartEntry(const LabEntry &lab, bool beginHere, QWidget *parent)
    : QFrame(parent)
    , name_(lab.name)
{
    const LabSpec &spec = lab.spec();
    setObjectName(QStringLiteral("startEntry"));
    setCursor(Qt::PointingHandCursor);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Open %1 (%2)").arg(lab.title, QString::fromStdString(spec.source)));
    setStyleSheet(QStringLiteral(
        "QFrame#startEntry { background:white; border:1px solid #d5dbe6; border-radius:6px; }"
        "QFrame#startEntry:hover, QFrame#startEntry:focus { background:#f1f5ff; border:1px solid #3b6fd8; }"));

    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(12, 10, 12, 10);
    row->setSpacing(12);
    auto *icon = new QLabel;
    icon->setPixmap(QIcon(lab.icon).pixmap(40, 40));
    icon->setFixedSize(40, 40);
    icon->setAttribute(Qt::WA_TransparentForMouseEvents);
    row->addWidget(icon, 0, Qt::AlignTop);

    auto *text = new QVBoxLayout;
    text->setSpacing(2);
    auto *titleRow = new QHBoxLayout;
    QLabel *title = textLabel(lab.title, QStringLiteral("font-weight:bold; color:#14213d;"));
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    title->setFont(big);
    titleRow->addWidget(title, 1);
    if (beginHere) {
        QLabel *tag = textLabel(tr("begin here"), QStringLiteral("color:white; background:#3b6fd8; "
                                                                 "border-radius:3px; padding:1px 6px;"));
        tag->setWordWrap(false);
        titleRow->addWidget(tag, 0, Qt::AlignTop);
    }
    text->addLayout(titleRow);
    text->addWidget(textLabel(QString::fromStdString(spec.section), QStringLiteral("color:#3b5b8f;")));
    text->addWidget(textLabel(QString::fromStdString(spec.summary), QStringLiteral("color:#333;")));
    text->addStretch(1);
    row->addLayout(text, 1);
}

void StartEntry::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) event->accept();  // the release comes here, then
    else QFrame::mousePressEvent(event);
}

void StartEntry::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())) {
        Q_EMIT clicked();
        return;
    }
    QFrame::mouseReleaseEvent(event);
}

void StartEntry::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        Q_EMIT clicked();
        return;
    default:
        QFrame::keyPressEvent(event);
    }
}

} // namespace fb
