#include "views/widgets/formula_panel.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>

namespace fb {

FormulaPanel::FormulaPanel(const QString &title, QWidget *parent)
    : SelectableText(parent)
    , title_(title)
{
    setTextFormat(Qt::RichText);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setMargin(12);
    setStyleSheet(QStringLiteral("QFrame { background: white; color: #141414; border: 1px solid #d8d8d8; }"));
    setAutoFillBackground(true);
    QFont f = font();
    f.setPointSizeF(14.0);
    setFont(f);
    setText(documentHtml());
}

QString FormulaPanel::documentHtml() const
{
    return QStringLiteral("<div style='font-weight:600; font-size:large; margin-bottom:6px'>%1</div>%2")
        .arg(title_.toHtmlEscaped(), html_);
}

void FormulaPanel::setFormulas(const QString &html)
{
    if (html == html_) return;
    html_ = html;
    setText(documentHtml());
}

QString FormulaPanel::plainText() const
{
    QTextDocument doc;
    doc.setHtml(html_);
    // Without the word joiners that keep units whole ("tokens/s") on screen.
    return doc.toPlainText().remove(QChar(0x2060));
}

QString FormulaPanel::keepTogether(const QString &formula)
{
    QString out;
    int depth = 0;
    for (qsizetype i = 0; i < formula.size(); ++i) {
        const QChar c = formula[i];
        if (c == QLatin1Char('(')) ++depth;
        if (c == QLatin1Char(')')) --depth;
        if (c != QLatin1Char(' ')) {
            out += c;
            continue;
        }
        // A space may break after a +, − or · between terms (not after a leading minus), and
        // between two words ("param overhead").
        const QChar before = i >= 1 ? formula[i - 1] : QChar();
        const QChar after = i + 1 < formula.size() ? formula[i + 1] : QChar();
        const bool afterTerm = i >= 2 && depth == 0
                               && (before == QLatin1Char('+') || before == QChar(0x2212) || before == QChar(0x00B7));
        const bool betweenWords = before.isLetter() && after.isLetter();
        out += afterTerm || betweenWords ? QStringLiteral(" ") : QStringLiteral("&nbsp;");
    }
    return out;
}

void FormulaPanel::paintExport(QPainter &painter, QSize logicalSize)
{
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(logicalSize)), Qt::white);
    QTextDocument doc;
    doc.setDefaultFont(font());
    doc.setDocumentMargin(0);
    doc.setHtml(documentHtml());
    // Lay out without wrapping, then shrink the page to the widest line.
    doc.setTextWidth(100000);
    doc.setTextWidth(doc.idealWidth());
    const QSizeF natural = doc.size();
    if (natural.isEmpty()) return;

    // Scale the laid-out text to fill 90% of the image without distorting it.
    const double margin = 0.05;
    const double s = std::min(logicalSize.width() * (1 - 2 * margin) / natural.width(),
                              logicalSize.height() * (1 - 2 * margin) / natural.height());
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.translate((logicalSize.width() - natural.width() * s) / 2.0,
                      (logicalSize.height() - natural.height() * s) / 2.0);
    painter.scale(s, s);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, QColor(20, 20, 20));
    doc.documentLayout()->draw(&painter, context);
    painter.restore();
}

} // namespace fb
