#pragma once
// A lab's explanation beside (or above) its charts: a toggle that collapses it to one line and a
// body of selectable rich text that scrolls when it is longer than the room it is given.
#include <QFrame>

class QScrollArea;
class QToolButton;

namespace fb {

class SelectableText;

class ExplanationPanel : public QFrame {
    Q_OBJECT
public:
    explicit ExplanationPanel(const QString &html, QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &html);
    bool isExpanded() const { return expanded_; }
    void setExpanded(bool expanded);
    QToolButton *toggleButton() const { return toggle_; }

    // Lecture mode's larger text (1 at the desk): the panel's own fonts, which the application
    // font does not reach under its style sheet.
    void setFontScale(double scale);
    double fontScale() const { return scale_; }

    // Above the charts the body is as high as its text at the panel's width, at most maxHeight
    // (then it scrolls); beside them (maxHeight < 0) it takes all the height the panel has.
    void setBodyLimit(int maxHeight);

    // A column's width at most: the text wraps to whatever width the lab gives it, and a long
    // text's natural width must not widen the lab (the window's splitters share by size hints).
    QSize sizeHint() const override;

Q_SIGNALS:
    void expandedChanged(bool expanded);  // on every change
    void toggled(bool expanded);          // the user clicked the toggle

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitBody();

    QToolButton *toggle_ = nullptr;
    QScrollArea *body_ = nullptr;
    SelectableText *text_ = nullptr;
    bool expanded_ = true;
    int limit_ = -1;
    double textPt_ = 0.0, togglePt_ = 0.0;  // at scale 1
    double scale_ = 1.0;
};

} // namespace fb
