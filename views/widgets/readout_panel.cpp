#include "views/widgets/readout_panel.h"

#include "views/widgets/selectable_text.h"

#include <QApplication>
#include <QFontDatabase>
#include <QLabel>
#include <QVBoxLayout>

namespace fb {

ReadoutPanel::ReadoutPanel(const QString &title, QWidget *parent)
    : QWidget(parent)
{
    appPointSize_ = QApplication::font().pointSizeF();
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    outer->addWidget(heading);
    // Each row is its label above its value: the side column is narrow and long labels wrap onto
    // as many lines as they need across the whole column. (A QFormLayout with WrapAllRows sized
    // wrapped labels for its label column's width and clipped three-line labels.)
    rows_ = new QVBoxLayout;
    rows_->setSpacing(6);
    outer->addLayout(rows_);
    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setStyleSheet(QStringLiteral("color:#444;"));
    outer->addWidget(note_);
}

void ReadoutPanel::setRow(const QString &key, const QString &label, const QString &value, const QString &toolTip)
{
    auto it = values_.find(key);
    if (it == values_.end()) {
        // Selectable, word-wrapped text (a long value wraps instead of widening the fixed-width side
        // column) that changes on every frame of a drag without laying the window out again.
        auto *v = new SelectableText;
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        mono.setPointSizeF(mono.pointSizeF() * fontScale_);
        v->setFont(mono);
        auto *l = new QLabel(label);
        if (fontScale_ != 1.0) l->setFont(QApplication::font());
        labels_ << l;
        l->setWordWrap(true);
        l->setStyleSheet(QStringLiteral("color:#555;"));
        auto *row = new QVBoxLayout;
        row->setSpacing(1);
        row->addWidget(l);
        row->addWidget(v);
        rows_->addLayout(row);
        it = values_.emplace(key, v).first;
    }
    it->second->setText(value);
    if (!toolTip.isEmpty()) it->second->setToolTip(toolTip);
}

void ReadoutPanel::setFontScale(double)
{
    // The values follow their labels, which are at the application's font (lecture mode sets it
    // larger), not the charts' scale.
    fontScale_ = QApplication::font().pointSizeF() / appPointSize_;
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(mono.pointSizeF() * fontScale_);
    for (auto &[key, value] : values_) value->setFont(mono);
    for (QLabel *l : labels_) l->setFont(QApplication::font());
    note_->setFont(QApplication::font());
}

QString ReadoutPanel::value(const QString &key) const
{
    auto it = values_.find(key);
    return it == values_.end() ? QString() : it->second->text();
}

QString ReadoutPanel::note() const
{
    return note_->text();
}

void ReadoutPanel::setNote(const QString &html)
{
    note_->setText(html);
}

} // namespace fb
