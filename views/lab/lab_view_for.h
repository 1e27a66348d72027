#pragma once
// A lab view bound to its core lab (core/lab/lab.h): the panel is built from Lab::spec(), refused
// values are explained by Lab::check, and every parameter change runs Lab::compute on the lab's
// worker. The view receives its own result type in draw() and only draws it: no casts, no maths.
// An optional prepare step runs on the worker too, after compute, for drawing work that is too
// heavy for the GUI thread (colouring heatmaps); it must use only what it is given. Base is the
// kind of lab: LabView, or a LabView with more to it (TrainingLabView for the labs that train).
#include "views/lab/lab_view.h"

#include <memory>

namespace fb {

template <typename Lab, typename Frame = typename Lab::Result, typename Base = LabView>
class LabViewFor : public Base {
public:
    using LabType = Lab;  // the core lab this view draws (the registry is keyed by it)
    using Result = typename Lab::Result;

    explicit LabViewFor(QWidget *parent = nullptr)
        : Base(Lab::spec(), parent)
    {
        this->setValidator(&Lab::check);
    }

protected:
    using Prepare = std::function<Frame(Result &&)>;
    using Delivery = LabView::Delivery;

    // Call once, at the end of the subclass's constructor: computes the first result.
    void beginComputing(Prepare prepare = {})
    {
        auto lab = std::make_shared<Lab>();  // used by one job at a time, on the worker only
        this->setJob([this, lab, prepare = std::move(prepare)](const ParamValues &values, const RunControl &stop) -> Delivery {
            Result result = lab->compute(values, stop);
            if (stop.stopRequested()) return {};
            std::shared_ptr<const Frame> frame;
            if constexpr (std::is_same_v<Frame, Result>) {
                frame = std::make_shared<const Frame>(prepare ? prepare(std::move(result)) : std::move(result));
            } else {
                frame = std::make_shared<const Frame>(prepare(std::move(result)));
            }
            return [this, frame] { draw(*frame); };
        });
    }

    // Draws one result on the GUI thread.
    virtual void draw(const Frame &frame) = 0;
};

} // namespace fb
