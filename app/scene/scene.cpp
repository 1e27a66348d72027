#include "app/scene/scene.h"

#include "core/io/atomic_file.h"
#include "core/io/bounded_read.h"
#include "core/lab/lab.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <cstring>

namespace fb {

namespace {

QString describeJson(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String: return QStringLiteral("'%1'").arg(v.toString().left(60));
    case QJsonValue::Double: return QString::fromStdString(formatNumber(v.toDouble()));
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    default: return QStringLiteral("nothing");
    }
}

// The optional "notes": text of at most kMaxNotesChars characters.
QString parseNotes(const QJsonObject &o, const QString &where, Scene &scene)
{
    const QJsonValue notes = o.value(QStringLiteral("notes"));
    if (notes.isUndefined()) return {};
    if (!notes.isString()) return QStringLiteral("%1notes must be text, got %2").arg(where, describeJson(notes));
    if (const qsizetype n = characterCount(notes.toString()); n > kMaxNotesChars)
        return QStringLiteral("%1notes are %2 characters long; notes are at most %3 characters")
            .arg(where).arg(n).arg(kMaxNotesChars);
    scene.notes = notes.toString();
    return {};
}

// Parses one scene object found at `where` ("" for a lone scene, "scenes[2]." in a deck).
QString parseScene(const QJsonObject &o, const QString &where, const SpecLookup &specFor, Scene &out,
                   QStringList &warnings)
{
    const QJsonValue labValue = o.value(QStringLiteral("lab"));
    if (!labValue.isString()) return QStringLiteral("%1lab must be a lab name, got %2").arg(where, describeJson(labValue));
    const QString lab = labValue.toString();
    const LabSpec *spec = specFor(lab);
    if (!spec) return QStringLiteral("%1lab '%2' is not a FullBand lab").arg(where, lab.left(60));
    Scene scene;
    scene.lab = lab;
    scene.values = spec->defaults();
    if (o.contains(QStringLiteral("title"))) {
        if (!o.value(QStringLiteral("title")).isString())
            return QStringLiteral("%1title must be text, got %2").arg(where, describeJson(o.value(QStringLiteral("title"))));
        scene.title = o.value(QStringLiteral("title")).toString().left(200);
    }
    if (QString err = parseNotes(o, where, scene); !err.isEmpty()) return err;
    const QJsonValue paramsValue = o.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject())
        return QStringLiteral("%1params must be an object, got %2").arg(where, describeJson(paramsValue));
    const QJsonObject params = paramsValue.toObject();
    for (auto it = params.begin(); it != params.end(); ++it) {
        const QString place = QStringLiteral("%1params.%2").arg(where, it.key());
        const ParamSpec *p = spec->find(it.key().toStdString());
        if (!p) {
            warnings << QStringLiteral("%1 is not a parameter of %2 and was ignored").arg(place, lab);
            continue;
        }
        std::string err;
        if (p->kind == ParamKind::Choice || p->kind == ParamKind::Text) {
            if (!it.value().isString())
                return QStringLiteral("%1 must be %2, got %3").arg(place, QString::fromStdString(rangeText(*p)), describeJson(it.value()));
            err = checkText(*p, it.value().toString().toStdString());
            if (err.empty()) scene.values.texts[p->key] = it.value().toString().toStdString();
        } else {
            double v = 0;
            if (it.value().isDouble()) v = it.value().toDouble();
            else if (it.value().isBool()) v = it.value().toBool() ? 1.0 : 0.0;
            else return QStringLiteral("%1 must be %2, got %3").arg(place, QString::fromStdString(rangeText(*p)), describeJson(it.value()));
            err = checkNumber(*p, v);
            if (err.empty()) scene.values.numbers[p->key] = v;
        }
        if (!err.empty()) return QStringLiteral("%1: %2").arg(place, QString::fromStdString(err));
    }
    const QJsonValue extra = o.value(QStringLiteral("extra"));
    if (!extra.isUndefined() && !extra.isObject())
        return QStringLiteral("%1extra must be an object, got %2").arg(where, describeJson(extra));
    scene.extra = extra.toObject();
    if (o.contains(QStringLiteral("animation")))
        if (QString err = parseSceneAnimation(o.value(QStringLiteral("animation")), where + QStringLiteral("animation"),
                                              *spec, scene.animation);
            !err.isEmpty())
            return err;
    const QJsonValue train = o.value(QStringLiteral("train"));
    if (!train.isUndefined()) {
        if (train != QJsonValue(QStringLiteral("on-enter")) && train != QJsonValue(QStringLiteral("on-key")))
            return QStringLiteral("%1train must be \"on-enter\" or \"on-key\", got %2").arg(where, describeJson(train));
        if (!spec->trains)
            return QStringLiteral("%1train is only for a lab that trains, and %2 does not").arg(where, lab);
        scene.trainOnEnter = train.toString() == QLatin1String("on-enter");
    }
    const bool transformer = lab == QLatin1String("transformer");
    const QJsonValue model = o.value(QStringLiteral("model"));
    if (!model.isUndefined()) {
        if (!transformer) return QStringLiteral("%1model is only for the transformer lab, not %2").arg(where, lab);
        if (!model.isString() || model.toString().isEmpty() || model.toString().size() > kMaxModelPathChars)
            return QStringLiteral("%1model must be the path of a model file (1 to %2 characters), got %3")
                .arg(where).arg(kMaxModelPathChars).arg(describeJson(model));
        scene.model = model.toString();
    }
    const QJsonValue replay = o.value(QStringLiteral("replay"));
    if (!replay.isUndefined()) {
        if (!transformer) return QStringLiteral("%1replay is only for the transformer lab, not %2").arg(where, lab);
        const double step = replay.toDouble(-1.0);
        if (!replay.isDouble() || step < 0 || step > kMaxReplayStep || step != std::floor(step))
            return QStringLiteral("%1replay must be a training step, an integer in [0, %2], got %3")
                .arg(where).arg(kMaxReplayStep).arg(describeJson(replay));
        scene.replayStep = int(step);
    }
    static const QStringList known { QStringLiteral("format"), QStringLiteral("lab"), QStringLiteral("title"),
                                     QStringLiteral("params"), QStringLiteral("extra"), QStringLiteral("animation"),
                                     QStringLiteral("train"), QStringLiteral("model"), QStringLiteral("replay") };
    for (const QString &key : o.keys())
        if (!known.contains(key) && key != QLatin1String("notes"))  // notes: parseNotes
            warnings << QStringLiteral("%1%2 is not a scene key and was ignored").arg(where, key);
    out = std::move(scene);
    return {};
}

} // namespace

QString Scene::modelPath() const
{
    if (model.isEmpty() || QDir::isAbsolutePath(model) || folder.isEmpty()) return model;
    return QDir(folder).filePath(model);
}

qsizetype characterCount(const QString &text)
{
    // A character outside the Basic Multilingual Plane (an emoji) is two UTF-16 units, one character.
    qsizetype n = 0;
    for (const QChar c : text)
        if (!c.isLowSurrogate()) ++n;
    return n;
}

QString firstCharacters(const QString &text, qsizetype count)
{
    qsizetype seen = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isLowSurrogate()) continue;
        if (seen++ == count) return text.left(i);
    }
    return text;
}

SceneParse parseSceneOrDeck(const QByteArray &json, const SpecLookup &specFor)
{
    SceneParse r;
    if (json.size() > kMaxSceneBytes) {
        r.error = QStringLiteral("the file is %1 bytes; scenes and decks are at most %2 bytes").arg(json.size()).arg(kMaxSceneBytes);
        return r;
    }
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError) {
        r.error = QStringLiteral("not valid JSON at byte %1: %2").arg(perr.offset).arg(perr.errorString());
        return r;
    }
    if (!doc.isObject()) {
        r.error = QStringLiteral("a scene or deck must be a JSON object");
        return r;
    }
    const QJsonObject o = doc.object();
    const QJsonValue format = o.value(QStringLiteral("format"));
    if (!format.isDouble() || format.toDouble() != kSceneFormat) {
        r.error = QStringLiteral("format must be %1 (this FullBand reads format %1), got %2").arg(kSceneFormat).arg(describeJson(format));
        return r;
    }
    if (o.contains(QStringLiteral("scenes"))) {
        r.isDeck = true;
        const QJsonValue t = o.value(QStringLiteral("deck"));
        if (!t.isUndefined() && !t.isString()) {
            r.error = QStringLiteral("deck must be the deck's title, got %1").arg(describeJson(t));
            return r;
        }
        r.deck.title = t.toString().left(200);
        const QJsonValue scenes = o.value(QStringLiteral("scenes"));
        if (!scenes.isArray() || scenes.toArray().isEmpty()) {
            r.error = QStringLiteral("scenes must be a non-empty array of scenes, got %1").arg(describeJson(scenes));
            return r;
        }
        const QJsonArray arr = scenes.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QString where = QStringLiteral("scenes[%1].").arg(i);
            if (!arr[i].isObject()) {
                r.error = QStringLiteral("scenes[%1] must be a scene object, got %2").arg(i).arg(describeJson(arr[i]));
                return r;
            }
            Scene s;
            if (QString err = parseScene(arr[i].toObject(), where, specFor, s, r.warnings); !err.isEmpty()) {
                r.error = err;
                return r;
            }
            // Each slide is checked as its scene alone would be when opened (a text file that cannot be
            // read, a run over the budget): a deck is refused at load, not at the bad slide.
            if (const LabDefinition *lab = findLab(s.lab.toStdString()); lab && lab->check)
                if (const std::string err = lab->check(s.values); !err.empty()) {
                    r.error = QStringLiteral("scenes[%1]: %2").arg(i).arg(QString::fromStdString(err));
                    return r;
                }
            r.deck.scenes.append(s);
        }
        for (const QString &key : o.keys())
            if (key != QLatin1String("format") && key != QLatin1String("deck") && key != QLatin1String("scenes"))
                r.warnings << QStringLiteral("%1 is not a deck key and was ignored").arg(key);
        return r;
    }
    r.error = parseScene(o, QString(), specFor, r.scene, r.warnings);
    return r;
}

SceneParse readSceneFile(const QString &path, const SpecLookup &specFor)
{
    SceneParse r;
    // A regular file of at most kMaxSceneBytes, opened without blocking (a FIFO is refused).
    std::string bytes;
    if (const std::string err = readRegularFile(QFile::encodeName(path).toStdString(), std::size_t(kMaxSceneBytes), bytes);
        !err.empty()) {
        r.error = QString::fromStdString(err);
        return r;
    }
    return parseSceneOrDeck(QByteArray::fromStdString(bytes), specFor);
}

QJsonObject sceneToJson(const Scene &scene, const LabSpec &spec)
{
    QJsonObject params;
    for (const auto &p : spec.params) {
        // A scene naming a model whose text file is unknown (an opened model's): no empty text, which
        // no window would take; the model brings its values.
        if (p.kind == ParamKind::Text && !scene.model.isEmpty() && scene.values.text(p.key).empty()) continue;
        if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text)
            params.insert(QString::fromStdString(p.key), QString::fromStdString(scene.values.text(p.key)));
        else
            params.insert(QString::fromStdString(p.key), scene.values.number(p.key));
    }
    QJsonObject o;
    o.insert(QStringLiteral("format"), kSceneFormat);
    o.insert(QStringLiteral("lab"), scene.lab);
    if (!scene.title.isEmpty()) o.insert(QStringLiteral("title"), scene.title);
    if (!scene.notes.isEmpty()) o.insert(QStringLiteral("notes"), scene.notes);
    o.insert(QStringLiteral("params"), params);
    if (!scene.extra.isEmpty()) o.insert(QStringLiteral("extra"), scene.extra);
    if (scene.animation.isSet()) o.insert(QStringLiteral("animation"), sceneAnimationToJson(scene.animation));
    if (scene.trainOnEnter) o.insert(QStringLiteral("train"), QStringLiteral("on-enter"));
    if (!scene.model.isEmpty()) o.insert(QStringLiteral("model"), scene.model);
    if (scene.replayStep >= 0) o.insert(QStringLiteral("replay"), scene.replayStep);
    return o;
}

QByteArray serializeScene(const Scene &scene, const LabSpec &spec)
{
    return QJsonDocument(sceneToJson(scene, spec)).toJson(QJsonDocument::Indented);
}

QByteArray serializeDeck(const Deck &deck, const SpecLookup &specFor)
{
    QJsonArray scenes;
    for (const Scene &s : deck.scenes) {
        const LabSpec *spec = specFor(s.lab);
        if (!spec) continue;
        QJsonObject o = sceneToJson(s, *spec);
        o.remove(QStringLiteral("format"));
        scenes.append(o);
    }
    QJsonObject o;
    o.insert(QStringLiteral("format"), kSceneFormat);
    o.insert(QStringLiteral("deck"), deck.title);
    o.insert(QStringLiteral("scenes"), scenes);
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QString writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    const std::string err = fb::writeFileAtomically(QFile::encodeName(path).toStdString(),
                                                    std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (err.empty()) return {};
    // "cannot write 'x': reason" -> "cannot save 'x': reason": the window's word for scenes.
    return QStringLiteral("cannot save") + QString::fromStdString(err).mid(int(std::strlen("cannot write")));
}

} // namespace fb
