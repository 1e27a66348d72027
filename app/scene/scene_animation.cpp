#include "app/scene/scene_animation.h"

#include "app/scene/sweep.h"

#include <cmath>

namespace fb {

namespace {
QString describe(const QJsonValue &v)
{
    if (v.isString()) return QStringLiteral("'%1'").arg(v.toString().left(60));
    if (v.isDouble()) return QString::fromStdString(formatNumber(v.toDouble()));
    if (v.isUndefined()) return QStringLiteral("nothing");
    if (v.isObject()) return QStringLiteral("an object");
    if (v.isArray()) return QStringLiteral("an array");
    return v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false")) : QStringLiteral("null");
}

QString parseCount(const QJsonObject &o, const QString &key, const QString &where, int lo, int hi, int &out)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined()) return {};
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi)
        return QStringLiteral("%1.%2 must be an integer in [%3, %4], got %5").arg(where, key).arg(lo).arg(hi).arg(describe(v));
    out = int(d);
    return {};
}
} // namespace

QString parseSceneAnimation(const QJsonValue &value, const QString &where, const LabSpec &lab, SceneAnimation &out)
{
    if (!value.isObject())
        return QStringLiteral("%1 must be an object {\"sweep\": \"KEY=FROM:TO[:log]\", \"frames\": N, \"fps\": F}, got %2")
            .arg(where, describe(value));
    const QJsonObject o = value.toObject();
    SceneAnimation a;
    if (QString err = parseCount(o, QStringLiteral("frames"), where, 2, 3000, a.frames); !err.isEmpty()) return err;
    if (QString err = parseCount(o, QStringLiteral("fps"), where, 1, 60, a.fps); !err.isEmpty()) return err;
    const QJsonValue sweep = o.value(QStringLiteral("sweep"));
    if (!sweep.isString())
        return QStringLiteral("%1.sweep must be text KEY=FROM:TO[:log]; keys for %2: %3, got %4")
            .arg(where, QString::fromStdString(lab.name), QString::fromStdString(lab.keyList()), describe(sweep));
    Sweep s;
    s.frames = a.frames;
    if (QString err = parseSweep(lab, sweep.toString(), s); !err.isEmpty()) {
        // The command line's message, placed: "--sweep base: FROM and TO ..." -> "<where>.sweep: base: ...".
        QString rest = err.startsWith(QLatin1String("--sweep")) ? err.mid(7) : err;
        if (rest.startsWith(QLatin1Char(':'))) rest = rest.mid(1);
        return QStringLiteral("%1.sweep: %2").arg(where, rest.trimmed());
    }
    a.sweep = sweep.toString().trimmed();
    for (const QString &key : o.keys())
        if (key != QLatin1String("sweep") && key != QLatin1String("frames") && key != QLatin1String("fps"))
            return QStringLiteral("%1.%2 is not an animation key (sweep, frames, fps)").arg(where, key);
    out = a;
    return {};
}

QJsonObject sceneAnimationToJson(const SceneAnimation &a)
{
    return QJsonObject { { QStringLiteral("sweep"), a.sweep }, { QStringLiteral("frames"), a.frames },
                         { QStringLiteral("fps"), a.fps } };
}

} // namespace fb
