#pragma once
// A panel of formulas with today's values substituted ("saving = 1 − 1.085 / 1.5 = 27.7%"), large
// enough to read from the back of a lecture room, and exportable as an image for slides. White, a
// thin grey border, selectable text; laid out once per change (see SelectableText).
#include "views/widgets/exportable.h"
#include "views/widgets/selectable_text.h"

namespace fb {

class FormulaPanel : public SelectableText, public Exportable {
    Q_OBJECT
public:
    explicit FormulaPanel(const QString &title, QWidget *parent = nullptr);

    // Rich text (an HTML table, usually); the panel's title is shown above it.
    void setFormulas(const QString &html);
    QString formulas() const { return html_; }
    // The formulas without markup, for tests and the clipboard.
    QString plainText() const;

    // A formula (plain text, HTML-escaped already) that breaks only between its terms (after " + ",
    // " − " and " · " outside parentheses) and between words: never inside a bracket of numbers or
    // a quotient ("(k + 2) / 3" stays whole).
    static QString keepTogether(const QString &formula);

    QString exportTitle() const override { return title_; }
    // Renders title and formulas centred on white, scaled to fill the image.
    void paintExport(QPainter &painter, QSize logicalSize) override;

private:
    QString documentHtml() const;

    QString title_;
    QString html_;
};

} // namespace fb
