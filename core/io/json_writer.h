#pragma once
// A small JSON writer for the core (no Qt): every lab writes its typed result through it, so
// `fullband compute` prints exactly the figures the window draws. Compact output, numbers in their
// shortest round-trip form in every locale (formatNumber), strings escaped per RFC 8259.
// Non-finite numbers are written as null and remembered (finite() turns false): the command line
// refuses such a result instead of printing it.
//
//   JsonWriter j;
//   j.beginObject().field("distance", xs).field("bound", ys).key("marks").beginArray()...endArray().endObject();
#include <Eigen/Core>

#include <string>
#include <string_view>
#include <vector>

namespace fb {

class JsonWriter {
public:
    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(std::string_view name);

    JsonWriter &value(double v);
    JsonWriter &value(int v) { return value(double(v)); }
    JsonWriter &value(long long v) { return value(double(v)); }
    JsonWriter &value(bool v);
    JsonWriter &value(std::string_view v);
    JsonWriter &value(const char *v) { return value(std::string_view(v)); }
    JsonWriter &value(const std::string &v) { return value(std::string_view(v)); }
    JsonWriter &value(const std::vector<double> &values);
    JsonWriter &value(const std::vector<int> &values);
    JsonWriter &value(const std::vector<std::string> &values);
    JsonWriter &value(const Eigen::VectorXd &values);
    // Rows of a matrix as arrays: m[row][col].
    JsonWriter &value(const Eigen::MatrixXd &m);

    template <typename T>
    JsonWriter &field(std::string_view name, const T &v)
    {
        key(name);
        return value(v);
    }

    bool finite() const { return finite_; }
    const std::string &str() const { return out_; }

private:
    void separate();  // a comma before the second and later elements of the open container

    std::string out_;
    std::vector<bool> firstInContainer_;
    bool afterKey_ = false;
    bool finite_ = true;
};

} // namespace fb
