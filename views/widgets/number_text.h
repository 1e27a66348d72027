#pragma once
// How FullBand's labs write numbers: the way the chapter and the encyclopedia page
// print them (131,072 tokens; 42.9 GB; 3.15 × 10²³ FLOPs; 1.04%).
#include <QString>

namespace fb::text {

// Four significant digits, the way a person writes an input: 0.9, 0.25, 32, 1.5.
QString short4(double value);
// Rounded to an integer with thousands separators: 131072 -> "131,072".
QString grouped(double value);
// Fixed decimals with thousands separators: (7084.93, 1) -> "7,084.9".
QString groupedFixed(double value, int decimals);
// Fixed decimals, no separators: (1.3667, 3) -> "1.367"; "—" for NaN and infinity.
QString fixed(double value, int decimals);
// A fraction as a percentage like Python's "{:.2%}": (0.0104, 2) -> "1.04%".
QString percent(double fraction, int decimals);
// Decimal (SI) bytes with three significant digits: 42.9e9 -> "42.9 GB", 327680 -> "328 kB".
QString bytes(double value);
// Counts with three significant digits and a word: 64.4e9 -> "64.4 billion".
QString count(double value);
// Short vocabulary sizes for labels: 32000 -> "32k", 1.5e6 -> "1.5M".
QString shortCount(double value);
// Scientific notation with three significant digits: 3.15e23 -> "3.15 × 10²³".
QString scientific(double value);

} // namespace fb::text
