#pragma once
// Progress of a long command-line run on stderr, when stderr is a terminal (a script reading stderr
// sees nothing): one line rewritten in place, at most 4 times a second,
//   "fullband: training step 12,000 of 200,000, about 3 min left"
// and cleared when the run ends. Thread-safe: trainers report from several threads.
#include <chrono>
#include <mutex>
#include <string>

namespace fb {

class ProgressLine {
public:
    // "training" and "step": "fullband: training step 12,000 of 200,000, ..."; "rendering", "frame".
    explicit ProgressLine(std::string what, std::string unit = "step");
    ~ProgressLine();                          // clears the line
    ProgressLine(const ProgressLine &) = delete;
    ProgressLine &operator=(const ProgressLine &) = delete;

    bool enabled() const { return enabled_; }
    // done of total steps so far (over every arm).
    void update(long long done, long long total);

private:
    std::string what_, unit_;
    bool enabled_ = false;
    bool shown_ = false;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point start_, last_;
};

} // namespace fb
