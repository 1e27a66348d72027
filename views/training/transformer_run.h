#pragma once
// One training of the transformer lab on its own thread: fb::trainTransformer on a copy of the
// config, stopped and paused through one fb::RunControl. The training thread appends each step's
// loss to a buffer and, at every snapshot (about 12 a second), colours the attention maps into
// images itself (HeatmapGrid::colourInto), so the GUI thread only swaps buffers out in take() and
// paints. Destroying a run abandons it and joins its thread.
#include "core/labs/transformer_lab.h"
#include "core/run/run_control.h"
#include "core/transformer/transformer_report.h"
#include "views/widgets/heatmap_grid.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace fb {

// What the lab draws of one snapshot, made on the training thread.
struct TransformerFrame {
    int step = 0;
    double elapsedSeconds = 0.0;
    HeatmapGridData maps;                              // one panel per layer and head
    std::vector<std::vector<double>> inductionScore;   // [layer][head]; empty outside the induction tasks
    double gateMean = TransformerSnapshot::nan;
    int heldoutStep = -1;
    double heldoutLoss = TransformerSnapshot::nan;
    double secondHalfLoss = TransformerSnapshot::nan;
    std::string sample;
};

// What the lab draws of a parameter change: the sizes and the untrained model's maps (if any).
struct TransformerPreview {
    TransformerLabResult sizes;
    std::shared_ptr<const TransformerFrame> maps;
};

class TransformerRun {
public:
    struct Update {
        std::vector<double> losses;                    // new training losses, in step order
        std::shared_ptr<const TransformerFrame> frame; // the newest snapshot since the last take (or null)
        std::optional<TransformerResult> result;       // once, after the run ended
        std::string error;                             // once, if the trainer threw
    };

    explicit TransformerRun(TransformerConfig config);
    ~TransformerRun();  // abandons and joins
    TransformerRun(const TransformerRun &) = delete;
    TransformerRun &operator=(const TransformerRun &) = delete;

    const TransformerConfig &config() const { return config_; }
    Update take();  // GUI thread; holds the lock only to swap buffers
    void setPaused(bool paused);
    bool isHeld() const { return ended_ || control_.parkedWorkers() > 0; }
    void cancel() { control_.cancel(); }
    bool ended() const { return ended_; }
    void join();

    // The frame of a snapshot (public for tests): panels titled "L1 H2 · 0.83" (the induction score).
    // Token labels on the axes except for text (whose probe is characters: positions then).
    static std::shared_ptr<TransformerFrame> makeFrame(const TransformerSnapshot &snap, TransformerTask task);

private:
    void work();

    TransformerConfig config_;
    RunControl control_;
    std::atomic<bool> ended_ { false };
    std::mutex mutex_;
    std::vector<double> pending_;
    std::shared_ptr<const TransformerFrame> frame_;
    std::optional<TransformerResult> result_;
    std::string error_;
    bool reported_ = false;
    std::thread thread_;
};

} // namespace fb
