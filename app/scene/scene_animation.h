#pragma once
// A slide that holds an animation instead of a still: in a deck (or scene) file,
//   "animation": { "sweep": "base=100:1e6:log", "frames": 120, "fps": 30 }
// sweeps one numeric parameter of the scene's lab, checked as `fullband animate --sweep` checks it
// (app/animation/animation.h). Lecture mode plays it live in the lab (app/lecture/slide_player.h).
#include "core/lab/param_spec.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace fb {

struct SceneAnimation {
    QString sweep;     // "KEY=FROM:TO[:log]" as written; empty: the slide is a still
    int frames = 150;  // 2 .. 3000
    int fps = 30;      // 1 .. 60
    bool isSet() const { return !sweep.isEmpty(); }
    bool operator==(const SceneAnimation &) const = default;
};

// Parses the "animation" object of a scene at where ("scenes[2].animation"). Errors name the place
// and the valid range ("scenes[2].animation.frames must be an integer in [2, 3000], got 1").
QString parseSceneAnimation(const QJsonValue &value, const QString &where, const LabSpec &lab, SceneAnimation &out);

QJsonObject sceneAnimationToJson(const SceneAnimation &animation);

} // namespace fb
