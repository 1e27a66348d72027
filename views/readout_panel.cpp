#include "views/readout_panel.h"

#include "views/selectable_text.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace fb {

ReadoutPanel::ReadoutPanel(const QString &title, QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    outer->addWidget(heading);
    form_ = new QFormLayout;
    form_->setLabelAlignment(Qt::AlignLeft);
    // Label above value: the side column is narrow and long labels would otherwise be clipped.
    form_->setRowWrapPolicy(QFormLayout::WrapAllRows);
    outer->addLayout(form_);
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
        v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        auto *l = new QLabel(label);
        l->setWordWrap(true);
        l->setStyleSheet(QStringLiteral("color:#555;"));
        form_->addRow(l, v);
        it = values_.emplace(key, v).first;
    }
    it->second->setText(value);
    if (!toolTip.isEmpty()) it->second->setToolTip(toolTip);
    // Qt's form layout can leave a wrapped row laid out for an earlier width (its label squeezed
    // onto fewer lines than it needs) until it lays out again. A QLabel value made it do that on
    // every change; these values only ask when they need another height, so a row that does not
    // fit its text asks here.
    auto misfit = [](const QWidget *w) {
        return w && w->isVisible() && w->width() > 0 && w->height() != w->heightForWidth(w->width());
    };
    if (misfit(it->second) || misfit(form_->labelForField(it->second))) form_->invalidate();
}

QString ReadoutPanel::value(const QString &key) const
{
    auto it = values_.find(key);
    return it == values_.end() ? QString() : it->second->text();
}

void ReadoutPanel::setNote(const QString &html)
{
    note_->setText(html);
}

} // namespace fb
