#include "views/widgets/selectable_text.h"

#include <QAbstractTextDocumentLayout>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QTextDocument>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

QSize ceilSize(const QSizeF &s)
{
    return QSize(int(std::ceil(s.width())), int(std::ceil(s.height())));
}

} // namespace

SelectableText::SelectableText(QWidget *parent)
    : QFrame(parent)
    , doc_(new QTextDocument(this))
    , measure_(new QTextDocument(this))
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setCursor(Qt::IBeamCursor);
    configure(doc_);
    configure(measure_);
}

SelectableText::~SelectableText() = default;

bool SelectableText::isRich() const
{
    return format_ == Qt::RichText || (format_ == Qt::AutoText && Qt::mightBeRichText(text_));
}

// The document settings of a word-wrapped QLabel: its font, no margin, word wrap, its alignment.
void SelectableText::configure(QTextDocument *doc) const
{
    doc->setUndoRedoEnabled(false);
    doc->setDefaultFont(font());
    QTextOption option = doc->defaultTextOption();
    option.setAlignment(alignment_);
    option.setWrapMode(breakLongWords_ ? QTextOption::WrapAtWordBoundaryOrAnywhere : QTextOption::WordWrap);
    doc->setDefaultTextOption(option);
    doc->setDocumentMargin(0);  // kept when the text is replaced (a root frame format would not be)
}

void SelectableText::fill(QTextDocument *doc) const
{
    if (isRich()) doc->setHtml(text_);
    else doc->setPlainText(text_);
}

void SelectableText::setText(const QString &text)
{
    if (text == text_) return;
    text_ = text;
    relayout();
}

void SelectableText::setTextFormat(Qt::TextFormat format)
{
    if (format == format_) return;
    format_ = format;
    relayout();
}

void SelectableText::setMargin(int margin)
{
    if (margin == margin_) return;
    margin_ = margin;
    invalidateSizes();
    updateGeometry();
    update();
}

void SelectableText::setBreakLongWords(bool on)
{
    if (on == breakLongWords_) return;
    breakLongWords_ = on;
    configure(doc_);
    measureStale_ = true;
    invalidateSizes();
    updateGeometry();
    update();
}

void SelectableText::setAlignment(Qt::Alignment alignment)
{
    if (alignment == alignment_) return;
    alignment_ = alignment;
    configure(doc_);
    measureStale_ = true;
    invalidateSizes();
    updateGeometry();
    update();
}

void SelectableText::relayout()
{
    selection_ = QTextCursor();
    // Laid out once, at the width it is painted at (which also answers heightForWidth there).
    const int textWidth = documentRect().width();
    if (doc_->textWidth() != textWidth) doc_->setTextWidth(textWidth);
    const int oldHeight = heightForWidth(width());
    fill(doc_);
    measureStale_ = true;
    invalidateSizes();
    // The layouts around only need asking again when the text needs another height: new numbers in
    // the same lines leave the geometry as it is. (Size queries after this get fresh answers.)
    if (heightForWidth(width()) != oldHeight || !isVisible()) updateGeometry();
    update();
}

QString SelectableText::selectedText() const
{
    return selection_.hasSelection() ? selection_.selection().toPlainText() : QString();
}

void SelectableText::invalidateSizes()
{
    sizeHint_.reset();
    minimumSizeHint_.reset();
    heightForWidth_.clear();
}

QSize SelectableText::frameExtra() const
{
    const QMargins m = contentsMargins();
    return QSize(2 * margin_ + m.left() + m.right(), 2 * margin_ + m.top() + m.bottom());
}

QSize SelectableText::measure(int textWidth) const
{
    if (measureStale_) {
        measure_->setPageSize(QSizeF());  // no layout while the text is replaced
        configure(measure_);
        fill(measure_);
        measureStale_ = false;
    }
    if (textWidth < 0) measure_->adjustSize();
    else measure_->setTextWidth(textWidth);
    return ceilSize(measure_->size());
}

// The space a QLabel leaves around word-wrapped text: the margin and the indent a frame adds to a
// label without margin (horizontal, vertical), without the frame and contents margins.
QSize SelectableText::textExtra() const
{
    int hextra = 2 * margin_, vextra = hextra;
    const int indent = frameWidth() ? fontMetrics().horizontalAdvance(QLatin1Char('x')) - 2 * margin_ : -1;
    if (indent > 0) {
        if (alignment_ & (Qt::AlignLeft | Qt::AlignRight)) hextra += indent;
        if (alignment_ & (Qt::AlignTop | Qt::AlignBottom)) vextra += indent;
    }
    return QSize(hextra, vextra);
}

// The frame and contents margins (horizontal, vertical)
QSize SelectableText::chrome() const
{
    return frameExtra() - QSize(2 * margin_, 2 * margin_);
}

// The width the text is laid out at in a widget `width` wide (at least its minimum width)
int SelectableText::textWidthFor(int width) const
{
    if (minimumWidth() > 0) width = std::max(width, minimumWidth());
    return std::max(width - textExtra().width() - chrome().width(), 0);
}

// The document laid out at textWidth, its layout complete: at the width on screen the painted one
// already is.
const QTextDocument *SelectableText::laidOut(int textWidth) const
{
    if (doc_->textWidth() != textWidth) {
        measure(textWidth);
        return measure_;
    }
    doc_->size();  // finishes a layout that QTextDocument may have left for later
    return doc_;
}

// QLabel's size of word-wrapped text laid out at a width (< 0: its preferred shape, or its minimum
// width when it has one), with the margin, the indent a frame adds to a label without margin, and
// the frame.
QSize SelectableText::sizeForWidth(int width) const
{
    if (minimumWidth() > 0) width = std::max(width, minimumWidth());
    const QSize text = width < 0 ? measure(-1) : ceilSize(laidOut(textWidthFor(width))->size());
    return (text + textExtra() + chrome()).expandedTo(minimumSize());
}

int SelectableText::wholeLinesHeight(int width, int most) const
{
    const int full = heightForWidth(width);
    if (full <= most) return full;
    // the text's top in the widget, as painted (a text taller than the widget starts there in any alignment)
    const int top = documentRect().top();
    const QTextDocument *doc = laidOut(textWidthFor(width));
    int best = 0;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextLayout *layout = block.layout();
        if (!layout) continue;
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const int bottom = top + int(std::ceil(layout->position().y() + line.y() + line.height()));
            if (bottom > most) return best;
            best = bottom;
        }
    }
    return best;
}

QSize SelectableText::sizeHint() const
{
    ensurePolished();
    if (!sizeHint_) sizeHint_ = sizeForWidth(-1);
    return *sizeHint_;
}

QSize SelectableText::minimumSizeHint() const
{
    ensurePolished();
    if (!minimumSizeHint_) {
        // The narrowest the text gets (its widest word), and its height on one line at most.
        minimumSizeHint_ = QSize(sizeForWidth(0).width(), std::min(sizeForWidth(QWIDGETSIZE_MAX).height(), sizeHint().height()));
    }
    return *minimumSizeHint_;
}

int SelectableText::heightForWidth(int width) const
{
    ensurePolished();
    if (auto it = heightForWidth_.find(width); it != heightForWidth_.end()) return it->second;
    const int height = sizeForWidth(width).height();
    heightForWidth_.emplace(width, height);
    return height;
}

QRect SelectableText::documentRect() const
{
    QRect r = contentsRect().adjusted(margin_, margin_, -margin_, -margin_);
    const int indent = frameWidth() ? fontMetrics().horizontalAdvance(QLatin1Char('x')) / 2 - margin_ : -1;
    if (indent > 0) {
        if (alignment_ & Qt::AlignLeft) r.setLeft(r.left() + indent);
        if (alignment_ & Qt::AlignRight) r.setRight(r.right() - indent);
        if (alignment_ & Qt::AlignTop) r.setTop(r.top() + indent);
        if (alignment_ & Qt::AlignBottom) r.setBottom(r.bottom() - indent);
    }
    return r;
}

QRectF SelectableText::layoutRect() const
{
    const QRectF r = documentRect();
    const double height = doc_->documentLayout()->documentSize().height();
    double y = 0.0;
    if (alignment_ & Qt::AlignVCenter) y = std::max((r.height() - height) / 2.0, 0.0);
    else if (alignment_ & Qt::AlignBottom) y = std::max(r.height() - height, 0.0);
    return QRectF(r.x(), r.y() + y, r.width(), r.height());
}

void SelectableText::layoutForPaint() const
{
    const int width = documentRect().width();
    if (doc_->textWidth() != width) doc_->setTextWidth(width);
}

void SelectableText::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);  // the frame, if any
    layoutForPaint();
    QPainter painter(this);
    const QRect r = layoutRect().toAlignedRect();
    painter.translate(r.topLeft());
    painter.setClipRect(QRect(QPoint(0, 0), r.size()));
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    if (foregroundRole() != QPalette::Text && isEnabled())
        context.palette.setColor(QPalette::Text, context.palette.color(foregroundRole()));
    if (selection_.hasSelection()) {
        // As a QLabel without focus shows its selection.
        QAbstractTextDocumentLayout::Selection s;
        s.cursor = selection_;
        s.format.setBackground(context.palette.brush(QPalette::Inactive, QPalette::Highlight));
        s.format.setForeground(context.palette.brush(QPalette::Inactive, QPalette::HighlightedText));
        context.selections << s;
    }
    doc_->documentLayout()->draw(&painter, context);
}

void SelectableText::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        doc_->setDefaultFont(font());
        measureStale_ = true;
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        invalidateSizes();
        updateGeometry();
        update();
    }
}

// Selection with the mouse, as a QLabel with selectable text: press and drag, double-click a word.
int SelectableText::hitTest(const QPoint &pos) const
{
    layoutForPaint();
    const QPointF at = QPointF(pos) - layoutRect().toAlignedRect().topLeft();
    return doc_->documentLayout()->hitTest(at, Qt::FuzzyHit);
}

void SelectableText::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) return QFrame::mousePressEvent(event);
    const int at = hitTest(event->position().toPoint());
    selection_ = QTextCursor(doc_);
    if (at >= 0) selection_.setPosition(at);
    update();
}

void SelectableText::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton) || selection_.isNull()) return QFrame::mouseMoveEvent(event);
    const int at = hitTest(event->position().toPoint());
    if (at >= 0 && at != selection_.position()) {
        selection_.setPosition(at, QTextCursor::KeepAnchor);
        update();
    }
}

void SelectableText::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) return QFrame::mouseReleaseEvent(event);
    QClipboard *clipboard = QGuiApplication::clipboard();
    if (selection_.hasSelection() && clipboard->supportsSelection())
        clipboard->setText(selectedText(), QClipboard::Selection);
}

void SelectableText::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) return QFrame::mouseDoubleClickEvent(event);
    const int at = hitTest(event->position().toPoint());
    if (at < 0) return;
    selection_ = QTextCursor(doc_);
    selection_.setPosition(at);
    selection_.select(QTextCursor::WordUnderCursor);
    update();
}

void SelectableText::selectAll()
{
    selection_ = QTextCursor(doc_);
    selection_.select(QTextCursor::Document);
    update();
}

void SelectableText::copySelection() const
{
    if (selection_.hasSelection()) QGuiApplication::clipboard()->setText(selectedText());
}

void SelectableText::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *copy = menu.addAction(tr("&Copy"), this, &SelectableText::copySelection);
    copy->setEnabled(selection_.hasSelection());
    menu.addAction(tr("Select All"), this, &SelectableText::selectAll);
    menu.exec(event->globalPos());
}

} // namespace fb
