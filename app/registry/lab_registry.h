#pragma once
// The labs the window shows, in sidebar order (core's list, core/lab/lab.h), and how to make each
// view. Each view is registered by its own type: the view names its core lab (LabViewFor's LabType),
// and the registry matches it to core's definition of that lab, so no lab's name is written here.
// A lab's icon is found by its name (resources/icons/labs/NAME.svg), its explanation is its view's.
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
    QString (*explanation)() = nullptr;     // what the view's explanation panel says (rich text)
};

const QList<LabEntry> &labRegistry();

// Index in labRegistry() of a lab name, or -1.
int labIndex(const QString &name);

// The spec of a lab by name (nullptr for unknown names), for reading scenes.
const LabSpec *labSpec(const QString &name);

// "attention, rope-invariance, ..." for messages.
QString labNames();

// The window's labs of core's list that have no view registered (empty in a sound build;
// tests/app/registry/tst_lab_registry fails on any).
QStringList labsWithoutView();

} // namespace fb
