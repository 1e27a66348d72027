// Event-loop lateness while the training lab trains both arms: a precise 5 ms timer on the GUI
// thread records how late each tick comes (actual interval - 5 ms) while the curves are pulled into
// the chart at 30 Hz and painted. Prints p50 / p95 / max. Targets: p95 < 16 ms, max < 50 ms.
// Run: QT_QPA_PLATFORM=offscreen build/tests/bench_event_loop [STEPS]
#include "views/training/loss_curve_chart.h"
#include "views/training/training_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

using namespace fb;

namespace {

double percentile(std::vector<double> v, double q)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

// CPU seconds used so far by the calling thread (Linux) or the process.
double cpuSeconds(bool thisThread)
{
    rusage u {};
#ifdef RUSAGE_THREAD
    getrusage(thisThread ? RUSAGE_THREAD : RUSAGE_SELF, &u);
#else
    (void)thisThread;
    getrusage(RUSAGE_SELF, &u);
#endif
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int steps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2000;

    TrainingView lab;
    lab.resize(1370, 1000);
    lab.show();
    lab.LabView::waitForResult();  // the parameter preview only: no training yet
    ParamValues v = lab.values();
    v.numbers["steps"] = steps;
    v.texts["arm"] = "both";
    if (const QString err = lab.setValues(v); !err.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(err));
        return 2;
    }

    constexpr double kIntervalMs = 5.0;
    std::vector<double> lateness;
    lateness.reserve(100000);
    QElapsedTimer clock;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(int(kIntervalMs));
    qint64 last = 0;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        lateness.push_back(std::max(0.0, double(now - last) / 1e6 - kIntervalMs));
        last = now;
    });
    QObject::connect(&lab, &LabView::resultShown, &app, [&] {
        if (lab.state() == TrainingView::State::Done) app.quit();
    });
    double guiCpu0 = 0, allCpu0 = 0;
    QTimer::singleShot(0, [&] {
        guiCpu0 = cpuSeconds(true);
        allCpu0 = cpuSeconds(false);
        clock.start();
        last = 0;
        tick.start();
        lab.start();
    });
    QTimer::singleShot(300000, &app, &QApplication::quit);  // a safety net
    app.exec();
    tick.stop();
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    const double guiCpu = cpuSeconds(true) - guiCpu0, allCpu = cpuSeconds(false) - allCpu0;
    std::printf("training both arms, %d steps each: %.1f s, %d steps drawn, %zu ticks of %.0f ms\n", steps, seconds,
                lab.stepsDone(), lateness.size(), kIntervalMs);
    std::printf("CPU: GUI thread %.2f s (%.1f%% of the wall time), whole process %.2f s\n", guiCpu,
                100.0 * guiCpu / seconds, allCpu);
    std::printf("event-loop lateness: p50 %.2f ms  p95 %.2f ms  max %.2f ms   targets p95 < 16 ms: %s, max < 50 ms: %s\n",
                percentile(lateness, 0.5), percentile(lateness, 0.95),
                lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end()),
                percentile(lateness, 0.95) < 16.0 ? "met" : "MISSED",
                (lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end())) < 50.0 ? "met" : "MISSED");

    // What one frame costs on the GUI thread with the finished curves: the replace of every series
    // (as a pull with new data does) and a full repaint of the lab.
    std::vector<double> replaceMs, paintMs;
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer t;
        t.start();
        lab.chart()->setWindow(lab.chart()->window());  // redraws every curve: one replace per series
        replaceMs.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        (void)lab.grab();  // renders every widget of the lab (repaint() paints nothing offscreen)
        paintMs.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::printf("one frame at the end (%d steps a curve): replace all series %.2f ms, paint the lab (grab) %.2f ms (medians)\n",
                steps, percentile(replaceMs, 0.5), percentile(paintMs, 0.5));
    return 0;
}
