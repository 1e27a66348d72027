#pragma once
// Scenes: the whole state of one lab (its parameters and extras such as pinned curves) as a small,
// human-readable JSON file (.fullband), and decks: ordered lists of scenes for a lecture.
//
//   { "format": 1, "lab": "decay-bound", "title": "Figure 218.1, right",
//     "params": { "d": 64, "base": 10000, "scaling": "none", ... },
//     "extra": { ... lab-specific, e.g. pinned curves ... }, "notes": "the lecturer's notes",
//     "train": "on-enter" (labs that train: start when lecture mode shows the slide; default "on-key"),
//     "model": "induction.fbmodel", "replay": 300 (the transformer lab: a saved model, a replay step) }
//   { "format": 1, "deck": "The Road to Transformers", "scenes": [ {scene}, {scene}, ... ] }
#include "app/scene/scene_animation.h"
#include "core/lab/param_spec.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace fb {

constexpr int kSceneFormat = 1;
constexpr qint64 kMaxSceneBytes = 1 << 20;  // 1 MiB: larger files are refused unread
constexpr int kMaxNotesChars = 20000;        // a slide's notes; longer notes are refused
constexpr int kMaxModelPathChars = 4096;     // a slide's model file path
constexpr int kMaxReplayStep = 100000;       // the longest run the transformer lab trains

struct Scene {
    QString lab;          // lab name, e.g. "decay-bound"
    QString title;        // shown in lecture mode's header; may be empty
    ParamValues values;   // every parameter of the lab
    QJsonObject extra;    // lab-specific state (pins, ghosts); may be empty
    QString notes;        // the lecturer's notes (presenter view); may be empty
    SceneAnimation animation;  // a live sweep instead of a still (app/scene/scene_animation.h); may be unset
    // "train": "on-enter": a lab that trains starts training when lecture mode enters the slide
    // (a clicker has no key for Start). Default "on-key": space starts it on the slide.
    bool trainOnEnter = false;
    // The transformer lab only: "model": a model file (.fbmodel) the slide opens, as trained, instead
    // of training in front of the class (a relative path is read from the scene's or deck's folder);
    // "replay": the run's replay held at this step (the frame at or before it).
    QString model;
    int replayStep = -1;
    QString folder;  // the folder of the file the scene came from (not saved); empty: the working folder
    // The model file's path as the window opens it.
    QString modelPath() const;
};

struct Deck {
    QString title;
    QList<Scene> scenes;
};

// Characters (Unicode code points) of text, as the notes' limit counts them: an emoji is one, not
// the two UTF-16 units QString::size() counts.
qsizetype characterCount(const QString &text);
// The first count characters of text (a surrogate pair is never split).
QString firstCharacters(const QString &text, qsizetype count);

// Looks up a lab's parameter spec by name; nullptr for unknown labs.
using SpecLookup = std::function<const LabSpec *(const QString &lab)>;

struct SceneParse {
    QString error;          // empty on success: then scene/deck hold the result
    QStringList warnings;   // unknown keys that were ignored, named with their place
    bool isDeck = false;
    Scene scene;
    Deck deck;
};

// Parses a scene or a deck. Parameters missing from the file keep the lab's defaults; unknown keys
// are reported in warnings; out-of-range values, wrong types, a wrong format version and unknown
// labs are errors that name the place ("scenes[2].params.d"), the value and the valid range.
SceneParse parseSceneOrDeck(const QByteArray &json, const SpecLookup &specFor);

// Reads and parses a file: only a regular file, opened without blocking, of at most kMaxSceneBytes
// (larger files are refused unread).
SceneParse readSceneFile(const QString &path, const SpecLookup &specFor);

QJsonObject sceneToJson(const Scene &scene, const LabSpec &spec);
QByteArray serializeScene(const Scene &scene, const LabSpec &spec);
QByteArray serializeDeck(const Deck &deck, const SpecLookup &specFor);

// Writes all or nothing (core/io/atomic_file.h): a failed save leaves the previous file exactly as it
// was. Returns an error message naming the path and the reason, or empty.
QString writeFileAtomically(const QString &path, const QByteArray &bytes);

} // namespace fb
