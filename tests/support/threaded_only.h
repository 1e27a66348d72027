#pragma once
// For a test's init(): under ThreadSanitizer, skip the current function unless it is one of
// `threaded`, the functions that start a thread (see threadSanitizedBuild()).
#include "support/sanitized.h"

#include <QTest>

#include <cstring>
#include <initializer_list>

inline void skipUnlessThreaded(std::initializer_list<const char *> threaded)
{
    if (!threadSanitizedBuild()) return;
    for (const char *name : threaded)
        if (std::strcmp(QTest::currentTestFunction(), name) == 0) return;
    QSKIP("no thread of FullBand's own here: its figures are checked in the Release and ASan builds");
}
