#pragma once
// FullBand's one work and memory budget. Every trainer, and every lab that can allocate much or run
// long, adds up what a run of its values needs before the run starts and refuses a run over these
// limits with one sentence that gives the figure and the limit:
//   "batch x seq_len at these widths needs 2.4 GiB of memory, at most 2 GiB; lower batch or seq_len"
// Figures are rounded up (never "needs 2.0 GiB (at most 2)"), the same in every locale.
#include <string>

namespace fb {

struct Cost {
    double bytes = 0.0;  // memory a run holds at its peak
    double flops = 0.0;  // floating-point operations of the whole run (2 per multiply-add)
    Cost &operator+=(const Cost &o)
    {
        bytes += o.bytes;
        flops += o.flops;
        return *this;
    }
};

inline constexpr double kMaxRunBytes = 2.0 * 1024.0 * 1024.0 * 1024.0;  // 2 GiB
// About half an hour to a few hours of one core: runs of minutes fit, runs of days do not.
inline constexpr double kMaxRunFlops = 5e13;

// bytes in GiB rounded up to one decimal: "2.4", "0.1", "2" for exactly 2 GiB.
std::string gibText(double bytes);
// flops rounded up to two significant digits: "2.7e14", "5e13".
std::string flopsText(double flops);

// Empty when cost fits; otherwise one sentence:
//   "<what> needs 2.4 GiB of memory, at most 2 GiB; <hint>"
//   "<what> needs 2.7e14 floating-point operations, at most 5e13; <hint>"
std::string checkBudget(const std::string &what, const Cost &cost, const std::string &hint,
                        double maxBytes = kMaxRunBytes, double maxFlops = kMaxRunFlops);

} // namespace fb
