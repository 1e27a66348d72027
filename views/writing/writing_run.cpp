#include "views/writing/writing_run.h"

#include "views/widgets/heatmap_grid.h"

#include <Eigen/Core>

namespace fb {

namespace {

// The attention strips are coloured on a log scale from this weight up to 1: a head spread over 64
// positions (1/64 each) stays visible beside one that looks at a single character.
constexpr double kStripFloor = 0.005;

} // namespace

WritingRun::WritingRun(WritingRequest request)
    : pace_(std::make_shared<Pace>(request.pace))
{
    run_ = std::make_unique<Run>([request = std::move(request), pace = pace_](RunControl &control, Run::Outbox &out) {
        TextWriter writer(request.model, request.prompt, request.temperature, request.topK, request.seed);
        WrittenCharacter c;
        Eigen::MatrixXd values;
        Pace::Clock::time_point last = Pace::Clock::now();
        for (int i = 0; i < request.chars; ++i) {
            if (control.stopRequested()) break;
            writer.next(c);
            auto frame = std::make_shared<WritingFrame>();
            values.resize(Eigen::Index(c.attention.size()), c.cachedPositions);
            for (std::size_t r = 0; r < c.attention.size(); ++r)
                for (int t = 0; t < c.cachedPositions; ++t) values(Eigen::Index(r), t) = c.attention[r][std::size_t(t)];
            frame->strips = HeatmapGrid::colourImage(values, 1.0, false, kStripFloor);
            frame->last = c;
            frame->last.attention.clear();
            frame->finished = i + 1 == request.chars;
            out.publish([&](Pending &p) {
                p.text += c.text;
                p.frame = std::move(frame);
            });
            pace->afterStep(control, last);
        }
        return 0;
    });
}

WritingRun::~WritingRun() = default;  // the run abandons and joins

WritingRun::Update WritingRun::take()
{
    Run::Taken t = run_->take();
    Update u;
    u.text = std::move(t.update.text);
    u.frame = std::move(t.update.frame);
    u.error = std::move(t.error);
    u.ended = t.result.has_value() || !u.error.empty();
    return u;
}

} // namespace fb
