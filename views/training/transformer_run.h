#pragma once
// One training of the transformer lab: fb::trainTransformer on a copy of the config, as core's one
// background run (core/run/background_run.h). The work publishes each step's loss and, at every
// snapshot (about 12 a second), colours the attention maps into images (HeatmapGrid::colourInto)
// on the run's thread, so the GUI thread only swaps buffers out in take() and paints. This file
// hands that work in and starts no thread. Destroying a run abandons it and joins its thread.
#include "core/labs/transformer_lab.h"
#include "core/model/model_file.h"
#include "core/run/background_run.h"
#include "core/run/pace.h"
#include "core/transformer/transformer_report.h"
#include "views/widgets/heatmap_grid.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fb {

// The linear mixers' states of a snapshot's probe sequence (TransformerSnapshot::states), coloured:
// one grid per position kept, a panel per linear head, |S_t| entries on one colour scale shared by
// every position and head (so a state that grows is seen growing).
struct TransformerStates {
    std::vector<int> positions;          // the probe positions, ascending, the last T - 1
    std::vector<HeatmapGridData> grids;  // [position index]
    int seqLen = 0;
};

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
    double accuracy = TransformerSnapshot::nan;       // the answer tasks: held-out accuracy at heldoutStep
    double trainAccuracy = TransformerSnapshot::nan;  // modular-addition: on the training pairs
    std::string sample;
    // Linear mixers only. The replay keeps the states of its newest frame only (ReplayBar::record).
    std::shared_ptr<const TransformerStates> states;
    bool statesDropped = false;  // the replay's copy of a frame that had states
    std::shared_ptr<const TransformerSnapshot> snapshot;  // what it was made of, without weights (a model file's replay)
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
        // the frames before it since the last take, oldest first (a model file's run: its replay):
        // the replay keeps every frame, the maps show the newest
        std::vector<std::shared_ptr<const TransformerFrame>> history;
        // text with config.snapshotWeights: the newest weights (frames keep none: the replay would
        // hold a copy of the model per frame), and their step
        std::shared_ptr<const TrainedTransformer> weights;
        int weightsStep = -1;
        std::optional<TransformerResult> result;       // once, after the run ended
        std::string error;                             // once, if the trainer threw
    };

    // pace: at most that many training steps a second (0: as fast as it goes).
    explicit TransformerRun(TransformerConfig config, double pace = 0.0);
    // A run that trains nothing: it hands back a model file's run as it was saved (its losses, its
    // final snapshot, its result with the model), so the lab draws it as a training that ended.
    explicit TransformerRun(SavedModel saved);
    ~TransformerRun();  // abandons and joins
    TransformerRun(const TransformerRun &) = delete;
    TransformerRun &operator=(const TransformerRun &) = delete;

    const TransformerConfig &config() const { return config_; }
    Update take();  // GUI thread; holds the lock only to swap buffers
    void setPaused(bool paused) { run_->setPaused(paused); }
    bool isHeld() const { return run_->isHeld(); }
    void cancel() { run_->cancel(); }
    bool ended() const { return run_->ended(); }
    void join() { run_->join(); }
    // Takes effect at once, also in the middle of a paced wait.
    void setPace(double stepsPerSecond)
    {
        pace_->set(stepsPerSecond);
        run_->control().wake();
    }

    // The frame of a snapshot (public for tests): panels titled "L1 H2 · 0.83" (the induction score).
    // Token labels on the axes except for text (whose probe is characters: positions then).
    static std::shared_ptr<TransformerFrame> makeFrame(const TransformerSnapshot &snap, TransformerTask task);
    // The frame without its states (statesDropped), a copy; the frame itself when it has none.
    static std::shared_ptr<const TransformerFrame> withoutStates(std::shared_ptr<const TransformerFrame> frame);
    // The states of a snapshot coloured (null when it has none): panels "L1 H2 · |S| 3.41" (the
    // state's Frobenius norm).
    static std::shared_ptr<const TransformerStates> makeStates(const TransformerSnapshot &snap);

private:
    // What the work publishes between two take()s.
    struct Pending {
        std::vector<double> losses;
        std::shared_ptr<const TransformerFrame> frame;
        std::vector<std::shared_ptr<const TransformerFrame>> history;
        std::shared_ptr<const TrainedTransformer> weights;
        int weightsStep = -1;
    };
    using Run = BackgroundRun<Pending, TransformerResult>;

    TransformerConfig config_;
    std::shared_ptr<Pace> pace_;  // shared with the work
    std::unique_ptr<Run> run_;
};

} // namespace fb
