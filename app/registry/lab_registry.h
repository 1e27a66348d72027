#pragma once
// The labs the window shows, in sidebar order (core's list, core/lab/lab.h), and how to make each view.
#include "core/lab/param_spec.h"

#include <QList>
#include <QString>


namespace fb {

class LabView;

struct LabEntry {
    QString name;    // command-line name ("decay-bound")
    QString title;   // sidebar text
    QString icon;    // resource path of the sidebar icon
    LabView *(*create)() = nullptr;
    const LabSpec &(*spec)() = nullptr;     // the lab's parameters, without making the view
};

const QList<LabEntry> &labRegistry();

// Index in labRegistry() of a lab name, or -1.
int labIndex(const QString &name);

// The spec of a lab by name (nullptr for unknown names), for reading scenes.
const LabSpec *labSpec(const QString &name);

// "attention, rope-invariance, ..." for messages.
QString labNames();

} // namespace fb
