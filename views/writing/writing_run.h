#pragma once
// One writing of the transformer lab's writing panel: core's TextWriter (core/transformer/text_writer.h)
// on a copy of the weights it is handed, as core's one background run (core/run/background_run.h).
// The work writes one character at a time at the pace asked for (characters a second: the time the
// model computes is measured apart from that wait), colours every head's attention strip into an
// image on the run's thread and publishes the text so far and the newest character's cache; the
// panel's timer moves it out with take() and paints. This file hands that work in and starts no
// thread. Destroying a run abandons it and joins its thread (within one character).
#include "core/run/background_run.h"
#include "core/run/pace.h"
#include "core/transformer/text_writer.h"

#include <QImage>

#include <memory>
#include <string>

namespace fb {

// What the panel draws of the writing so far.
struct WritingFrame {
    WrittenCharacter last;   // the newest character and the cache after it (attention left empty)
    QImage strips;           // (layers * heads) rows of t pixels: each head's attention of the newest character
    bool finished = false;   // every character asked for is written
};

struct WritingRequest {
    std::shared_ptr<const TrainedTransformer> model;  // trained on text
    std::string prompt;
    double temperature = 0.8;
    int topK = 20;
    int chars = 300;
    std::uint64_t seed = 0;
    double pace = 25.0;      // characters a second shown (0: as fast as it computes)
};

class WritingRun {
public:
    struct Update {
        std::string text;                            // characters written since the last take, UTF-8
        std::shared_ptr<const WritingFrame> frame;   // the newest (or null)
        std::string error;                           // once, if the writer threw
        bool ended = false;
    };

    explicit WritingRun(WritingRequest request);
    ~WritingRun();  // abandons and joins
    WritingRun(const WritingRun &) = delete;
    WritingRun &operator=(const WritingRun &) = delete;

    Update take();  // GUI thread; holds the lock only to swap buffers
    void cancel() { run_->cancel(); }
    bool ended() const { return run_->ended(); }
    void join() { run_->join(); }  // tests
    void setPace(double charsPerSecond)
    {
        pace_->set(charsPerSecond);
        run_->control().wake();
    }

private:
    struct Pending {
        std::string text;
        std::shared_ptr<const WritingFrame> frame;
    };
    using Run = BackgroundRun<Pending, int>;

    std::shared_ptr<Pace> pace_;
    std::unique_ptr<Run> run_;
};

} // namespace fb
