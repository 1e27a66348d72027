#include "app/cli/progress_line.h"

#include "core/run/time_left.h"
#include "views/widgets/number_text.h"

#include <cstdio>

#include <unistd.h>

namespace fb {

ProgressLine::ProgressLine(std::string what, std::string unit)
    : what_(std::move(what))
    , unit_(std::move(unit))
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
    std::string line = "fullband: " + what_ + " " + unit_ + " " + text::grouped(double(done)).toStdString() + " of "
                       + text::grouped(double(total)).toStdString();
    if (const std::string left = timeLeftText(elapsed, done, total); !left.empty()) line += ", " + left;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
}

} // namespace fb
