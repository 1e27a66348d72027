// Slider-drag latency of every analytic lab: 200 successive value changes through the parameter
// panel's slider on a shown lab, each timed from the change to the result drawn (resultShown) and
// the frame that shows it painted: the event loop runs until it has nothing left to do, so every
// chart the new result changed has been repainted (a paint event reaches the end of its paint).
// Charts the change leaves as they are need no repaint and get none. With --every-chart the frame
// instead ends when every chart has been painted, and charts that get no paint within 250 ms are
// repainted by force (counted in the time): the cost of redrawing every chart on every change.
// Prints p50 / p95 / max per lab at the chapter's sizes and at the largest sizes, and how many of
// the lab's drawing surfaces a change repainted on average.
// Targets: p95 <= 8 ms at the defaults, <= 33 ms at the largest sizes (smooth dragging on a 120 Hz display).
// Run: QT_QPA_PLATFORM=offscreen build/tests/bench_lab_latency [--defaults-only] [--every-chart] [--each] [LAB...]
#include "app/registry/lab_registry.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QChartView>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSet>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include <sys/resource.h>

using namespace fb;

namespace {

constexpr int kChanges = 200;

struct Stats {
    double p50 = 0, p95 = 0, max = 0;
    double shownP50 = 0, paintP50 = 0;  // the two parts: change -> resultShown, then the repaint
    double cpuP50 = 0, cpuP95 = 0;       // CPU time spent per change (all threads): the latency of an idle machine
    double surfacesPainted = 0;          // drawing surfaces repainted per change, on average
    int surfaces = 0;                    // of this many
    int timeouts = 0, counted = 0;
};

bool everyChart = false;  // --every-chart: a frame ends when every chart has been painted
bool eachChange = false;  // --each: print every change's value and times (to find the slow ones)

double percentile(std::vector<double> v, double q)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5));
    return v[i];
}

// CPU seconds used so far by the whole process (GUI thread and the lab's worker).
double processCpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

bool isSliderParam(const ParamSpec &p)
{
    if (p.kind == ParamKind::Real) return true;
    return p.kind == ParamKind::Integer && !(p.min == 0.0 && p.max == 1.0);
}

// The parameter a lecturer would drag: the first of a preferred list the lab has, else its first
// number with a slider.
const ParamSpec *dragParam(const LabSpec &spec)
{
    for (const char *key : { "base", "snr", "phi", "offset", "tokens", "layers", "d" })
        if (const ParamSpec *p = spec.find(key); p && isSliderParam(*p)) return p;
    for (const ParamSpec &p : spec.params)
        if (isSliderParam(p)) return &p;
    return nullptr;
}

// The panel's slider for key: sliders are created in the spec's order, one per slider parameter.
QSlider *sliderFor(ParamPanel *panel, const std::string &key)
{
    const QList<QSlider *> sliders = panel->findChildren<QSlider *>();
    int index = 0;
    for (const ParamSpec &p : panel->spec().params) {
        if (!isSliderParam(p)) continue;
        if (p.key == key) return index < sliders.size() ? sliders[index] : nullptr;
        ++index;
    }
    return nullptr;
}

// Records whether the widgets it watches were painted.
class PaintWatch : public QObject {
public:
    explicit PaintWatch(const QList<QWidget *> &widgets) : widgets_(widgets)
    {
        for (QWidget *w : widgets_) w->installEventFilter(this);
    }
    void clear() { painted_.clear(); }
    bool allPainted() const { return painted_.size() >= widgets_.size(); }
    int paintedCount() const { return int(painted_.size()); }
    const QList<QWidget *> &widgets() const { return widgets_; }
    bool wasPainted(QWidget *w) const { return painted_.contains(w); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            // Let the widget paint first, then note it: the time taken after includes the paint.
            watched->removeEventFilter(this);
            QCoreApplication::sendEvent(watched, event);
            watched->installEventFilter(this);
            painted_.insert(static_cast<QWidget *>(watched));
            return true;
        }
        return false;
    }

private:
    QList<QWidget *> widgets_;
    QSet<QWidget *> painted_;
};

// The drawing surfaces of a lab that a new result repaints: every chart's viewport, and
// exportable widgets that are no charts (heatmaps).
QList<QWidget *> drawingSurfaces(LabView *lab)
{
    QList<QWidget *> out;
    for (QChartView *v : lab->findChildren<QChartView *>())
        if (v->isVisible()) out << v->viewport();
    for (Exportable *e : lab->exportables())
        if (auto *w = dynamic_cast<QWidget *>(e); w && w->isVisible() && !qobject_cast<QChartView *>(w)) out << w;
    return out;
}

// Runs the event loop until every watched widget was painted (or forces the rest after timeoutMs).
void waitPainted(PaintWatch &watch, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!watch.allPainted() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    for (QWidget *w : watch.widgets())
        if (!watch.wasPainted(w)) w->repaint();
}

// Runs the event loop until it has nothing left to do (at most timeoutMs): everything a change made
// dirty has been laid out and painted.
void waitIdle(int timeoutMs)
{
    QAbstractEventDispatcher *dispatcher = QAbstractEventDispatcher::instance();
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && dispatcher->processEvents(QEventLoop::AllEvents)) {
    }
}

// The frame after a change: see the top of the file.
void waitFrame(PaintWatch &watch)
{
    if (everyChart) waitPainted(watch, 250);
    else waitIdle(1000);
}

// Waits for the lab's next result. The watch starts over the moment the result is drawn: a paint
// before it showed the old values, one after it (even in the same pass of the event loop) the new.
bool waitShown(LabView *lab, PaintWatch &watch, int timeoutMs)
{
    QEventLoop loop;
    bool shown = false;
    auto c = QObject::connect(lab, &LabView::resultShown, &loop, [&] {
        shown = true;
        watch.clear();
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return shown;
}

Stats drag(LabView *lab, const ParamSpec &param)
{
    Stats s;
    QSlider *slider = sliderFor(lab->panel(), param.key);
    if (!slider) return s;
    // Move 3 positions a step (a steady drag), forwards then back, from where the slider is.
    const int start = slider->value();
    const int span = std::min(slider->maximum() - slider->minimum(), 3 * kChanges / 2);
    const int dir = start + span <= slider->maximum() ? 1 : -1;
    // A slider that snaps to round values changes the lab only every few positions: the drag goes
    // on, forth and back, until kChanges changes were counted (at most 20 passes).
    std::vector<int> positions;
    for (int pass = 0; pass < 20; ++pass) {
        for (int i = 1; i <= kChanges / 2; ++i) positions.push_back(start + dir * std::min(span, 3 * i));
        for (int i = kChanges / 2 - 1; i >= 0; --i) positions.push_back(start + dir * std::min(span, 3 * i));
    }

    std::vector<double> ms, shown, paint, cpu;
    QElapsedTimer clock;
    PaintWatch watch(drawingSurfaces(lab));
    s.surfaces = int(watch.widgets().size());
    int painted = 0;
    for (int pos : positions) {
        if (int(ms.size()) >= kChanges) break;
        waitFrame(watch);  // nothing left over from the previous change
        watch.clear();
        const ParamValues before = lab->values();
        const double cpu0 = processCpuSeconds();
        clock.start();
        slider->setValue(pos);
        if (lab->values() == before) continue;  // rounded to the same value: nothing to redraw
        if (!waitShown(lab, watch, 10000)) {
            ++s.timeouts;
            continue;
        }
        const double atShown = double(clock.nsecsElapsed()) / 1e6;
        waitFrame(watch);
        ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        painted += watch.paintedCount();
        shown.push_back(atShown);
        cpu.push_back((processCpuSeconds() - cpu0) * 1e3);
        paint.push_back(ms.back() - atShown);
        if (eachChange)
            std::printf("  %s = %g: %.2f ms (to result %.2f)\n", param.key.c_str(), lab->values().number(param.key),
                        ms.back(), atShown);
    }
    s.counted = int(ms.size());
    s.surfacesPainted = ms.empty() ? 0.0 : double(painted) / double(ms.size());
    s.p50 = percentile(ms, 0.50);
    s.p95 = percentile(ms, 0.95);
    s.max = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
    s.shownP50 = percentile(shown, 0.50);
    s.paintP50 = percentile(paint, 0.50);
    s.cpuP50 = percentile(cpu, 0.50);
    s.cpuP95 = percentile(cpu, 0.95);
    return s;
}

// The largest sizes named in the brief, where the lab has those keys.
std::map<std::string, double> largestSizes(const QString &lab)
{
    if (lab == QLatin1String("decay-bound")) return { { "d", 1024 }, { "max_distance", 65536 } };
    if (lab == QLatin1String("attention")) return { { "n", 512 }, { "heads", 8 } };
    return {};
}

void report(const QString &lab, const QString &what, const ParamSpec &param, const Stats &s, double target)
{
    std::printf("%-18s %-38s drag %-6s n=%3d  p50 %7.2f  p95 %7.2f  max %7.2f ms  (p50 to result %.2f, paint %.2f; CPU p50 %.2f p95 %.2f;"
                " repainted %.1f of %d)  target p95 <= %2.0f ms: %s%s\n",
                qPrintable(lab), qPrintable(what), param.key.c_str(), s.counted, s.p50, s.p95, s.max, s.shownP50,
                s.paintP50, s.cpuP50, s.cpuP95, s.surfacesPainted, s.surfaces, target,
                s.p95 <= target ? "met" : "MISSED",
                s.timeouts ? qPrintable(QStringLiteral("  (%1 timeouts)").arg(s.timeouts)) : "");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList only = app.arguments().mid(1);
    const bool defaultsOnly = only.removeAll(QStringLiteral("--defaults-only")) > 0;
    everyChart = only.removeAll(QStringLiteral("--every-chart")) > 0;
    eachChange = only.removeAll(QStringLiteral("--each")) > 0;
    for (const LabEntry &entry : labRegistry()) {
        if (entry.name == QLatin1String("training") || entry.name == QLatin1String("transformer"))
            continue;  // trains live; see bench_event_loop
        if (!only.isEmpty() && !only.contains(entry.name)) continue;
        std::unique_ptr<LabView> lab(entry.create());
        lab->resize(1370, 1000);  // the lab's part of a 1600 x 1000 window
        lab->show();
        lab->waitForResult();
        const ParamSpec *param = dragParam(lab->panel()->spec());
        if (!param) {
            std::printf("%-18s no slider parameter to drag\n", qPrintable(entry.name));
            continue;
        }
        report(entry.name, QStringLiteral("defaults"), *param, drag(lab.get(), *param), 8.0);

        const auto largest = largestSizes(entry.name);
        if (largest.empty() || defaultsOnly) continue;
        ParamValues v = lab->panel()->spec().defaults();
        QStringList sizes;
        for (const auto &[key, value] : largest) {
            if (!lab->panel()->spec().find(key)) continue;
            v.numbers[key] = value;
            sizes << QStringLiteral("%1=%2").arg(QString::fromStdString(key)).arg(value);
        }
        if (const QString err = lab->setValues(v); !err.isEmpty()) {
            std::printf("%-18s largest sizes refused: %s\n", qPrintable(entry.name), qPrintable(err));
            continue;
        }
        lab->waitForResult();
        report(entry.name, QStringLiteral("largest (%1)").arg(sizes.join(QStringLiteral(", "))), *param,
               drag(lab.get(), *param), 33.0);
    }
    return 0;
}
