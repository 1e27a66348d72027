#pragma once
// The labs FullBand shows, in sidebar order, and how to make each.
#include "core/param_spec.h"

#include <QList>
#include <QString>

#include <functional>

namespace fb {

class LabView;

struct LabEntry {
    QString name;    // command-line name ("decay-bound")
    QString title;   // sidebar text
    QString icon;    // resource path of the sidebar icon
    std::function<LabView *()> create;
    std::function<const LabSpec &()> spec;  // the lab's parameters, without making the view
};

const QList<LabEntry> &labRegistry();

// Index in labRegistry() of a lab name, or -1.
int labIndex(const QString &name);

// The spec of a lab by name (nullptr for unknown names), for reading scenes.
const LabSpec *labSpec(const QString &name);

// "attention, rope-invariance, ..." for messages.
QString labNames();

} // namespace fb
