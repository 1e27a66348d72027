#include "core/lab/param_spec.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fb {

const ParamSpec *LabSpec::find(std::string_view key) const
{
    for (const auto &p : params)
        if (p.key == key) return &p;
    return nullptr;
}

bool LabSpec::isUsed(const ParamSpec &param, const ParamValues &values) const
{
    if (param.usedWith.empty()) return true;
    const auto it = values.texts.find(param.usedWith);
    if (it == values.texts.end()) return true;
    for (const std::string &v : param.usedWithValues)
        if (v == it->second) return true;
    return false;
}

ParamValues LabSpec::defaults() const
{
    ParamValues v;
    for (const auto &p : params) {
        if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text)
            v.texts[p.key] = p.defText;
        else
            v.numbers[p.key] = p.def;
    }
    return v;
}

std::string LabSpec::keyList() const
{
    std::string out;
    for (const auto &p : params) {
        if (!out.empty()) out += ", ";
        out += p.key;
    }
    return out;
}

std::string formatNumber(double value)
{
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    // std::to_chars ignores the locale: "0.008" under de_DE too.
    char buf[64];
    const bool integral = value == std::floor(value) && std::fabs(value) < 1e15;
    const auto r = integral ? std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 0)
                            : std::to_chars(buf, buf + sizeof buf, value);  // shortest that reads back
    return std::string(buf, r.ptr);
}

std::string shortNumber(double value)
{
    if (!std::isfinite(value)) return formatNumber(value);
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 4);
    return std::string(buf, r.ptr);
}

bool parseNumber(std::string_view text, double &out)
{
    // std::from_chars ignores the locale ("2,5" is refused everywhere, "2.5" accepted everywhere).
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty() || text.front() == '+' || (text.front() == '-' && text.size() > 1 && text[1] == '+')) return false;
    double value = 0.0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return false;
    out = value;
    return true;
}

std::size_t characterCount(std::string_view utf8)
{
    std::size_t n = 0;
    for (const char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
    return n;
}

std::string rangeText(const ParamSpec &spec)
{
    switch (spec.kind) {
    case ParamKind::Choice: {
        std::string out = "one of ";
        for (std::size_t i = 0; i < spec.choices.size(); ++i) {
            if (i) out += "|";
            out += spec.choices[i];
        }
        return out;
    }
    case ParamKind::Text:
        if (spec.isFile) return "a file path of at most " + std::to_string(spec.maxLength) + " characters";
        return "a text of at most " + std::to_string(spec.maxLength) + " characters";
    case ParamKind::Integer: {
        std::string what = "an integer";
        if (spec.multipleOf == 2) what = "an even integer";
        else if (spec.multipleOf > 2) what = "an integer multiple of " + std::to_string(spec.multipleOf);
        return what + " in [" + formatNumber(spec.min) + ", " + formatNumber(spec.max) + "]";
    }
    case ParamKind::Real:
        break;
    }
    return "a number in [" + formatNumber(spec.min) + ", " + formatNumber(spec.max) + "]";
}

static std::string describe(const ParamSpec &spec)
{
    return spec.key + (spec.unit.empty() ? "" : " (" + spec.unit + ")");
}

std::string checkNumber(const ParamSpec &spec, double value)
{
    if (spec.kind == ParamKind::Choice || spec.kind == ParamKind::Text)
        return describe(spec) + " must be " + rangeText(spec);
    const std::string bad = describe(spec) + " must be " + rangeText(spec) + ", got " + formatNumber(value);
    if (!std::isfinite(value) || value < spec.min || value > spec.max) return bad;
    if (spec.kind == ParamKind::Integer) {
        if (value != std::floor(value)) return bad;
        if (spec.multipleOf > 1 && std::fmod(value, double(spec.multipleOf)) != 0.0) return bad;
    }
    return {};
}

std::string checkText(const ParamSpec &spec, const std::string &value)
{
    if (spec.kind == ParamKind::Choice) {
        for (const auto &c : spec.choices)
            if (c == value) return {};
        return describe(spec) + " must be " + rangeText(spec) + ", got '" + value + "'";
    }
    if (spec.kind == ParamKind::Text) {
        // Characters, not bytes: "é" is one character (two bytes of UTF-8).
        const std::size_t length = characterCount(value);
        if (length > spec.maxLength)
            return describe(spec) + " must be " + rangeText(spec) + ", got " + std::to_string(length) + " characters";
        return {};
    }
    return describe(spec) + " must be " + rangeText(spec);
}

std::string setFromText(const LabSpec &lab, ParamValues &values, std::string_view key,
                        std::string_view value)
{
    const ParamSpec *spec = lab.find(key);
    if (!spec)
        return "unknown key '" + std::string(key) + "' for " + lab.name + "; valid keys: " + lab.keyList();
    if (spec->kind == ParamKind::Choice || spec->kind == ParamKind::Text) {
        std::string text(value);
        std::string err = checkText(*spec, text);
        if (err.empty()) values.texts[spec->key] = std::move(text);
        return err;
    }
    // Numbers: the whole text must parse ("12abc" and "" are refused).
    std::string text(value);
    double parsed = 0.0;
    if (!parseNumber(text, parsed)) {
        // "1e400" is a number, just beyond any double: say that, not "not a number".
        double ignored = 0.0;
        const char *end = text.data() + text.size();
        const auto r = std::from_chars(text.data() + (!text.empty() && text.front() == '+'), end, ignored);
        const bool beyond = r.ec == std::errc::result_out_of_range && r.ptr == end;
        const std::size_t e = text.find_first_of("eE");
        const bool tiny = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';  // 1e-400
        return describe(*spec) + " must be " + rangeText(*spec) + ", got '" + text + "'"
            + (!beyond ? ", which is not a number"
                       : tiny ? ", which is too close to 0 for a double" : ", which is far outside that range");
    }
    std::string err = checkNumber(*spec, parsed);
    if (err.empty()) values.numbers[spec->key] = parsed;
    return err;
}

std::string checkAll(const LabSpec &lab, const ParamValues &values)
{
    for (const auto &p : lab.params) {
        if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text) {
            auto it = values.texts.find(p.key);
            if (it == values.texts.end()) return p.key + " is missing";
            if (auto err = checkText(p, it->second); !err.empty()) return err;
        } else {
            auto it = values.numbers.find(p.key);
            if (it == values.numbers.end()) return p.key + " is missing";
            if (auto err = checkNumber(p, it->second); !err.empty()) return err;
        }
    }
    return {};
}

ParamSpec integerParam(std::string key, std::string label, std::string unit, double min, double max, double def,
                       std::string help, bool logScale, long long multipleOf)
{
    ParamSpec s { std::move(key), std::move(label), std::move(unit), ParamKind::Integer, min, max, def };
    s.logScale = logScale;
    s.multipleOf = multipleOf;
    s.help = std::move(help);
    return s;
}

ParamSpec realParam(std::string key, std::string label, std::string unit, double min, double max, double def,
                    std::string help, bool logScale)
{
    ParamSpec s { std::move(key), std::move(label), std::move(unit), ParamKind::Real, min, max, def };
    s.logScale = logScale;
    s.help = std::move(help);
    return s;
}

ParamSpec choiceParam(std::string key, std::string label, std::vector<std::string> choices, std::string def,
                      std::string help)
{
    ParamSpec s { std::move(key), std::move(label), "", ParamKind::Choice };
    s.choices = std::move(choices);
    s.defText = std::move(def);
    s.help = std::move(help);
    return s;
}

ParamSpec textParam(std::string key, std::string label, std::string unit, std::string def, std::size_t maxLength,
                    std::string help)
{
    ParamSpec s { std::move(key), std::move(label), std::move(unit), ParamKind::Text };
    s.defText = std::move(def);
    s.maxLength = maxLength;
    s.help = std::move(help);
    return s;
}

} // namespace fb
