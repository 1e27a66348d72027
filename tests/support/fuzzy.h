#pragma once
// FuzzyCompare for FullBand's tests: |actual - expected| <= delta, with a message that shows
// the expression, both values to 17 digits and the tolerance. NaN never passes.
#include <QString>
#include <QTest>

#include <cmath>

#define FB_FUZZY_COMPARE(actual, expected, delta)                                                      \
    do {                                                                                               \
        const double fbActual_ = (actual), fbExpected_ = (expected), fbDelta_ = (delta);               \
        QVERIFY2(std::abs(fbActual_ - fbExpected_) <= fbDelta_,                                        \
                 qPrintable(QStringLiteral("%1 = %2, expected %3 +- %4")                               \
                                .arg(QStringLiteral(#actual))                                          \
                                .arg(fbActual_, 0, 'g', 17)                                            \
                                .arg(fbExpected_, 0, 'g', 17)                                          \
                                .arg(fbDelta_, 0, 'g', 3)));                                           \
    } while (false)
