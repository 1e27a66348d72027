#include "core/io/json_writer.h"

#include "core/lab/param_spec.h"

#include <cmath>
#include <cstdio>

namespace fb {

void JsonWriter::separate()
{
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!firstInContainer_.empty()) {
        if (!firstInContainer_.back()) out_ += ',';
        firstInContainer_.back() = false;
    }
}

JsonWriter &JsonWriter::beginObject()
{
    separate();
    out_ += '{';
    firstInContainer_.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    out_ += '}';
    firstInContainer_.pop_back();
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    separate();
    out_ += '[';
    firstInContainer_.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    out_ += ']';
    firstInContainer_.pop_back();
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view name)
{
    value(name);
    out_ += ':';
    afterKey_ = true;
    return *this;
}

JsonWriter &JsonWriter::value(double v)
{
    separate();
    if (!std::isfinite(v)) {
        finite_ = false;
        out_ += "null";
    } else {
        out_ += formatNumber(v);
    }
    return *this;
}

JsonWriter &JsonWriter::value(bool v)
{
    separate();
    out_ += v ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view v)
{
    separate();
    out_ += '"';
    for (const char c : v) {
        switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
                out_ += buf;
            } else {
                out_ += c;  // UTF-8 passes through unchanged
            }
        }
    }
    out_ += '"';
    return *this;
}

JsonWriter &JsonWriter::value(const std::vector<double> &values)
{
    beginArray();
    for (double v : values) value(v);
    return endArray();
}

JsonWriter &JsonWriter::value(const std::vector<int> &values)
{
    beginArray();
    for (int v : values) value(v);
    return endArray();
}

JsonWriter &JsonWriter::value(const std::vector<std::string> &values)
{
    beginArray();
    for (const std::string &v : values) value(v);
    return endArray();
}

JsonWriter &JsonWriter::value(const Eigen::VectorXd &values)
{
    beginArray();
    for (Eigen::Index i = 0; i < values.size(); ++i) value(values[i]);
    return endArray();
}

JsonWriter &JsonWriter::value(const Eigen::MatrixXd &m)
{
    beginArray();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        beginArray();
        for (Eigen::Index c = 0; c < m.cols(); ++c) value(m(r, c));
        endArray();
    }
    return endArray();
}

} // namespace fb
