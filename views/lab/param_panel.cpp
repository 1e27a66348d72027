#include "views/lab/param_panel.h"

#include "views/widgets/number_spin_box.h"

#include "core/numeric/log_ladder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

bool isBoolean(const ParamSpec &s)
{
    return s.kind == ParamKind::Integer && s.min == 0.0 && s.max == 1.0;
}

// 0.0001, 64, 65536, 1e9: short enough for a label.
QString compactNumber(double v)
{
    if (std::fabs(v) >= 1e6) {
        QString t = QString::number(v, 'g', 3);
        t.replace(QStringLiteral("e+0"), QStringLiteral("e")).replace(QStringLiteral("e+"), QStringLiteral("e"));
        return t;
    }
    return QString::fromStdString(formatNumber(v));
}

QString compactRange(const ParamSpec &s)
{
    QString r = QStringLiteral("%1 – %2").arg(compactNumber(s.min), compactNumber(s.max));
    if (s.kind == ParamKind::Integer && s.multipleOf == 2) r += QStringLiteral(", even");
    else if (s.kind == ParamKind::Integer && s.multipleOf > 2) r += QStringLiteral(", ×%1").arg(s.multipleOf);
    return r;
}

} // namespace

// A logarithmic slider has one position per rung of its ladder (core/numeric/log_ladder.h): arrow keys
// and drags go 2048, 4096, 8192 or 0.01, 0.02, 0.05, never to 4270.
int ParamPanel::sliderPosition(const ParamSpec &s, double v)
{
    if (s.logScale) {
        const std::vector<double> ladder = logLadder(s);
        return ladder.empty() ? 0 : int(nearestRung(ladder, v));
    }
    if (s.kind == ParamKind::Integer && (s.max - s.min) / double(s.multipleOf) <= kSliderSteps)
        return int(std::lround((v - s.min) / double(s.multipleOf)));
    const double t = (v - s.min) / (s.max - s.min);
    return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double ParamPanel::sliderValue(const ParamSpec &s, int position)
{
    if (s.logScale) {
        const std::vector<double> ladder = logLadder(s);
        if (ladder.empty()) return s.def;
        return ladder[std::size_t(std::clamp(position, 0, int(ladder.size()) - 1))];
    }
    if (s.kind == ParamKind::Integer && (s.max - s.min) / double(s.multipleOf) <= kSliderSteps)
        return std::clamp(s.min + double(position) * double(s.multipleOf), s.min, s.max);
    const double t = double(position) / kSliderSteps;
    double v = s.min + t * (s.max - s.min);
    if (s.kind == ParamKind::Integer) {
        const double m = double(s.multipleOf);
        v = std::round(v / m) * m;
    }
    return std::clamp(v, s.min, s.max);
}

int ParamPanel::sliderSteps(const ParamSpec &s)
{
    if (s.logScale) return std::max(int(logLadder(s).size()) - 1, 1);
    if (s.kind == ParamKind::Integer && (s.max - s.min) / double(s.multipleOf) <= kSliderSteps)
        return int((s.max - s.min) / double(s.multipleOf));
    return kSliderSteps;
}

ParamPanel::ParamPanel(const LabSpec &spec, QWidget *parent)
    : QWidget(parent)
    , spec_(spec)
    , values_(spec.defaults())
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(2);
    int row = 0;
    for (const auto &p : spec_.params) buildRow(p, grid, row);
    outer->addLayout(grid);

    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->setObjectName(QStringLiteral("paramMessage"));
    outer->addWidget(message_);

    auto *resetButton = new QPushButton(tr("Reset to the chapter's values"));
    resetButton->setToolTip(tr("Every parameter back to the value the source text uses"));
    connect(resetButton, &QPushButton::clicked, this, &ParamPanel::reset);
    outer->addWidget(resetButton);
    outer->addStretch(1);
    syncControls();
}

void ParamPanel::buildRow(const ParamSpec &p, QGridLayout *grid, int &row)
{
    Row r;
    r.spec = &p;
    const QString tip = QString::fromStdString(p.help.empty() ? p.label : p.help)
        + QStringLiteral("\nkey: %1 — %2").arg(QString::fromStdString(p.key), QString::fromStdString(rangeText(p)));
    QString title = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(p.label).toHtmlEscaped());
    if (!p.unit.empty()) title += QStringLiteral(" (%1)").arg(QString::fromStdString(p.unit).toHtmlEscaped());
    if (p.kind == ParamKind::Real || (p.kind == ParamKind::Integer && !isBoolean(p)))
        title += QStringLiteral(" <span style='color:#666'>%1</span>").arg(compactRange(p));
    auto *label = new QLabel(title);
    label->setToolTip(tip);
    r.label = label;
    r.tip = tip;
    label->setWordWrap(true);
    const std::string key = p.key;

    if (p.kind == ParamKind::Choice) {
        r.combo = new QComboBox;
        std::size_t longest = 0;
        for (const auto &c : p.choices) {
            r.combo->addItem(QString::fromStdString(c));
            longest = std::max(longest, c.size());
        }
        // Wide enough for its longest choice ("induction-fixed"), whatever the column's width: the
        // column asks for its contents' minimum width.
        r.combo->setMinimumContentsLength(int(longest));
        r.combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        r.combo->setToolTip(tip);
        grid->addWidget(label, row, 0);
        grid->addWidget(r.combo, row++, 1);
        connect(r.combo, &QComboBox::currentTextChanged, this, [this, key](const QString &text) {
            ParamValues c = values_;
            c.texts[key] = text.toStdString();
            propose(c, key);
        });
    } else if (p.kind == ParamKind::Text) {
        r.edit = new QLineEdit;
        r.edit->setMaxLength(int(p.maxLength));
        r.edit->setToolTip(tip);
        grid->addWidget(label, row++, 0, 1, 2);
        if (p.isFile) {
            auto *line = new QHBoxLayout;
            line->addWidget(r.edit, 1);
            auto *browseButton = new QPushButton(tr("Browse…"));
            browseButton->setObjectName(QStringLiteral("browse_") + QString::fromStdString(key));
            browseButton->setToolTip(tr("Choose the %1").arg(QString::fromStdString(p.label)));
            connect(browseButton, &QPushButton::clicked, this, [this, key] { browse(key); });
            r.browse = browseButton;
            line->addWidget(browseButton);
            grid->addLayout(line, row++, 0, 1, 2);
        } else {
            grid->addWidget(r.edit, row++, 0, 1, 2);
        }
        connect(r.edit, &QLineEdit::textEdited, this, [this, key](const QString &text) {
            ParamValues c = values_;
            c.texts[key] = text.toStdString();
            // A refused keystroke (a path half typed: "/t" does not exist) keeps what is typed in the
            // field, the message below it; the values in force stay. Set back to them, the field
            // emptied itself at every key and no path could be typed.
            typing_ = key;
            propose(c, key);
            typing_.clear();
        });
    } else if (isBoolean(p)) {
        r.check = new QCheckBox(QString::fromStdString(p.label));
        r.check->setToolTip(tip);
        delete label;
        r.label = nullptr;
        grid->addWidget(r.check, row++, 0, 1, 2);
        connect(r.check, &QCheckBox::toggled, this, [this, key](bool on) {
            ParamValues c = values_;
            c.numbers[key] = on ? 1.0 : 0.0;
            propose(c, key);
        });
    } else {
        r.spin = new NumberSpinBox;
        r.spin->setRange(p.min, p.max);
        r.spin->setLadder(logLadder(p));
        r.spin->setIntegerMultiple(p.kind == ParamKind::Integer ? p.multipleOf : 0);
        r.spin->setToolTip(tip);
        r.spin->setMinimumWidth(96);
        r.slider = new QSlider(Qt::Horizontal);
        r.slider->setRange(0, sliderSteps(p));
        r.slider->setPageStep(p.logScale ? 3 : std::max(sliderSteps(p) / 10, 1));
        r.slider->setToolTip(tip + (p.logScale ? tr("\nlogarithmic slider") : QString()));
        grid->addWidget(label, row, 0);
        grid->addWidget(r.spin, row++, 1);
        grid->addWidget(r.slider, row++, 0, 1, 2);
        connect(r.slider, &QSlider::valueChanged, this, [this, key](int pos) {
            if (syncing_) return;
            const Row &row = rows_.at(key);
            // Keys and clicks step past refused values; a drag goes where the mouse is.
            proposeStep(key, sliderValue(*row.spec, pos), !row.slider->isSliderDown());
        });
        connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, key](double v) {
            if (syncing_) return;
            proposeStep(key, v, true);
        });
    }
    // A refusal of this row's change is said right under it (a message at the foot of a long
    // column is out of sight on a small screen). Hidden, the row takes no room.
    r.message = new QLabel;
    r.message->setWordWrap(true);
    r.message->setObjectName(QStringLiteral("paramMessage_") + QString::fromStdString(key));
    r.message->hide();
    grid->addWidget(r.message, row++, 0, 1, 2);
    r.note = new QLabel;
    r.note->setWordWrap(true);
    r.note->setTextFormat(Qt::PlainText);
    r.note->setObjectName(QStringLiteral("paramNote_") + QString::fromStdString(key));
    r.note->setStyleSheet(QStringLiteral("color:#555;"));
    r.note->hide();
    grid->addWidget(r.note, row++, 0, 1, 2);
    rows_[key] = r;
}

void ParamPanel::setFileChooser(std::function<QString(const QString &)> chooser)
{
    fileChooser_ = std::move(chooser);
}

void ParamPanel::browse(const std::string &key)
{
    const auto it = rows_.find(key);
    if (it == rows_.end() || !it->second.edit) return;
    const QString current = QString::fromStdString(values_.text(key));
    const QString path = fileChooser_ ? fileChooser_(current)
                                      : QFileDialog::getOpenFileName(this, tr("Choose the %1").arg(
                                            QString::fromStdString(it->second.spec->label)), current);
    if (path.isEmpty()) return;
    // The values refused last, completed by this file, when that is all they lacked (task = text
    // chosen before its file): both take effect at once.
    if (refused_) {
        ParamValues completed = *refused_;
        completed.texts[key] = path.toStdString();
        if (checkAll(spec_, completed).empty() && (!validator_ || validator_(completed).empty())) {
            propose(completed, key);
            return;
        }
    }
    ParamValues c = values_;
    c.texts[key] = path.toStdString();
    propose(c, key);
}

void ParamPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    for (QLabel *label : findChildren<QLabel *>()) {
        if (!label->wordWrap() || label == message_) continue;
        const int need = label->heightForWidth(label->width());
        if (need > 0 && label->minimumHeight() != need) label->setMinimumHeight(need);
    }
}

void ParamPanel::setValidator(std::function<std::string(const ParamValues &)> validator)
{
    validator_ = std::move(validator);
}

void ParamPanel::setAdjuster(std::function<void(ParamValues &, const std::string &, const ParamValues &)> adjuster)
{
    adjuster_ = std::move(adjuster);
}

void ParamPanel::setNote(const std::string &key, const QString &note)
{
    const auto it = rows_.find(key);
    if (it == rows_.end()) return;
    Row &r = it->second;
    r.note->setText(note);
    r.note->setVisible(!note.isEmpty());
    for (QWidget *w : { static_cast<QWidget *>(r.slider), static_cast<QWidget *>(r.spin), static_cast<QWidget *>(r.combo),
                        static_cast<QWidget *>(r.check), static_cast<QWidget *>(r.edit) })
        if (w) w->setEnabled(note.isEmpty());
}

QString ParamPanel::note(const std::string &key) const
{
    const auto it = rows_.find(key);
    return it == rows_.end() ? QString() : it->second.note->text();
}

void ParamPanel::propose(ParamValues candidate, const std::string &key)
{
    if (syncing_) return;
    if (adjuster_) adjuster_(candidate, key, values_);
    std::string err = checkAll(spec_, candidate);
    if (err.empty() && validator_) err = validator_(candidate);
    if (!err.empty()) {
        QString text = QString::fromStdString(err);
        // A file missing: say where to choose it.
        for (const auto &[fileKey, r] : rows_)
            if (r.spec->isFile && candidate.text(fileKey).empty() && err.find(fileKey) != std::string::npos)
                text += tr(" — choose it with Browse… under “%1”.").arg(QString::fromStdString(r.spec->label));
        showMessage(text, true, key);
        refused_ = std::move(candidate);
        syncControls();  // the controls show the values in force, not the refused ones
        return;
    }
    refused_.reset();
    rulesSkipped_ = false;  // what the rules took (a text file chosen for an opened model)
    if (candidate == values_) return;
    values_ = std::move(candidate);
    showMessage(QString(), false);
    syncControls();
    Q_EMIT valuesChanged(values_);
}

void ParamPanel::proposeStep(const std::string &key, double value, bool skipRefused)
{
    ParamValues c = values_;
    c.numbers[key] = value;
    const ParamSpec &s = *rows_.at(key).spec;
    const double delta = value - values_.number(key);
    // One integer step onto a value only the cross-key rules refuse (heads = 5 with d_model = 64)
    // moves on in the same direction to the next accepted value and says so: stepping never sticks.
    if (skipRefused && validator_ && s.kind == ParamKind::Integer
        && std::fabs(delta) == double(std::max<long long>(s.multipleOf, 1)) && checkAll(spec_, c).empty()) {
        const std::string refusal = validator_(c);
        for (double v = value + delta; !refusal.empty() && v >= s.min && v <= s.max; v += delta) {
            c.numbers[key] = v;
            if (!checkAll(spec_, c).empty() || !validator_(c).empty()) continue;
            propose(c, key);
            showMessage(tr("%1 = %2 skipped: %3").arg(QString::fromStdString(key),
                                                      QString::fromStdString(formatNumber(value)),
                                                      QString::fromStdString(refusal)), false, key);
            return;
        }
        c.numbers[key] = value;
    }
    propose(c, key);
}

QString ParamPanel::setValues(const ParamValues &values)
{
    std::string err = checkAll(spec_, values);
    if (err.empty() && validator_) err = validator_(values);
    return apply(values, err, false);
}

QString ParamPanel::setValuesWithoutRules(const ParamValues &values)
{
    return apply(values, checkAll(spec_, values), true);
}

QString ParamPanel::apply(const ParamValues &values, const std::string &err, bool rulesSkipped)
{
    if (!err.empty()) {
        showMessage(QString::fromStdString(err), true);
        return QString::fromStdString(err);
    }
    const bool changed = !(values == values_);
    values_ = values;
    rulesSkipped_ = rulesSkipped;
    showMessage(QString(), false);
    syncControls();
    if (changed) Q_EMIT valuesChanged(values_);
    return {};
}

QString ParamPanel::setValue(const std::string &key, const std::string &text)
{
    ParamValues c = values_;
    const std::string err = setFromText(spec_, c, key, text);
    if (!err.empty()) {
        showMessage(QString::fromStdString(err), true);
        return QString::fromStdString(err);
    }
    return setValues(c);
}

void ParamPanel::reset()
{
    setValues(spec_.defaults());
}

QString ParamPanel::message() const
{
    // The one message shown: under a row, or at the foot of the panel.
    for (const auto &[key, r] : rows_)
        if (!r.message->isHidden() && !r.message->text().isEmpty()) return r.message->text();
    return message_->text();
}

void ParamPanel::showMessage(const QString &text, bool error, const std::string &key)
{
    const auto at = rows_.find(key);
    QLabel *target = at != rows_.end() ? at->second.message : message_;
    for (auto &[k, r] : rows_)
        if (r.message != target) r.message->hide();
    if (target != message_) message_->clear();
    target->setText(text);
    target->setStyleSheet(error ? QStringLiteral("color:#b00020;") : QString());
    target->setVisible(!text.isEmpty() || target == message_);
}

void ParamPanel::syncControls()
{
    syncing_ = true;
    for (auto &[key, r] : rows_) {
        const ParamSpec &p = *r.spec;
        if (r.combo) r.combo->setCurrentText(QString::fromStdString(values_.text(key)));
        if (r.edit && key != typing_ && r.edit->text().toStdString() != values_.text(key))
            r.edit->setText(QString::fromStdString(values_.text(key)));
        if (r.check) r.check->setChecked(values_.number(key) != 0.0);
        if (r.spin) {
            const double v = values_.number(key);
            r.spin->setValue(v);
            // Keep the slider where the user holds it when the value maps back to the same spot.
            if (sliderValue(p, r.slider->value()) != v) r.slider->setValue(sliderPosition(p, v));
        }
    }
    syncing_ = false;
    syncUsed();
}

void ParamPanel::syncUsed()
{
    for (auto &[key, r] : rows_) {
        const ParamSpec &p = *r.spec;
        const bool used = spec_.isUsed(p, values_);
        QString tip = r.tip;
        if (!used) {
            const auto it = values_.texts.find(p.usedWith);
            tip = tr("Not read with %1 = %2 (only with %1 = %3)\n")
                      .arg(QString::fromStdString(p.usedWith),
                           it == values_.texts.end() ? QString() : QString::fromStdString(it->second),
                           QString::fromStdString([&p] {
                               std::string all;
                               for (const std::string &v : p.usedWithValues) all += (all.empty() ? "" : ", ") + v;
                               return all;
                           }()))
                + r.tip;
        }
        for (QWidget *w : std::initializer_list<QWidget *> { r.label, r.combo, r.edit, r.check, r.spin, r.slider, r.browse })
            if (w) {
                w->setEnabled(used);
                w->setToolTip(tip + (w == r.slider && p.logScale ? tr("\nlogarithmic slider") : QString()));
            }
    }
}

} // namespace fb
