#include "views/widgets/number_text.h"

#include <QLocale>

#include <cmath>

namespace fb::text {

namespace {

const QLocale &english()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

// Rounds to three significant digits and returns the value with its power-of-1000 step.
struct Scaled { double value; int step; };
Scaled scale1000(double v, int maxStep)
{
    int step = 0;
    double a = std::fabs(v);
    while (step < maxStep) {
        const double r = std::round(a / std::pow(10.0, std::floor(std::log10(a)) - 2))
            * std::pow(10.0, std::floor(std::log10(a)) - 2);
        if (!(r >= 1000.0)) break;
        a /= 1000.0;
        ++step;
    }
    return { v < 0 ? -a : a, step };
}

QString threeDigits(double v)
{
    if (v == 0.0 || !std::isfinite(v)) return QString::number(v);
    const int magnitude = int(std::floor(std::log10(std::fabs(v))));
    const int decimals = std::max(0, 2 - magnitude);
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {  // 70.0 -> 70, 1.50 -> 1.5
        while (s.endsWith(QLatin1Char('0'))) s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s;
}

} // namespace

QString short4(double value)
{
    return QString::number(value, 'g', 4);
}

QString grouped(double value)
{
    if (!std::isfinite(value)) return QString::number(value);
    return english().toString(static_cast<qlonglong>(std::llround(value)));
}

QString groupedFixed(double value, int decimals)
{
    if (!std::isfinite(value)) return QString::number(value);
    return english().toString(value, 'f', decimals);
}

QString fixed(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("—");
}

QString percent(double fraction, int decimals)
{
    return QString::number(fraction * 100.0, 'f', decimals) + QLatin1Char('%');
}

QString bytes(double value)
{
    static const char *units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
    if (!std::isfinite(value) || value <= 0.0) return QString::number(value) + QStringLiteral(" B");
    if (value < 1.0) return QString::number(value, 'g', 3) + QStringLiteral(" B");
    const Scaled s = scale1000(value, 6);
    return threeDigits(s.value) + QLatin1Char(' ') + QLatin1String(units[s.step]);
}

QString count(double value)
{
    static const char *words[] = { "", " thousand", " million", " billion", " trillion", " quadrillion" };
    if (!std::isfinite(value) || std::fabs(value) < 1.0) return QString::number(value, 'g', 3);
    const Scaled s = scale1000(value, 5);
    return threeDigits(s.value) + QLatin1String(words[s.step]);
}

QString shortCount(double value)
{
    static const char *suffix[] = { "", "k", "M", "G" };
    if (!std::isfinite(value) || std::fabs(value) < 1.0) return QString::number(value, 'g', 3);
    int step = 0;
    double a = value;
    while (std::fabs(a) >= 1000.0 && step < 3) {
        a /= 1000.0;
        ++step;
    }
    return QString::number(a, 'g', 3) + QLatin1String(suffix[step]);
}

QString scientific(double value)
{
    if (!std::isfinite(value) || value == 0.0) return QString::number(value);
    static const QString superscripts = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    int exponent = int(std::floor(std::log10(std::fabs(value))));
    double mantissa = value / std::pow(10.0, exponent);
    if (std::fabs(std::round(mantissa * 100.0) / 100.0) >= 10.0) {
        mantissa /= 10.0;
        ++exponent;
    }
    QString e;
    if (exponent < 0) e += QStringLiteral("⁻");
    for (QChar c : QString::number(std::abs(exponent))) e += superscripts[c.digitValue()];
    return QString::number(mantissa, 'f', 2) + QStringLiteral(" × 10") + e;
}

} // namespace fb::text
