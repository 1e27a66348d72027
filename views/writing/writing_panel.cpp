#include "views/writing/writing_panel.h"

#include "core/transformer/sentence_probe.h"
#include "core/transformer/transformer_report.h"
#include "views/training/transformer_run.h"
#include "views/widgets/flow_layout.h"
#include "views/writing/cache_strips.h"
#include "views/writing/writing_run.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

#include <stdexcept>

namespace fb {

namespace {

// A label and its control as one piece of the flow (they wrap together).
QWidget *labelled(const QString &text, QWidget *control, const QString &tip)
{
    auto *box = new QWidget;
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(text);
    label->setBuddy(control);
    row->addWidget(label);
    row->addWidget(control);
    label->setToolTip(tip);
    control->setToolTip(tip);
    return box;
}

} // namespace

WritingPanel::WritingPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("writingPanel"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 4, 0, 0);

    auto *controls = new FlowLayout(nullptr, 10, 4);
    origin_ = new QLabel;
    origin_->setTextFormat(Qt::PlainText);
    controls->addWidget(origin_);
    prompt_ = new QLineEdit(QStringLiteral("The "));
    prompt_->setMaxLength(4096);
    prompt_->setMinimumWidth(160);
    prompt_->setPlaceholderText(tr("a new line"));
    controls->addWidget(labelled(tr("Prompt"), prompt_, tr("The text the model continues (its last T characters are read)")));
    temperature_ = new QDoubleSpinBox;
    temperature_->setRange(0.0, 2.0);
    temperature_->setSingleStep(0.1);
    temperature_->setDecimals(2);
    temperature_->setValue(0.8);
    controls->addWidget(labelled(tr("Temperature"), temperature_,
                                 tr("Softmax temperature of each draw, 0 to 2; 0 takes the most likely character")));
    topK_ = new QSpinBox;
    topK_->setRange(0, 512);
    topK_->setValue(20);
    controls->addWidget(labelled(tr("Top-k"), topK_, tr("Draw among the k most likely characters only, 0 to 512; 0 = all")));
    length_ = new QSpinBox;
    length_->setRange(1, 5000);
    length_->setValue(300);
    controls->addWidget(labelled(tr("Length"), length_, tr("Characters to write, 1 to 5000")));
    pace_ = new QSpinBox;
    pace_->setRange(0, 1000);
    pace_->setValue(25);
    pace_->setSuffix(tr(" /s"));
    controls->addWidget(labelled(tr("Pace"), pace_,
                                 tr("Characters shown a second, 0 to 1000 (0: as fast as the model computes them); "
                                    "the speeds below are the model's own, without this wait")));
    write_ = new QPushButton(tr("Write"));
    write_->setObjectName(QStringLiteral("write"));
    controls->addWidget(write_);
    // The student's own sentence, in the same flow: the maps tab shows its attention.
    sentence_ = new QLineEdit;
    sentence_->setMaxLength(256);
    sentence_->setMinimumWidth(200);
    sentence_->setPlaceholderText(tr("a sentence of yours"));
    controls->addWidget(labelled(tr("Your sentence"), sentence_,
                                 tr("The attention maps show every head's attention on it (2 to T characters)")));
    probeButton_ = new QPushButton(tr("Show its attention"));
    probeButton_->setObjectName(QStringLiteral("probeSentence"));
    controls->addWidget(probeButton_);
    outer->addLayout(controls);
    sentenceMessage_ = new QLabel;
    sentenceMessage_->setWordWrap(true);
    sentenceMessage_->setTextFormat(Qt::PlainText);
    sentenceMessage_->setStyleSheet(QStringLiteral("color:#b00020;"));
    sentenceMessage_->hide();
    outer->addWidget(sentenceMessage_);

    auto *body = new QHBoxLayout;
    output_ = new QPlainTextEdit;
    output_->setObjectName(QStringLiteral("writingOutput"));
    output_->setReadOnly(true);  // plain text: "-->" and "<f32>" stay as they are
    output_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    output_->setMinimumHeight(60);
    body->addWidget(output_, 3);
    auto *cacheColumn = new QVBoxLayout;
    strips_ = new CacheStrips;
    strips_->setMinimumHeight(84);
    cacheColumn->addWidget(strips_, 1);
    body->addLayout(cacheColumn, 2);
    outer->addLayout(body, 1);
    // Under both, the whole width: how full the cache is, its bytes, and the two speeds.
    cacheBar_ = new QProgressBar;
    cacheBar_->setTextVisible(false);
    cacheBar_->setMaximumHeight(8);
    cacheBar_->setRange(0, 1);
    cacheBar_->setValue(0);
    outer->addWidget(cacheBar_);
    cache_ = new QLabel;
    cache_->setWordWrap(true);
    cache_->setTextFormat(Qt::PlainText);
    outer->addWidget(cache_);
    speed_ = new QLabel;
    speed_->setWordWrap(true);
    speed_->setTextFormat(Qt::PlainText);
    outer->addWidget(speed_);

    timer_ = new QTimer(this);
    timer_->setInterval(33);
    connect(timer_, &QTimer::timeout, this, &WritingPanel::pull);
    connect(write_, &QPushButton::clicked, this, &WritingPanel::write);
    connect(probeButton_, &QPushButton::clicked, this, &WritingPanel::probeSentence);
    connect(sentence_, &QLineEdit::returnPressed, this, &WritingPanel::probeSentence);
    connect(prompt_, &QLineEdit::returnPressed, this, [this] { if (!run_) write(); });
    connect(pace_, &QSpinBox::valueChanged, this, [this](int v) { if (run_) run_->setPace(v); });
    setFontScale(1.0);
    setModel(nullptr, QString());
}

WritingPanel::~WritingPanel() = default;  // the run abandons and joins

void WritingPanel::setModel(std::shared_ptr<const TrainedTransformer> model, const QString &origin)
{
    if (!model) {  // a new run: its samples show again
        written_ = false;
        output_->clear();
    }
    model_ = std::move(model);
    origin_->setText(model_ ? tr("Writes with %1.").arg(origin)
                            : tr("Start the training (or File → Open model) to write with the model."));
    updateButton();
}

void WritingPanel::showSample(const QString &sample)
{
    if (!written_) output_->setPlainText(sample);
}

void WritingPanel::setFontScale(double scale)
{
    fontScale_ = scale;
    // Large enough to read from the back of a lecture room, larger again in lecture mode.
    QFont f = font();
    f.setPointSizeF(QFont().pointSizeF() * 1.6 * scale);
    output_->setFont(f);
    strips_->setFontScale(scale);
}

void WritingPanel::updateButton()
{
    write_->setText(run_ ? tr("Stop") : tr("Write"));
    write_->setEnabled(run_ || model_);
    probeButton_->setEnabled(model_ && !probe_);
}

void WritingPanel::probeSentence()
{
    if (!model_ || probe_) return;
    sentenceMessage_->hide();
    using Probe = BackgroundRun<int, std::shared_ptr<const TransformerFrame>>;
    probe_ = std::make_unique<Probe>([model = model_, text = sentence_->text().toStdString()](RunControl &, Probe::Outbox &) {
        TransformerSnapshot snap;
        if (const std::string err = fb::probeSentence(*model, text, snap); !err.empty()) throw std::invalid_argument(err);
        std::shared_ptr<TransformerFrame> f = TransformerRun::makeFrame(snap, model->config.task);
        f->maps.title = QStringLiteral("Attention on your sentence");
        f->maps.tokens.clear();
        for (int id : snap.probeTokens) {
            std::string c;
            model->corpus->appendDecoded(&id, 1, c);
            f->maps.tokens << (c == " " ? QStringLiteral("␣") : c == "\n" ? QStringLiteral("↵") : QString::fromStdString(c));
        }
        f->maps.tokenTicks = true;
        return std::shared_ptr<const TransformerFrame>(std::move(f));
    });
    timer_->start();
    updateButton();
}

void WritingPanel::write()
{
    if (run_) {
        run_->cancel();  // the timer's next pull sees it end
        return;
    }
    if (!model_) return;
    WritingRequest r;
    r.model = model_;
    r.prompt = prompt_->text().toStdString();
    r.temperature = temperature_->value();
    r.topK = topK_->value();
    r.chars = length_->value();
    r.seed = std::uint64_t(seed_++);
    r.pace = pace_->value();
    written_ = true;
    output_->setPlainText(prompt_->text());
    strips_->clear();
    cache_->clear();
    speed_->clear();
    run_ = std::make_unique<WritingRun>(std::move(r));
    timer_->start();
    updateButton();
}

void WritingPanel::pull()
{
    if (probe_ && probe_->ended()) {
        auto t = probe_->take();
        probe_.reset();
        if (t.result && *t.result) Q_EMIT sentenceMaps(*t.result);
        sentenceMessage_->setText(QString::fromStdString(t.error));
        sentenceMessage_->setVisible(!t.error.empty());
        updateButton();
        if (!run_) timer_->stop();
    }
    if (!run_) return;
    WritingRun::Update u = run_->take();
    if (!u.text.empty()) {
        // Appended as plain text at the end (no paragraph breaks of appendPlainText).
        QTextCursor cursor(output_->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(QString::fromStdString(u.text));
        output_->ensureCursorVisible();
        output_->moveCursor(QTextCursor::End);
    }
    if (u.frame) {
        const WrittenCharacter &c = u.frame->last;
        strips_->setStrips(u.frame->strips, c.layers, c.heads, c.context);
        const QLocale locale;
        cacheBar_->setRange(0, c.context);
        cacheBar_->setValue(c.cachedPositions);
        // The chapter's formula where it holds (plain softmax attention); else the comparison's
        // count (core/transformer/text_writer.h) under its name.
        cache_->setText(tr("Cache: %1 of %2 positions, %3 bytes held; %4 = %5")
                            .arg(c.cachedPositions)
                            .arg(c.context)
                            .arg(locale.toString(qlonglong(c.cacheBytes)),
                                 c.plainAttention ? tr("2 · L · t · d · 4 bytes") : tr("the costs formula"),
                                 locale.toString(qlonglong(c.formulaBytes))));
        speed_->setText(tr("%1 characters a second with the cache, %2 recomputing the context (%3× faster)")
                            .arg(locale.toString(c.charsPerSecond(), 'f', 0),
                                 locale.toString(c.charsPerSecondWithoutCache(), 'f', 0),
                                 locale.toString(c.cacheSpeedup(), 'f', 1)));
    }
    if (!u.error.empty()) speed_->setText(QString::fromStdString(u.error));
    if (u.ended) finish();
}

void WritingPanel::finish()
{
    if (!probe_) timer_->stop();
    run_.reset();
    updateButton();
}

} // namespace fb
