#include "app/scene/sweep.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace fb {

double Sweep::valueAt(const ParamSpec &spec, int i) const
{
    const double t = frames <= 1 ? 0.0 : double(i) / double(frames - 1);
    double v = log ? std::exp(std::log(from) + t * (std::log(to) - std::log(from))) : from + t * (to - from);
    // Inner frames at 4 significant digits (captions read "base = 1.031e+04", scenes round-trip);
    // the ends exactly as given.
    if (v != 0.0 && i > 0 && i < frames - 1) {
        const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::abs(v))));
        v = std::round(v * scale) / scale;
    }
    if (i == frames - 1) v = to;
    if (i == 0) v = from;
    if (spec.kind == ParamKind::Integer) {
        const double m = double(std::max<long long>(1, spec.multipleOf));
        v = std::round(v / m) * m;
    }
    return std::clamp(v, spec.min, spec.max);
}

QString parseSweep(const LabSpec &lab, const QString &text, Sweep &out)
{
    const QString keys = QString::fromStdString(lab.keyList());
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return QStringLiteral("--sweep expects KEY=FROM:TO[:log], got '%1'; keys for %2: %3")
            .arg(text, QString::fromStdString(lab.name), keys);
    const std::string key = text.left(eq).trimmed().toStdString();
    const ParamSpec *spec = lab.find(key);
    if (!spec || (spec->kind != ParamKind::Real && spec->kind != ParamKind::Integer))
        return QStringLiteral("--sweep: '%1' is not a numeric parameter of %2; keys: %3")
            .arg(QString::fromStdString(key), QString::fromStdString(lab.name), keys);
    const QStringList parts = text.mid(eq + 1).split(QLatin1Char(':'));
    const QString range = QString::fromStdString(rangeText(*spec));
    if (parts.size() < 2 || parts.size() > 3 || (parts.size() == 3 && parts[2] != QLatin1String("log")
                                                 && parts[2] != QLatin1String("lin")))
        return QStringLiteral("--sweep %1 expects FROM:TO or FROM:TO:log with both in %2, got '%3'")
            .arg(QString::fromStdString(key), range, text.mid(eq + 1));
    Sweep s;
    s.key = key;
    s.frames = out.frames;
    if (!parseNumber(parts[0].trimmed().toStdString(), s.from) || !parseNumber(parts[1].trimmed().toStdString(), s.to)
        || !checkNumber(*spec, s.from).empty() || !checkNumber(*spec, s.to).empty())
        return QStringLiteral("--sweep %1: FROM and TO must each be %2, got '%3'")
            .arg(QString::fromStdString(key), range, text.mid(eq + 1));
    if (s.from == s.to)
        return QStringLiteral("--sweep %1: FROM and TO must differ (both %2)").arg(QString::fromStdString(key), parts[0]);
    s.log = parts.size() == 3 ? parts[2] == QLatin1String("log") : false;
    if (s.log && !(s.from > 0 && s.to > 0))
        return QStringLiteral("--sweep %1: a log sweep needs FROM and TO above 0, got '%2'")
            .arg(QString::fromStdString(key), text.mid(eq + 1));
    out = s;
    return {};
}

} // namespace fb
