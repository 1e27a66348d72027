#pragma once
// The figures a lab's cell prints, recomputed live: one labelled value per row.
#include <QWidget>

#include <map>

class QVBoxLayout;
class QLabel;

namespace fb {

class SelectableText;

class ReadoutPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReadoutPanel(const QString &title, QWidget *parent = nullptr);
    // Adds the row if new; value is shown in a fixed-width font and can be selected and copied.
    void setRow(const QString &key, const QString &label, const QString &value,
                const QString &toolTip = QString());
    QString value(const QString &key) const;
    // A free-text note under the rows (rich text allowed).
    void setNote(const QString &html);

private:
    QVBoxLayout *rows_ = nullptr;
    QLabel *note_ = nullptr;
    std::map<QString, SelectableText *> values_;
};

} // namespace fb
