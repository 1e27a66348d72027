#pragma once
// A formula panel or other selectable text that scrolls when the window leaves it less height than
// its text needs (all of the costs formulas at 1024 x 768), and otherwise asks for exactly that
// height, as the text itself would: a layout gives it its whole text whenever there is room.
#include <QScrollArea>

namespace fb {

class SelectableText;

class ScrolledText : public QScrollArea {
    Q_OBJECT
public:
    explicit ScrolledText(SelectableText *text, QWidget *parent = nullptr);

    SelectableText *text() const { return text_; }

    // The whole text's height at a width. (Not a height-for-width widget: a layout would take that
    // height as its minimum too, and nothing would scroll.)
    int heightForWidth(int width) const override;
    // The whole text at today's width (at its preferred width before it has one).
    QSize sizeHint() const override;
    // As narrow as the text's widest word; as high as the whole text at today's width, up to a
    // share of the screen's height (the rest scrolls), so that the charts beside keep room too.
    QSize minimumSizeHint() const override;

    // The most of the screen's height the text holds on to before it scrolls.
    static constexpr double kMinimumShare = 0.35;
    // Lines of text kept in view however low the screen.
    static constexpr int kMinimumLines = 4;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    int chromeWidth() const;

    SelectableText *text_ = nullptr;
};

} // namespace fb
