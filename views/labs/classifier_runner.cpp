#include "views/labs/classifier_runner.h"

#include <QTimer>

#include <algorithm>
#include <chrono>

namespace fb {

namespace {
constexpr int kPullMs = 33;
} // namespace

ClassifierRunner::ClassifierRunner(QObject *parent)
    : QObject(parent)
{
    timer_ = new QTimer(this);
    timer_->setInterval(kPullMs);
    connect(timer_, &QTimer::timeout, this, &ClassifierRunner::pull);
}

ClassifierRunner::~ClassifierRunner()
{
    // Every training is told first, then each is joined (at most one step each).
    if (run_) run_->control().abandon();
    for (auto &r : retired_) r->control().abandon();
    run_.reset();
    retired_.clear();
}

void ClassifierRunner::start(const ClassifierConfig &config)
{
    if (run_) {
        run_->control().abandon();  // nobody reads its results: no held-out pass either
        retired_.push_back(std::move(run_));
    }
    ClassifierConfig c = config;
    c.evalEvery = std::max(1, c.steps / 40);
    // The work owns its copy of the config and reaches nothing of this object.
    run_ = std::make_unique<Run>([c](RunControl &stop, Run::Outbox &out) {
        using Clock = std::chrono::steady_clock;
        auto lastPost = Clock::now() - std::chrono::seconds(1);
        std::vector<ClassifierResult> results;
        for (ClassifierArm arm : { ClassifierArm::Lstm, ClassifierArm::MeanPooling }) {
            const int armIndex = int(results.size());
            results.push_back(trainClassifier(c, arm, [&](const ClassifierProgress &p) {
                const auto now = Clock::now();
                if (now - lastPost < std::chrono::milliseconds(50) && p.step != p.steps) return;
                lastPost = now;
                out.publish([&](Progress &u) { u = Progress { armIndex, p.step, p.steps, p.elapsedSeconds, true }; });
            }, &stop));
            if (stop.stopRequested()) break;  // replaced: nobody reads these results
        }
        return results;
    });
    timer_->start();
}

void ClassifierRunner::pull()
{
    retired_.erase(std::remove_if(retired_.begin(), retired_.end(), [](const auto &r) { return r->ended(); }),
                   retired_.end());  // returned already: destroying them joins at once
    if (run_) {
        Run::Taken t = run_->take();
        if (t.update.fresh) {
            progress_ = t.update;
            Q_EMIT progressed();
        }
        if (t.result || !t.error.empty()) {
            run_.reset();  // its thread has returned
            if (t.result) {
                results_ = std::move(*t.result);
                Q_EMIT resultsReady();
            } else {
                Q_EMIT failed(QString::fromStdString(t.error));
            }
        }
    }
    if (!run_ && retired_.empty()) timer_->stop();
}

void ClassifierRunner::wait()
{
    if (run_) run_->join();
    pull();
}

} // namespace fb
