#pragma once
// A layout that places its items left to right and wraps to a new line when the width runs out
// (Qt's flow layout example, trimmed). Rows of controls stay whole at 1024 px and in lecture mode's
// large fonts instead of being squeezed until their texts are cut or overlap.
#include <QLayout>
#include <QList>

namespace fb {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget *parent = nullptr, int hSpacing = 8, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem *itemAt(int index) const override { return items_.value(index); }
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    // Lays the items out in rect (or only measures); returns the height used.
    int arrange(const QRect &rect, bool apply) const;

    QList<QLayoutItem *> items_;
    int hSpacing_;
    int vSpacing_;
};

} // namespace fb
