#include "views/labs/classifier_runner.h"

#include <QCoreApplication>
#include <QEvent>

#include <algorithm>
#include <chrono>

namespace fb {

ClassifierRunner::ClassifierRunner(QObject *parent)
    : QObject(parent)
    , runner_(std::make_unique<LatestWinsRunner>(std::chrono::milliseconds(0)))
{
}

ClassifierRunner::~ClassifierRunner()
{
    runner_.reset();  // cancels the running training and joins; queued calls to this object are dropped with it
}

void ClassifierRunner::start(const ClassifierConfig &config)
{
    ClassifierConfig c = config;
    c.evalEvery = std::max(1, c.steps / 40);
    // The job owns copies of everything it uses; it reaches this object only through queued calls,
    // which cannot outlive it (the destructor joins the worker first).
    latest_ = runner_->submit([this, c](std::uint64_t generation, const RunControl &stop) {
        using Clock = std::chrono::steady_clock;
        auto lastPost = Clock::now() - std::chrono::seconds(1);
        std::vector<ClassifierResult> results;
        for (ClassifierArm arm : { ClassifierArm::Lstm, ClassifierArm::MeanPooling }) {
            const int armIndex = int(results.size());
            results.push_back(trainClassifier(c, arm, [&](const ClassifierProgress &p) {
                const auto now = Clock::now();
                if (now - lastPost < std::chrono::milliseconds(50) && p.step != p.steps) return;
                lastPost = now;
                QMetaObject::invokeMethod(this, [this, generation, armIndex, step = p.step, steps = p.steps,
                                                 seconds = p.elapsedSeconds] {
                    if (generation != latest_) return;
                    progressArm_ = armIndex;
                    progressStep_ = step;
                    progressSteps_ = steps;
                    progressSeconds_ = seconds;
                    Q_EMIT progressed();
                }, Qt::QueuedConnection);
            }, &stop));
            if (stop.stopRequested()) return;  // a newer request replaces this one
        }
        QMetaObject::invokeMethod(this, [this, generation, results = std::move(results)]() mutable {
            if (generation != latest_) return;
            results_ = std::move(results);
            deliveredGeneration_ = generation;
            Q_EMIT resultsReady();
        }, Qt::QueuedConnection);
    });
}

void ClassifierRunner::wait()
{
    runner_->waitIdle();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

} // namespace fb
