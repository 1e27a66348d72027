#include "app/progress_line.h"

#include "core/time_left.h"

#include <cstdio>

#include <unistd.h>

namespace fb {

namespace {
std::string grouped(long long n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}
} // namespace

ProgressLine::ProgressLine(std::string what)
    : what_(std::move(what))
    , enabled_(::isatty(STDERR_FILENO) == 1)
    , start_(std::chrono::steady_clock::now())
    , last_(start_)
{
}

ProgressLine::~ProgressLine()
{
    if (shown_) std::fputs("\r\033[K", stderr);
}

void ProgressLine::update(long long done, long long total)
{
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - last_ < std::chrono::milliseconds(250) && done < total) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::string line = "fullband: " + what_ + " step " + grouped(done) + " of " + grouped(total);
    if (const std::string left = timeLeftText(elapsed, done, total); !left.empty()) line += ", " + left;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
}

} // namespace fb
