#pragma once
// The layout tests' walk over a window (tst_layout, tst_lecture_layout): text cut in a label or
// button, widgets sticking out of their parents or lying on their siblings, and inside the charts
// (Qt Charts, the heatmap grid, the positional table, the value grids) text cut, shortened or outside the chart.
#include "views/interpret/value_grid.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/heatmap_grid.h"
#include "views/labs/positional_table.h"
#include "views/widgets/selectable_text.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QHeaderView>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QWidget>

namespace fb::layoutwalk {

inline QString describe(const QWidget *w)
{
    QString text;
    if (auto *l = qobject_cast<const QLabel *>(w)) text = l->text();
    else if (auto *b = qobject_cast<const QAbstractButton *>(w)) text = b->text();
    return QStringLiteral("%1 '%2' \"%3\" %4x%5").arg(QString::fromLatin1(w->metaObject()->className()),
        w->objectName(), text.left(40)).arg(w->width()).arg(w->height());
}

// Inside a scroll area's viewport the content may be larger than what is shown: that is scrolling,
// not clipping. (Up to root: a walk of a scroll area's content checks that content.)
inline bool insideScrolledContent(const QWidget *w, const QWidget *root = nullptr)
{
    for (const QWidget *p = w->parentWidget(); p && p != root; p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea *>(p)) return true;
    return false;
}

// Widgets whose children are drawn by the widget itself (a combo box's line edit, a scroll area's
// scroll bars): their insides are Qt's business.
inline bool isCompound(const QWidget *w)
{
    return qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractScrollArea *>(w)
        || qobject_cast<const QAbstractSpinBox *>(w);
}

// A combo box showing less than its current choice ("induction-fi").
inline void checkCombo(const QComboBox *c, QStringList &problems)
{
    if (c->currentText().isEmpty()) return;
    QStyleOptionComboBox opt;
    opt.initFrom(c);
    opt.editable = c->isEditable();
    opt.currentText = c->currentText();
    const QRect field = c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
    const int need = c->fontMetrics().horizontalAdvance(c->currentText());
    if (need > field.width())
        problems << QStringLiteral("combo box text cut (needs %1 px, has %2): '%3'").arg(need).arg(field.width()).arg(c->currentText());
}

// Cells of a table shown shorter than their text ("3.…"): a word wider than its column, or
// wrapped lines taller than the row.
inline void checkCells(const QAbstractItemView *view, QStringList &problems)
{
    const QAbstractItemModel *model = view->model();
    auto *table = qobject_cast<const QTableView *>(view);
    if (!model || !table) return;
    const QFontMetrics fm(view->font());
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    for (int r = 0; r < model->rowCount(); ++r) {
        if (table->isRowHidden(r)) continue;
        for (int c = 0; c < model->columnCount(); ++c) {
            if (table->isColumnHidden(c)) continue;
            const QString text = model->index(r, c).data(Qt::DisplayRole).toString();
            if (text.isEmpty()) continue;
            const int width = table->columnWidth(c) - margin;
            const QRect need = fm.boundingRect(QRect(0, 0, std::max(width, 1), 100000),
                                               table->wordWrap() ? Qt::TextWordWrap : 0, text);
            if (need.width() > width || need.height() > table->rowHeight(r))
                problems << QStringLiteral("table cell cut (needs %1 x %2 px, has %3 x %4): '%5'")
                                .arg(need.width()).arg(need.height()).arg(width).arg(table->rowHeight(r)).arg(text);
        }
    }
    // The header's labels too: Qt elides each line of a section that is too narrow.
    const QHeaderView *header = table->horizontalHeader();
    if (header && header->isVisible()) {
        const QFontMetrics hm(header->font());
        const int headerMargin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int c = 0; c < model->columnCount(); ++c) {
            if (table->isColumnHidden(c)) continue;
            const QString text = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            if (text.isEmpty()) continue;
            const QStringList lines = text.split(QLatin1Char('\n'));
            int wide = 0;
            for (const QString &line : lines) wide = std::max(wide, hm.horizontalAdvance(line));
            const int width = header->sectionSize(c) - headerMargin;
            const int high = int(lines.size()) * hm.height();
            if (wide > width || high > header->height())
                problems << QStringLiteral("table header cut (needs %1 x %2 px, has %3 x %4): '%5'")
                                .arg(wide).arg(high).arg(width).arg(header->height()).arg(text);
        }
    }
}

inline void checkText(const QWidget *w, QStringList &problems)
{
    if (auto *c = qobject_cast<const QComboBox *>(w)) {
        checkCombo(c, problems);
        return;
    }
    if (auto *v = qobject_cast<const QAbstractItemView *>(w)) {
        checkCells(v, problems);
        return;
    }
    if (auto *l = qobject_cast<const QLabel *>(w)) {
        if (l->text().isEmpty() || !l->pixmap().isNull()) return;
        if (l->wordWrap()) {
            const int need = l->heightForWidth(l->width());
            if (need > l->height() + 1) problems << QStringLiteral("text cut (needs %1 px high): %2").arg(need).arg(describe(w));
        } else if (l->sizeHint().width() > l->width() + 1 || l->minimumSizeHint().height() > l->height() + 1) {
            problems << QStringLiteral("text cut (needs %1 px wide): %2").arg(l->sizeHint().width()).arg(describe(w));
        }
    } else if (auto *t = qobject_cast<const fb::SelectableText *>(w)) {
        // The formula panels and tables: text laid out like a word-wrapped label's.
        if (t->text().isEmpty()) return;
        if (const int need = t->heightForWidth(t->width()); need > t->height() + 1)
            problems << QStringLiteral("text cut (needs %1 px high): %2").arg(need).arg(describe(w));
    } else if (auto *b = qobject_cast<const QAbstractButton *>(w)) {
        if (b->text().isEmpty()) return;
        if (b->sizeHint().width() > b->width() + 1)
            problems << QStringLiteral("button text cut (needs %1 px): %2").arg(b->sizeHint().width()).arg(describe(w));
    }
}

inline void walk(const QWidget *parent, QStringList &problems, const QWidget *root = nullptr)
{
    QList<const QWidget *> shown;
    for (const QObject *o : parent->children()) {
        auto *w = qobject_cast<const QWidget *>(o);
        if (!w || w->isWindow() || !w->isVisible()) continue;
        shown << w;
    }
    const bool scrolled = (parent != root && insideScrolledContent(parent, root))
        || qobject_cast<const QAbstractScrollArea *>(parent);
    for (const QWidget *w : shown) {
        if (!scrolled) {
            checkText(w, problems);
            // A table that scrolls sideways hides its last columns (the training results' status).
            if (auto *view = qobject_cast<const QAbstractItemView *>(w); view && view->horizontalScrollBar()->isVisible())
                problems << QStringLiteral("scrolls sideways: %1").arg(describe(w));
            if (!parent->rect().contains(w->geometry()))
                problems << QStringLiteral("sticks out of %1: %2 at (%3, %4)").arg(describe(parent), describe(w))
                                .arg(w->x()).arg(w->y());
        }
        if (!isCompound(w)) walk(w, problems, root);
    }
    if (scrolled) return;
    for (int i = 0; i < shown.size(); ++i)
        for (int j = i + 1; j < shown.size(); ++j)
            if (shown[i]->geometry().intersects(shown[j]->geometry()))
                problems << QStringLiteral("overlap: %1 and %2").arg(describe(shown[i]), describe(shown[j]));
}

// The scrolled parameter column is checked at its own width: nothing in it may be cut sideways.
inline void walkPanel(const QWidget *content, QStringList &problems)
{
    const QWidget *viewport = content->parentWidget();
    for (const QWidget *w : content->findChildren<const QWidget *>()) {
        if (!w->isVisible() || isCompound(w->parentWidget())) continue;
        if (viewport && w->mapTo(content, QPoint(w->width(), 0)).x() + content->x() > viewport->width() + 1)
            problems << QStringLiteral("cut at the column's right edge (%1 px wide): %2").arg(viewport->width()).arg(describe(w));
        if (auto *b = qobject_cast<const QAbstractButton *>(w); b && !b->text().isEmpty()
            && b->sizeHint().width() > b->width() + 1)
            problems << QStringLiteral("button text cut (needs %1 px): %2").arg(b->sizeHint().width()).arg(describe(w));
        if (auto *c = qobject_cast<const QComboBox *>(w)) checkCombo(c, problems);
        if (auto *l = qobject_cast<const QLabel *>(w); l && !l->wordWrap() && !l->text().isEmpty()
            && l->sizeHint().width() > l->width() + 1)
            problems << QStringLiteral("text cut (needs %1 px wide): %2").arg(l->sizeHint().width()).arg(describe(w));
        if (auto *l = qobject_cast<const QLabel *>(w); l && l->wordWrap() && !l->text().isEmpty()
            && l->heightForWidth(l->width()) > l->height() + 1)
            problems << QStringLiteral("text cut (needs %1 px high): %2").arg(l->heightForWidth(l->width())).arg(describe(w));
    }
}


// Inside every visible chart under root: Qt Charts' cut texts and short plots, and the
// custom-painted charts' texts.
inline QStringList chartProblems(const QWidget *root)
{
    QStringList found;
    for (const ChartPanel *chart : root->findChildren<ChartPanel *>()) found << chart->layoutProblems();
    for (const HeatmapGrid *grid : root->findChildren<HeatmapGrid *>()) found << grid->layoutProblems();
    for (const PositionalTable *table : root->findChildren<PositionalTable *>()) found << table->layoutProblems();
    for (const ValueGrid *grid : root->findChildren<ValueGrid *>()) found << grid->layoutProblems();
    return found;
}

} // namespace fb::layoutwalk
