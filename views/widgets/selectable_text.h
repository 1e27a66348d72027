#pragma once
// A block of selectable, word-wrapped text (plain or rich) that looks, sizes and selects like a
// QLabel with setWordWrap(true) and Qt::TextSelectableByMouse, for text that changes on every
// frame of a slider drag (the labs' figures and formulas).
//
// Such a QLabel lays its text document out again for every size query and every paint, and asks
// the window to lay itself out again on every change: for a table of formulas that was more than
// the rest of the frame. This widget keeps its own QTextDocument, lays it out once per change and
// once per width, caches the sizes the layouts ask for, and asks for a new layout only when the
// text needs another height at its width.
#include <QFrame>
#include <QTextCursor>

#include <map>
#include <optional>

class QTextDocument;

namespace fb {

class SelectableText : public QFrame {
    Q_OBJECT
public:
    explicit SelectableText(QWidget *parent = nullptr);
    ~SelectableText() override;

    // As QLabel::setText with Qt::AutoText (rich text when Qt::mightBeRichText says so) unless
    // setTextFormat chose plain or rich text.
    void setText(const QString &text);
    QString text() const { return text_; }
    void setTextFormat(Qt::TextFormat format);
    // Space between the frame and the text on every side, as QLabel::setMargin.
    void setMargin(int margin);
    // Horizontal alignment of the lines and vertical alignment of the block (QLabel's default:
    // left, vertically centred).
    void setAlignment(Qt::Alignment alignment);
    // Words wider than the text's width are broken anywhere instead of sticking out (a narrow
    // column of prose at a projector's size: "qᵀR_offset k"); off by default, as in a QLabel.
    void setBreakLongWords(bool on);
    // The selected text (empty when nothing is selected).
    QString selectedText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // The height that shows the text from its top down to the end of its last line that ends within
    // `most` pixels, at `width` (the frame and the margin above included): heightForWidth(width) when
    // all of it fits, 0 when not even the first line does. A view that scrolls the text cuts no line
    // in half at this height.
    int wholeLinesHeight(int width, int most) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    bool isRich() const;
    void fill(QTextDocument *doc) const;
    void configure(QTextDocument *doc) const;
    void invalidateSizes();
    void relayout();
    QSize frameExtra() const;
    QSize textExtra() const;
    QSize chrome() const;
    int textWidthFor(int width) const;
    const QTextDocument *laidOut(int textWidth) const;
    // The document's size laid out at textWidth (< 0: QTextDocument::adjustSize()), measured on a
    // second document so that the one on screen keeps its layout.
    QSize measure(int textWidth) const;
    QSize sizeForWidth(int width) const;
    QRect documentRect() const;
    QRectF layoutRect() const;
    void layoutForPaint() const;
    int hitTest(const QPoint &pos) const;
    void copySelection() const;
    void selectAll();

    QString text_;
    Qt::TextFormat format_ = Qt::AutoText;
    int margin_ = 0;
    Qt::Alignment alignment_ = Qt::AlignLeft | Qt::AlignVCenter;
    bool breakLongWords_ = false;
    QTextDocument *doc_ = nullptr;      // what is painted, laid out at the widget's width
    QTextDocument *measure_ = nullptr;  // the same text, for size queries at other widths
    mutable bool measureStale_ = true;  // measure_ still holds an older text or font
    QTextCursor selection_;
    // Cached size queries, cleared when the text, the font or the margins change.
    mutable std::optional<QSize> sizeHint_, minimumSizeHint_;
    mutable std::map<int, int> heightForWidth_;
};

} // namespace fb
