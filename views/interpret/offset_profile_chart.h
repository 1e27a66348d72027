#pragma once
// What position does inside one trained head (core/interpret/offset_profile.h): its mean
// pre-softmax logit against the offset delta = i - j between query and key, and under RoPE each
// frequency pair's share of it (fastest pair to slowest in viridis order; they sum to the mean),
// drawn against the RoPE decay bound of Figure 218.1 at the head's width and base (on the head's
// scale: core scales it so its top is the head's largest |logit|).
// Draws the run's numbers; computes nothing.
#include "views/widgets/chart_panel.h"

#include <vector>

class QLineSeries;

namespace fb {

class OffsetProfileChart : public ChartPanel {
    Q_OBJECT
public:
    explicit OffsetProfileChart(QWidget *parent = nullptr);

    // profile[delta]; pairs[pair][delta] (empty: not RoPE); bound[delta] on the head's scale (empty: not RoPE).
    void setHead(const QString &name, const std::vector<double> &profile,
                 const std::vector<std::vector<double>> &pairs, const std::vector<double> &bound);
    void clearHead();  // no run: an empty chart that says so in its title
    int pairCount() const { return int(pairLines_.size()); }

private:
    QLineSeries *profile_ = nullptr, *bound_ = nullptr;
    std::vector<QLineSeries *> pairLines_;
};

} // namespace fb
