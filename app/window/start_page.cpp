#include "app/window/start_page.h"

#include "app/registry/lab_registry.h"
#include "app/window/start_entry.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace fb {

namespace {

QLabel *paragraph(const QString &html)
{
    auto *l = new QLabel(html);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    return l;
}

QString labLink(int index)
{
    const LabEntry &lab = labRegistry()[index];
    return QStringLiteral("<a href=\"%1\" style=\"color:#1f4fb8; text-decoration:none\"><b>%2</b></a>")
        .arg(lab.name, lab.title.toHtmlEscaped());
}

// "A first session: 1 Attention → 2 RoPE invariance → ... Then: Depth and gradients, ...".
QString beginText()
{
    const QStringList first = StartPage::firstSession();
    QStringList steps;
    for (const QString &name : first)
        if (const int index = labIndex(name); index >= 0)
            steps << QStringLiteral("%1&nbsp;%2").arg(steps.size() + 1).arg(labLink(index));
    QStringList later;
    for (int i = 0; i < labRegistry().size(); ++i)
        if (!first.contains(labRegistry()[i].name)) later << labLink(i);
    return StartPage::tr("<b>Where to begin.</b> A first session follows attention to its newest correction: "
                         "%1. Then, further: %2.")
        .arg(steps.join(QStringLiteral(" &rarr; ")), later.join(QStringLiteral(", ")));
}

} // namespace

QStringList StartPage::firstSession()
{
    return { QStringLiteral("attention"), QStringLiteral("rope-invariance"), QStringLiteral("decay-bound"),
             QStringLiteral("capacity"), QStringLiteral("glu-fusion"), QStringLiteral("training") };
}

StartPage::StartPage(QWidget *parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("startPage"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *content = new QWidget;
    content->setObjectName(QStringLiteral("startContent"));
    auto *outer = new QHBoxLayout(content);
    outer->setContentsMargins(24, 18, 24, 18);
    // One readable column, centred on a wide screen.
    auto *column = new QWidget;
    column->setMaximumWidth(1240);
    outer->addStretch(0);
    outer->addWidget(column, 1);
    outer->addStretch(0);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);

    auto *heading = new QLabel(tr("FullBand"));
    QFont big = heading->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    heading->setFont(big);
    layout->addWidget(heading);
    layout->addWidget(paragraph(tr(
        "Live labs for the textbook chapter “The Road to Transformers” (sections 218.1–218.6) and for the "
        "cost formulas of an encyclopedia page on the transformer. Each lab follows one section: move a "
        "parameter on the left and its charts are computed again at once; the explanation beside the charts "
        "says what they show and what to try.")));

    begin_ = paragraph(beginText());
    begin_->setObjectName(QStringLiteral("startBegin"));
    begin_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    begin_->setStyleSheet(QStringLiteral("QLabel { background:#fff7e0; border:1px solid #ecd9a0; "
                                         "border-radius:6px; padding:8px 10px; }"));
    connect(begin_, &QLabel::linkActivated, this, [this](const QString &name) {
        if (const int index = labIndex(name); index >= 0) Q_EMIT labChosen(index);
    });
    layout->addWidget(begin_);

    auto *keys = paragraph(tr(
        "<span style='color:#555'><b>F1</b> this page &nbsp;·&nbsp; <b>F7</b> explanations shown or collapsed "
        "&nbsp;·&nbsp; <b>F5</b> lecture mode &nbsp;·&nbsp; <b>F6</b> parameter column &nbsp;·&nbsp; <b>F9</b> "
        "lab list &nbsp;·&nbsp; <b>Ctrl+1</b> … <b>Ctrl+9</b>, <b>Ctrl+0</b>, then <b>Alt+1</b> … open a lab</span>"));
    layout->addWidget(keys);

    auto *labsHeading = new QLabel(tr("<b>The labs, in the chapter's order</b>"));
    layout->addWidget(labsHeading);
    grid_ = new QGridLayout;
    grid_->setHorizontalSpacing(12);
    grid_->setVerticalSpacing(10);
    layout->addLayout(grid_);
    layout->addStretch(1);

    const QString first = firstSession().value(0);
    const auto &labs = labRegistry();
    for (int i = 0; i < labs.size(); ++i) {
        auto *entry = new StartEntry(labs[i], labs[i].name == first);
        connect(entry, &StartEntry::clicked, this, [this, i] { Q_EMIT labChosen(i); });
        entries_.append(entry);
    }
    setWidget(content);
    arrange(2);
}

void StartPage::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    arrange(viewport()->width() >= kTwoColumnsFrom ? 2 : 1);
}

void StartPage::arrange(int columns)
{
    if (columns == columns_) return;
    columns_ = columns;
    for (StartEntry *entry : entries_) grid_->removeWidget(entry);
    for (int i = 0; i < entries_.size(); ++i) grid_->addWidget(entries_[i], i / columns, i % columns);
    for (int c = 0; c < 2; ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
}

} // namespace fb
