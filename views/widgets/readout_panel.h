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
    QString note() const;
    // Presentation: the rows' text at the application's font, the values' fixed-width font as
    // much larger as that font is (labels with a style sheet keep the font they were polished with
    // otherwise). The charts' scale is not the readouts'.
    void setFontScale(double chartScale);

private:
    QVBoxLayout *rows_ = nullptr;
    QLabel *note_ = nullptr;
    std::map<QString, SelectableText *> values_;
    QList<QLabel *> labels_;
    double fontScale_ = 1.0;
    double appPointSize_ = 9.0;  // the application's font when the panel was made
};

} // namespace fb
