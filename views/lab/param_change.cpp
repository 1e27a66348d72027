#include "views/lab/param_change.h"

#include <QObject>
#include <QStringList>

#include <set>
#include <string>

namespace fb {
namespace {

std::set<std::string> changedKeys(const ParamValues &a, const ParamValues &b)
{
    std::set<std::string> keys;
    for (const auto &[key, value] : b.numbers)
        if (auto it = a.numbers.find(key); it == a.numbers.end() || it->second != value) keys.insert(key);
    for (const auto &[key, value] : b.texts)
        if (auto it = a.texts.find(key); it == a.texts.end() || it->second != value) keys.insert(key);
    return keys;
}

QString valueText(const ParamSpec &p, const ParamValues &v)
{
    if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text) {
        const auto it = v.texts.find(p.key);
        QString text = it == v.texts.end() ? QString() : QString::fromStdString(it->second);
        if (text.size() > 24) text = text.left(23) + QChar(0x2026);
        return text;
    }
    const auto it = v.numbers.find(p.key);
    return it == v.numbers.end() ? QString() : QString::fromStdString(formatNumber(it->second));
}

} // namespace

ParamChange::ParamChange(const LabSpec &spec, ParamValues before, ParamValues after,
                         std::function<void(const ParamValues &)> apply)
    : spec_(spec)
    , before_(std::move(before))
    , after_(std::move(after))
    , apply_(std::move(apply))
{
    setText(describe(spec_, before_, after_));
    sinceLast_.start();
}

void ParamChange::undo()
{
    apply_(before_);
    applied_ = false;
}

void ParamChange::redo()
{
    if (applied_) return;  // pushed after the change was made
    apply_(after_);
    applied_ = true;
}

bool ParamChange::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const ParamChange *>(other);
    const std::set<std::string> mine = changedKeys(before_, after_);
    if (mine.size() != 1 || changedKeys(after_, next->after_) != mine) return false;
    if (sinceLast_.elapsed() > kMergeMs) return false;
    after_ = next->after_;
    sinceLast_.start();
    setText(describe(spec_, before_, after_));
    setObsolete(before_ == after_);
    return true;
}

QString ParamChange::describe(const LabSpec &spec, const ParamValues &before, const ParamValues &after)
{
    const std::set<std::string> keys = changedKeys(before, after);
    QStringList parts;
    for (const ParamSpec &p : spec.params) {
        if (!keys.count(p.key)) continue;
        parts << QStringLiteral("%1 %2 \u2192 %3").arg(QString::fromStdString(p.key), valueText(p, before), valueText(p, after));
    }
    if (parts.size() > 2) return QObject::tr("%1 parameters").arg(parts.size());
    return parts.join(QStringLiteral(", "));
}

} // namespace fb
