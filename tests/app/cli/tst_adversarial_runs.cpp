// The adversarial table's runs (the refusals are tst_adversarial): each row a script around the
// real `fullband` (FULLBAND_BIN) that starts a run and waits for what it shows, so the stress step
// runs them under its "timing" label.
//   9. long runs show progress on a terminal
//  12. animations have the trainers' budget: refused with the figure, or started with the time stated
//  13. long transformer runs state their expected time; threads=64 uses the machine's cores
//  15. --out x.gif where x.gif is a folder; SIGTERM/SIGINT during animate leaves no partial file
#include "support/adversarial_table.h"

#include <QTest>

using namespace adversarial;

class TestAdversarialRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN must point at the fullband executable");
    }

    void table_data()
    {
        addColumns();

        // 9. Progress on a terminal (script gives the run one); none when stderr is not one.
        row("9 train shows progress on a terminal",
            "script -qfec '\"$BIN\" train --set arm=token-only --set steps=1000' /dev/null > tty.txt; "
            "grep -q 'fullband: training step [0-9,]* of 1,000' tty.txt && grep -q 'left' tty.txt && exec true",
            0, "^$");
        row("9 no progress into a pipe", "exec \"$BIN\" train --set arm=token-only --set steps=300", 0, "^$", "\"status\":\"finished\"");

        const QString sweep = QStringLiteral("animate decay-bound --sweep base=500:1000 --frames 2 --size 64x40");

        // 12. The budget of animations.
        row("12 MP4 at 8192x8192 over the memory budget",
            "exec \"$BIN\" animate decay-bound --sweep base=500:1000 --size 8192x8192 --out big.mp4", 2,
            "^fullband: 150 frames of 8192x8192 as MP4 need [0-9.]+ GiB of memory, at most 2 GiB; lower --size or --frames$",
            {}, {}, "big.mp4");
        row("12 3,000 GIF frames at 8192x8192 over the work budget",
            "exec \"$BIN\" animate decay-bound --sweep base=500:1000 --frames 3000 --size 8192x8192 --out big.gif", 2,
            "^fullband: 3000 frames of 8192x8192 as GIF need [0-9.]+e14 floating-point operations, at most 5e13; "
            "lower --size or --frames$", {}, {}, "big.gif");
        row("12 an animation states its expected time (on a terminal, with progress)",
            "script -qfec '\"$BIN\" animate decay-bound --sweep base=500:1000 --frames 3 --size 64x40 --out a.gif' /dev/null > tty.txt; "
            "grep -q 'fullband: 3 frames of 64x40, expected to take about [0-9]' tty.txt && grep -q 'fullband: rendering frame 3 of 3' tty.txt "
            "&& exec true",
            0, "^$");

        // 13. Long transformer runs.
        row("13 a long transformer run states its expected time before it starts",
            "\"$BIN\" train --set model=transformer --set layers=8 --set d_model=512 --set heads=8 --set seq_len=256 "
            "--set batch=4 --set steps=3 --set feedback=kpass --set passes=256 > out.json 2> err.txt & pid=$!; touch err.txt; "
            "for i in $(seq 1200); do grep -q expected err.txt && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done; "
            "kill $pid 2>/dev/null; wait $pid; exec cat err.txt >&2",
            0, "^fullband: this run is expected to take about [0-9]+ (min|h [0-9]+ min) \\(3 steps of [0-9.]+e[0-9]+ "
               "floating-point operations at [0-9.]+e[0-9]+ per second\\)\n$", {}, {}, {}, false);
        row("13 a transformer run on a terminal: expected time and progress",
            "script -qfec '\"$BIN\" train --set model=transformer --set steps=40' /dev/null > tty.txt; "
            "grep -q 'fullband: this run is expected to take about' tty.txt && grep -q 'fullband: training step 40 of 40' tty.txt "
            "&& exec true",
            0, "^$");
        row("13 threads=64: the machine's cores, one line", "exec \"$BIN\" train --set model=transformer --set steps=2 --set threads=64",
            0, "^(fullband: threads=64 is more than the [0-9]+ cores of this machine; using [0-9]+\n)?$", "\"status\":\"finished\"",
            {}, {}, false);

        // 15. Animation outputs.
        row("15 --out x.gif, an existing folder", "mkdir x.gif && exec \"$BIN\" " + sweep + " --out x.gif", 2,
            "^fullband: --out: '.*/x\\.gif' is a folder, not a GIF file", {}, {}, "x.gif/frame_0001.png");
        const QString interrupted = QStringLiteral(
            "set -m; cp bad.fullband keep.mp4 && cp keep.mp4 keep.mp4.orig; "
            "\"$BIN\" animate decay-bound --sweep base=500:1000 --frames 600 --size 320x200 --out keep.mp4 >/dev/null 2>&1 & pid=$!; "
            "for i in $(seq 1200); do ls -A | grep -q '^\\.keep\\.mp4\\.partial-' && break; kill -0 $pid 2>/dev/null || break; "
            "sleep 0.05; done; kill -%1 $pid; wait $pid 2>/dev/null; echo \"exit $?\"; ls -A | grep partial >&2; exec true");
        row("15 SIGTERM during animate removes the partial file", interrupted.arg("TERM"), 0, "^$", "^exit 143\n$", "keep.mp4");
        row("15 SIGINT during animate removes the partial file", interrupted.arg("INT"), 0, "^$", "^exit 130\n$", "keep.mp4");
    }
    void table() { checkRow(); }
};

QTEST_MAIN(TestAdversarialRuns)
#include "tst_adversarial_runs.moc"
