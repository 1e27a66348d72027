#pragma once
// Parameter descriptions shared by the command line, the labs' panels and saved scenes:
// one place that knows each parameter's key, label, unit, valid range and default.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

enum class ParamKind { Real, Integer, Choice, Text };

struct ParamSpec {
    std::string key;      // command-line key, e.g. "max_distance"
    std::string label;    // what a person reads, e.g. "max distance"
    std::string unit;     // e.g. "tokens"; empty when dimensionless
    ParamKind kind = ParamKind::Real;
    double min = 0.0;     // Real/Integer: inclusive range
    double max = 1.0;
    double def = 0.0;     // Real/Integer default
    bool logScale = false;        // sliders move in log space (RoPE base, SNR, vocabulary ...)
    long long multipleOf = 1;     // Integer: value must be a multiple of this (2 for RoPE widths)
    std::vector<std::string> choices;  // Choice: allowed names
    std::string defText;          // Choice/Text default
    std::size_t maxLength = 200;  // Text: longest accepted value
    bool isFile = false;          // Text: the path of a file to read (panels offer Browse…)
    std::string help;             // one sentence for tooltips and --help
    // Read only while the Choice parameter usedWith has one of usedWithValues (empty usedWith:
    // always): panels grey the parameter otherwise and captions leave it out. Its value is still
    // checked and kept.
    std::string usedWith;
    std::vector<std::string> usedWithValues;
};

// The values of one lab's parameters. Real/Integer live in numbers, Choice/Text in texts.
struct ParamValues {
    std::map<std::string, double> numbers;
    std::map<std::string, std::string> texts;

    double number(const std::string &key) const { return numbers.at(key); }
    long long integer(const std::string &key) const { return static_cast<long long>(numbers.at(key)); }
    const std::string &text(const std::string &key) const { return texts.at(key); }
    bool operator==(const ParamValues &) const = default;
};

struct LabSpec {
    std::string name;   // command-line name, e.g. "decay-bound"
    std::string title;  // e.g. "RoPE decay bound"
    std::vector<ParamSpec> params;
    std::string source;   // where in the sources it comes from, e.g. "218.4.4, Figure 218.1 (right)"
    std::string summary;  // one sentence on what it shows, for the start page and --help
    std::string section;  // the section it follows, with its heading, e.g. "218.4.4 Rotary position embeddings"
    bool trains = false;  // a lab that trains a model live (Start / Pause ...): a slide may start it
    std::string sweep;    // the sweep Export animation proposes ("KEY=FROM:TO[:log]"); empty: the first number

    const ParamSpec *find(std::string_view key) const;
    // Whether values make the lab read param (ParamSpec::usedWith).
    bool isUsed(const ParamSpec &param, const ParamValues &values) const;
    ParamValues defaults() const;
    // "d, base, max_distance, ..." for messages.
    std::string keyList() const;
};

// FullBand's one way to write a parameter down, for every lab: key, label, unit, range, default,
// one sentence of help, then how its slider moves (log scale) and what an integer must be a
// multiple of.
ParamSpec integerParam(std::string key, std::string label, std::string unit, double min, double max, double def,
                       std::string help, bool logScale = false, long long multipleOf = 1);
ParamSpec realParam(std::string key, std::string label, std::string unit, double min, double max, double def,
                    std::string help, bool logScale = false);
ParamSpec choiceParam(std::string key, std::string label, std::vector<std::string> choices, std::string def,
                      std::string help);
ParamSpec textParam(std::string key, std::string label, std::string unit, std::string def, std::size_t maxLength,
                    std::string help);

// Characters (Unicode code points) of UTF-8 text: what a Text parameter's maxLength counts.
std::size_t characterCount(std::string_view utf8);

// "an even integer in [2, 1024]", "a number in [1.0001, 1e+06]", "one of none|pi|ntk|yarn".
std::string rangeText(const ParamSpec &spec);

// Empty when value is valid for spec; otherwise one clear sentence naming the key and range.
std::string checkNumber(const ParamSpec &spec, double value);
std::string checkText(const ParamSpec &spec, const std::string &value);

// Parses and checks "value" for parameter "key" of lab and stores it in values.
// Returns an empty string on success; on failure values is left unchanged and the
// returned message names the key, what was given and the valid range.
std::string setFromText(const LabSpec &lab, ParamValues &values, std::string_view key,
                        std::string_view value);

// Checks every parameter of values against lab (missing keys are an error too).
std::string checkAll(const LabSpec &lab, const ParamValues &values);

// Shortest text that reads back to the same double, for JSON, scenes and messages; the same in every
// locale ("0.008", never "0,008").
std::string formatNumber(double value);

// Losses and norms for messages: 4 significant digits (printf's %.4g), the same in every locale
// ("1.386e+04", never "1,386e+04"); "nan", "inf", "-inf" as formatNumber writes them.
std::string shortNumber(double value);

// The whole of text as a number ("2.5", "1e-3", "+4"; "inf" and "nan" too, for the range check to
// refuse), in every locale; false for anything else ("2,5", "12abc", "").
bool parseNumber(std::string_view text, double &out);

} // namespace fb
