#pragma once
// The start page: every lab with its icon, title, the section of the chapter it follows and what
// it shows (core's list of labs), and where to begin. Shown on the first start and from
// Help → Start page (F1); an entry, or a lab named in "where to begin", opens that lab.
#include <QList>
#include <QScrollArea>
#include <QStringList>

class QGridLayout;
class QLabel;

namespace fb {

class StartEntry;

class StartPage : public QScrollArea {
    Q_OBJECT
public:
    explicit StartPage(QWidget *parent = nullptr);

    // The labs of a first session, in order (names in labRegistry()).
    static QStringList firstSession();

    const QList<StartEntry *> &entries() const { return entries_; }
    QLabel *beginLine() const { return begin_; }
    int columns() const { return columns_; }

    // As a lab's: the page scrolls, its content's natural size must not widen the window.
    QSize sizeHint() const override { return QSize(800, 600); }

    // From this width of the page on, the labs are listed in two columns.
    static constexpr int kTwoColumnsFrom = 880;

Q_SIGNALS:
    void labChosen(int index);  // index in labRegistry()

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange(int columns);

    QGridLayout *grid_ = nullptr;
    QLabel *begin_ = nullptr;
    QList<StartEntry *> entries_;
    int columns_ = 0;
};

} // namespace fb
