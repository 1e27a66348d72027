// SelectableText stands in for a word-wrapped QLabel with selectable text: the same sizes for the
// layouts and the same pixels, for plain and rich text, with and without a margin and a frame; it
// lays the window out again only when its height changes.
#include "views/widgets/formula_panel.h"
#include "views/widgets/selectable_text.h"

#include <QFontDatabase>
#include <QImage>
#include <QLabel>
#include <QVBoxLayout>
#include <QTest>

#include <vector>

using namespace fb;

namespace {

struct Look {
    QString text;
    int margin = 0;
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter;
    QString styleSheet;
    double pointSize = 0;  // 0: the default font
};

template<class W>
void style(W *w, const Look &look)
{
    w->setMargin(look.margin);
    w->setAlignment(look.alignment);
    if (!look.styleSheet.isEmpty()) w->setStyleSheet(look.styleSheet);
    QFont f = look.pointSize > 0 ? w->font() : QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (look.pointSize > 0) f.setPointSizeF(look.pointSize);
    w->setFont(f);
}

// A window with the widget on top and a stretch below, as the labs place them.
QWidget *window(QWidget *w, int width)
{
    auto *top = new QWidget;
    auto *layout = new QVBoxLayout(top);
    layout->addWidget(w);
    layout->addStretch(1);
    top->resize(width, 700);
    return top;
}

} // namespace

class TestSelectableText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void looksAndSizesLikeALabel_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("margin");
        QTest::addColumn<bool>("framed");
        QTest::addColumn<int>("width");
        const QString rich = QStringLiteral(
            "<table cellspacing='0' cellpadding='3'><tr><td nowrap>pass cost</td><td>&nbsp;=&nbsp;</td>"
            "<td nowrap>M<sub>k</sub> = (k + 2) / 3</td><td>&nbsp;=&nbsp;</td><td><b style='color:#0b4f8a'>1.667</b></td>"
            "</tr></table><p>A paragraph long enough to wrap over several lines when the panel is narrow.</p>");
        const QString plain = QStringLiteral("0.577, 0.581, 0.602, 0.611,\n0.700 and a value long enough to wrap");
        for (int width : { 200, 360, 900 }) {
            QTest::addRow("plain %d", width) << plain << 0 << false << width;
            QTest::addRow("plain short %d", width) << QStringLiteral("< 1e-300") << 0 << false << width;
            QTest::addRow("rich framed %d", width) << rich << 12 << true << width;
            QTest::addRow("rich %d", width) << rich << 4 << false << width;
        }
    }

    void looksAndSizesLikeALabel()
    {
        QFETCH(QString, text);
        QFETCH(int, margin);
        QFETCH(bool, framed);
        QFETCH(int, width);
        Look look { text, margin, framed ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignLeft | Qt::AlignVCenter,
                    framed ? QStringLiteral("QFrame { background: white; color: #141414; border: 1px solid #d8d8d8; }")
                           : QString(),
                    framed ? 14.0 : 0.0 };
        auto *label = new QLabel;
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        style(label, look);
        auto *text2 = new SelectableText;
        style(text2, look);
        std::unique_ptr<QWidget> a(window(label, width)), b(window(text2, width));
        label->setText(text);
        text2->setText(text);
        a->show();
        b->show();
        QCoreApplication::processEvents();
        QCOMPARE(text2->sizeHint(), label->sizeHint());
        QCOMPARE(text2->minimumSizeHint(), label->minimumSizeHint());
        for (int w : { 100, width - 20, 2000 }) QCOMPARE(text2->heightForWidth(w), label->heightForWidth(w));
        QCOMPARE(text2->geometry(), label->geometry());
        QCOMPARE(b->grab().toImage(), a->grab().toImage());
        QCOMPARE(text2->text(), label->text());
    }

    // New numbers in the same lines: no new layout; a longer text that needs another line: one.
    void asksForALayoutOnlyForAnotherHeight()
    {
        auto *text = new SelectableText;
        std::unique_ptr<QWidget> top(window(text, 300));
        text->setText(QStringLiteral("1.23 vs 1.25"));
        top->show();
        QCoreApplication::processEvents();
        const int height = text->height();
        int requests = 0;
        struct Counter : QObject {
            int *count;
            bool eventFilter(QObject *, QEvent *e) override
            {
                if (e->type() == QEvent::LayoutRequest) ++*count;
                return false;
            }
        } counter;
        counter.count = &requests;
        top->installEventFilter(&counter);
        text->setText(QStringLiteral("4.56 vs 4.58"));
        QCoreApplication::processEvents();
        QCOMPARE(requests, 0);
        text->setText(QStringLiteral("a value long enough to need a second line in a panel this narrow"));
        QCoreApplication::processEvents();
        QVERIFY(requests > 0);
        QVERIFY(text->height() > height);
    }

    // wholeLinesHeight: the height that ends below a whole line, never across one. Checked against the
    // painted text: no run of inked rows crosses the height, and the next line's ink would not fit.
    void wholeLinesCutNoLine()
    {
        auto *text = new SelectableText;
        text->setTextFormat(Qt::RichText);
        text->setMargin(4);
        text->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setText(QStringLiteral("<p><b>What it shows.</b> A sentence long enough to take several lines at this "
                                     "width, as a lab's explanation does above its charts.</p><p><b>Try.</b> A "
                                     "second paragraph, with the space rich text puts between paragraphs.</p>"));
        constexpr int width = 260;
        const int full = text->heightForWidth(width);
        text->resize(width, full);
        QImage image = text->grab().toImage();
        if (image.devicePixelRatio() != 1.0)  // rows in the widget's pixels
            image = image.scaled(text->size(), Qt::IgnoreAspectRatio, Qt::FastTransformation);
        const QRgb paper = image.pixel(0, 0);
        std::vector<bool> ink(std::size_t(full), false);
        for (int y = 0; y < full && y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) != paper) ink[std::size_t(y)] = true;
        const int slack = text->fontMetrics().descent() + 1;
        int lines = 0;
        for (int y = 1; y < full; ++y) lines += ink[std::size_t(y)] && !ink[std::size_t(y - 1)];
        QVERIFY2(lines >= 4, qPrintable(QStringLiteral("%1 lines").arg(lines)));
        QCOMPARE(text->wholeLinesHeight(width, full), full);
        QCOMPARE(text->wholeLinesHeight(width, full + 40), full);
        QCOMPARE(text->wholeLinesHeight(width, 3), 0);  // not even the first line
        for (int most = 3; most < full; ++most) {
            const int h = text->wholeLinesHeight(width, most);
            QVERIFY(h <= most);
            if (h > 0)  // no run of ink crosses h
                QVERIFY2(!(ink[std::size_t(h - 1)] && h < full && ink[std::size_t(h)]),
                         qPrintable(QStringLiteral("height %1 (at most %2) cuts a line").arg(h).arg(most)));
            // the next line's ink starts below h and ends past what `most` leaves (its descent aside)
            int y = h;
            while (y < full && !ink[std::size_t(y)]) ++y;
            if (y == full) continue;
            while (y < full && ink[std::size_t(y)]) ++y;
            QVERIFY2(y > most - slack, qPrintable(QStringLiteral("at most %1: %2 shows fewer lines than fit (next ends at %3)")
                                                      .arg(most).arg(h).arg(y)));
        }
        delete text;
    }

    void formulaPanelText()
    {
        FormulaPanel panel(QStringLiteral("Title"));
        panel.setFormulas(QStringLiteral("<p>saving = 1 &minus; 1.085 / 1.5 = <b>27.7%</b></p>"));
        QCOMPARE(panel.plainText(), QStringLiteral("saving = 1 − 1.085 / 1.5 = 27.7%"));
        QVERIFY(panel.text().contains(QStringLiteral("Title")));
        QVERIFY(panel.selectedText().isEmpty());
    }
};

QTEST_MAIN(TestSelectableText)
#include "tst_selectable_text.moc"
