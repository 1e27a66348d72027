#pragma once
// What position does inside one trained head (core/interpret/offset_profile.h): its mean
// pre-softmax logit against the offset delta = i - j between query and key, and under RoPE each
// frequency pair's share of it (fastest pair to slowest in viridis order; they sum to the mean),
// drawn against the RoPE decay bound of Figure 218.1 at the head's width and base (right axis).
// Draws the run's numbers; computes nothing.
#include "views/widgets/chart_panel.h"

#include <vector>

class QLineSeries;
class QValueAxis;

namespace fb {

class OffsetProfileChart : public ChartPanel {
    Q_OBJECT
public:
    explicit OffsetProfileChart(QWidget *parent = nullptr);

    // profile[delta]; pairs[pair][delta] (empty: not RoPE); bound[delta] (empty: not RoPE).
    void setHead(const QString &name, const std::vector<double> &profile,
                 const std::vector<std::vector<double>> &pairs, const std::vector<double> &bound);
    void clearHead();  // no run: an empty chart that says so in its title
    int pairCount() const { return int(pairLines_.size()); }

private:
    QLineSeries *profile_ = nullptr, *bound_ = nullptr;
    std::vector<QLineSeries *> pairLines_;
    QValueAxis *boundAxis_ = nullptr;
};

} // namespace fb
