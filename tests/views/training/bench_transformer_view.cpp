// The transformer lab in the main window while it trains the reference's defaults (induction-fixed,
// RoPE, 1500 steps): how often the attention maps are redrawn (target >= 10 a second) and how late a
// 5 ms GUI timer comes (p50 / p95 / max; the window must never stall), and, with --shots DIR, PNGs
// of the whole window before Start, while the induction head forms (the first frame whose best
// score passes 0.3) and after training.
//   QT_QPA_PLATFORM=offscreen build/tests/bench_transformer_view [--size 1024x768] [--shots DIR]
//       [--set KEY=VALUE]...
#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "views/widgets/heatmap_grid.h"
#include "views/training/transformer_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace fb;

namespace {

double percentile(std::vector<double> v, double q)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

double bestScore(const HeatmapGridData &d)
{
    // the panel titles carry the scores ("L1 H2 · ind 0.83")
    double best = 0.0;
    for (const QString &t : d.panelTitles) {
        const qsizetype i = t.lastIndexOf(QStringLiteral("ind "));
        if (i >= 0) best = std::max(best, t.mid(i + 4).toDouble());
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QSize size(1024, 768);
    QString shots;
    ParamValues sets;
    QStringList args = app.arguments();
    QStringList kv;
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--size")) {
            const QStringList wh = args[++i].split(QLatin1Char('x'));
            size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
        } else if (args[i] == QLatin1String("--shots")) {
            shots = args[++i];
        } else if (args[i] == QLatin1String("--set")) {
            kv << args[++i];
        }
    }
    MainWindow w;
    w.resize(size);
    w.show();
    w.showLab(labIndex(QStringLiteral("transformer")));
    auto *view = qobject_cast<TransformerView *>(w.currentLab());
    if (!view) {
        std::fprintf(stderr, "no transformer lab\n");
        return 1;
    }
    ParamValues v = view->values();
    for (const QString &s : kv) {
        const qsizetype eq = s.indexOf(QLatin1Char('='));
        const std::string key = s.left(eq).toStdString(), value = s.mid(eq + 1).toStdString();
        if (v.texts.count(key)) v.texts[key] = value;
        else v.numbers[key] = s.mid(eq + 1).toDouble();
    }
    if (const QString err = view->setValues(v); !err.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(err));
        return 2;
    }
    view->LabView::waitForResult();
    if (qEnvironmentVariableIsSet("FULLBAND_SIZES")) {
        std::printf("window minimum %dx%d\n", w.minimumSizeHint().width(), w.minimumSizeHint().height());
        for (QWidget *c : w.findChildren<QWidget *>())
            if (c->minimumSizeHint().width() > 250 || c->minimumWidth() > 250)
                std::printf("%s %s: hint %dx%d min %d\n", c->metaObject()->className(), qPrintable(c->objectName()),
                            c->minimumSizeHint().width(), c->minimumSizeHint().height(), c->minimumWidth());
        return 0;
    }
    auto shoot = [&](const char *name) {
        if (shots.isEmpty()) return;
        QDir().mkpath(shots);
        const QString path = QDir(shots).filePath(QStringLiteral("transformer-%1-%2x%3.png").arg(QLatin1String(name)).arg(size.width()).arg(size.height()));
        w.grab().save(path);
        std::printf("wrote %s (step %d)\n", qPrintable(path), view->lastFrameStep());
    };
    for (int i = 0; i < 20; ++i) app.processEvents();
    shoot("before");

    std::vector<double> late;
    QElapsedTimer clock, sinceTick;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        late.push_back(std::max(0.0, sinceTick.nsecsElapsed() / 1e6 - 5.0));
        sinceTick.restart();
    });
    bool duringShot = false;
    int framesAtStart = 0;
    view->start();
    clock.start();
    sinceTick.start();
    tick.start();
    while (view->state() != TransformerView::State::Done) {
        app.processEvents(QEventLoop::WaitForMoreEvents, 50);
        if (!duringShot && bestScore(view->maps()->data()) > 0.3) {
            duringShot = true;
            shoot("during");
        }
    }
    tick.stop();
    const double seconds = clock.elapsed() / 1e3;
    for (int i = 0; i < 20; ++i) app.processEvents();
    shoot("after");
    const int frames = view->framesShown() - framesAtStart;
    std::printf("%d steps in %.2f s; %d snapshots drawn: %.1f a second; GUI timer lateness p50 %.2f ms, p95 %.2f ms, "
                "max %.2f ms over %zu ticks\n",
                view->stepsDone(), seconds, frames, frames / seconds, percentile(late, 0.5), percentile(late, 0.95),
                percentile(late, 1.0), late.size());
    if (view->result())
        std::printf("held-out %.4f, repeat %.4f, %.3f ms/step\n", view->result()->heldoutLoss,
                    view->result()->secondHalfLoss, view->result()->msPerStep);
    return 0;
}
