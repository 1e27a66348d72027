#pragma once
// What each lab of the window shows, what to try, and which formula of the chapter (or of the
// encyclopedia page) it draws: a few paragraphs of rich text for the explanation beside the
// lab's charts. The labs' names, titles, summaries and sections are core's (core/lab/lab.h).
#include <QString>

namespace fb {

// The explanation of the lab called name ("decay-bound", ...); empty for a name without a view.
QString labExplanation(const QString &name);

} // namespace fb
