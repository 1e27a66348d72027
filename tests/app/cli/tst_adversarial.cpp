// "Nothing lost, nothing hangs": the adversarial run's failures as one table, each row a new user's
// mistake or a hostile file handed to the real `fullband` (FULLBAND_BIN), with the exit code, the
// one stderr line and what must (not) happen to the files around it.
//   1. a full disk (a file-size limit with SIGXFSZ ignored) never replaces a good file
//   2. the LSTM task and the toy trainer refuse a run over the memory budget, with the figure
//   3. decimals read and print the same under de_DE.UTF-8 (a real locale, built with localedef)
//   4. a FIFO as scene, PNG, settings file or --out is refused at once
//   5. divergence on the last step is "diverged", not "finished", for both trainers
//   6. a 200-byte PNG claiming a 2 GB chunk is refused before it is decoded
//   7. --scale nan is refused naming --scale; decay-bound pins at ±1e308 are refused
//   8. messages: characters counted, extra arguments named, the right lab named, one line
//   9. long runs show progress on a terminal
//  10. the text task's file, named on the command line, in a scene, a PNG or a deck: only a regular file
//      of at most 64 MiB is read (a FIFO, a device, a folder, /proc/self/mem, 10 GB are refused unread)
//  11. a read-only file (mode 0444, directly or through a link) is not replaced by an export
//  12. animations have the trainers' budget: refused with the figure, or started with the time stated
//  13. long transformer runs state their expected time; threads=64 uses the machine's cores
//  14. messages: a full disk during a GIF is one line; a newline in a file name is escaped
//  15. --out x.gif where x.gif is a folder; SIGTERM/SIGINT during animate leaves no partial file
// Saving a scene on a full disk (item 1) runs in the window itself, below the table.
#include "app/registry/lab_registry.h"
#include "app/scene/scene.h"
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/resource.h>

using namespace fb;

namespace {

struct Run {
    int exitCode = -1;  // -1: crashed, or did not finish (a hang)
    QString out, err;
};

QByteArray be32(quint32 v)
{
    QByteArray b(4, '\0');
    for (int i = 0; i < 4; ++i) b[i] = char(v >> (24 - 8 * i));
    return b;
}

quint32 crc32(const QByteArray &bytes)
{
    quint32 c = 0xffffffffu;
    for (const char ch : bytes) {
        c ^= quint8(ch);
        for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

QByteArray chunk(const QByteArray &type, const QByteArray &data, quint32 claimed)
{
    return be32(claimed) + type + data + be32(crc32(type + data));
}

// Item 10: a 1x1 PNG of about 200 bytes whose embedded scene names textPath as the transformer's text.
QByteArray scenePng(const QByteArray &textPath)
{
    const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
    const QByteArray header = be32(1) + be32(1) + QByteArray("\x08\x02\x00\x00\x00", 5);
    const QByteArray json = R"({"format": 1, "lab": "transformer", "params": {"task": "text", "text": ")" + textPath + R"("}})";
    // One black pixel: a filter byte and RGB, as a zlib stream (qCompress's without its length prefix).
    const QByteArray pixel = qCompress(QByteArray(4, '\0')).mid(4);
    return signature + chunk("IHDR", header, 13)
           + chunk("tEXt", QByteArray("fullband-scene\0", 15) + json, quint32(15 + json.size()))
           + chunk("IDAT", pixel, quint32(pixel.size())) + chunk("IEND", {}, 0);
}

// A deck whose second slide names textPath as the transformer's text.
QByteArray textDeck(const QByteArray &textPath)
{
    return R"({"format": 1, "deck": "d", "scenes": [{"lab": "decay-bound"},
        {"lab": "transformer", "params": {"task": "text", "text": ")" + textPath + R"("}}]})";
}

// The hostile files of the table, written into dir before every row.
void writeFixtures(const QDir &dir)
{
    auto write = [&](const char *name, const QByteArray &bytes) {
        QFile f(dir.filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
    const QByteArray header = be32(1) + be32(1) + QByteArray("\x08\x02\x00\x00\x00", 5);
    const QByteArray ihdr = chunk("IHDR", header, 13), iend = chunk("IEND", {}, 0);
    // About 200 bytes; the tEXt chunk claims 0x7FFFFFF0.
    write("bomb.png", signature + ihdr + chunk("tEXt", QByteArray(150, 'a'), 0x7ffffff0u) + iend);
    QByteArray damaged = signature + ihdr + chunk("tEXt", QByteArray("fullband-scene\0{}", 17), 17) + iend;
    damaged[damaged.size() - 14] = char(damaged[damaged.size() - 14] ^ 1);  // the tEXt chunk's CRC
    write("damaged.png", damaged);
    write("pins.fullband", R"({"format": 1, "lab": "decay-bound",
        "extra": {"pins": [{"label": "far", "distance": [1, 2], "bound": [1e308, -1e308]}]}})");
    write("bad.fullband", R"({"format": 7, "lab": "decay-bound"})");
    write("zero.png", scenePng("/dev/zero"));
    write("fifo.png", scenePng("text.fifo"));
    write("deck-missing.fullband", textDeck("none.txt"));
    write("deck-folder.fullband", textDeck("."));
    write("deck-mem.fullband", textDeck("/proc/self/mem"));
}

} // namespace

class TestAdversarial : public QObject {
    Q_OBJECT
private:
    QTemporaryDir locales_;
    bool german_ = false;

    // Runs script under bash in dir: BIN is fullband; the script's last command runs it (exec).
    Run run(const QString &script, const QDir &dir, bool german, bool config = true)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));  // Qt says so on a line of its own, unless silenced
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("BIN"), qEnvironmentVariable("FULLBAND_BIN"));
        if (config) env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        if (german) {
            env.insert(QStringLiteral("LOCPATH"), locales_.path());
            env.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
            env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
        } else {
            env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        }
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir.path());
        p.start(QStringLiteral("bash"), { QStringLiteral("-c"), script });
        Run r;
        // A row that hangs (the FIFOs did, forever) is a failure, not a wait.
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("did not finish: it hangs");
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN must point at the fullband executable");
        // A real de_DE.UTF-8 locale (item 3; bash reads and prints 2,5 there): built from the locales package's sources into a folder of
        // our own, so the test needs no locale generated on the machine.
        QProcess def;
        def.start(QStringLiteral("localedef"), { QStringLiteral("-i"), QStringLiteral("de_DE"), QStringLiteral("-f"),
                                                 QStringLiteral("UTF-8"), locales_.filePath(QStringLiteral("de_DE.UTF-8")) });
        QVERIFY2(def.waitForFinished(120000), "localedef did not finish");
        QDir dir(locales_.path());
        const Run check = run(QStringLiteral("printf '%.1f' 2,5"), dir, true, false);
        german_ = check.out == QLatin1String("2,5");
        QVERIFY2(german_, qPrintable(QStringLiteral("de_DE.UTF-8 did not build (localedef: %1; printf gave '%2'); "
                                                    "the locales package has its sources")
                                         .arg(QString::fromLocal8Bit(def.readAllStandardError()), check.out)));
    }

    void table_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<bool>("german");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("errPart");   // in stderr (regular expression); for exit 2 the one line's
        QTest::addColumn<QString>("outPart");   // in stdout (regular expression), or empty
        QTest::addColumn<QString>("keep");      // a file that must stay byte for byte as the setup left it
        QTest::addColumn<QString>("absent");    // a file that must not exist afterwards
        QTest::addColumn<bool>("oneLine");      // stderr is exactly one line

        const QString full = QStringLiteral("trap '' XFSZ; ulimit -f %1; exec \"$BIN\" %2");
        auto row = [](const char *name, const QString &script, int code, const QString &err, const QString &out = {},
                      const QString &keep = {}, const QString &absent = {}, bool oneLine = true, bool german = false) {
            QTest::newRow(name) << script << german << code << err << out << keep << absent << oneLine;
        };

        // 1. A full disk.
        row("1 full disk: CSV over a good file, 4 KB free",
            "\"$BIN\" export capacity --out keep.csv >/dev/null && cp keep.csv keep.csv.orig && "
                + full.arg(4).arg("export capacity --set snr=20 --out keep.csv"),
            2, "cannot write '.*keep.csv': file too large", {}, "keep.csv");
        row("1 full disk: small PNG over a good one, 4 KB free",
            "\"$BIN\" export decay-bound --size 200x150 --out keep.png >/dev/null && cp keep.png keep.png.orig && "
                + full.arg(4).arg("export decay-bound --set base=500 --size 200x150 --out keep.png"),
            2, "cannot write '.*keep.png': file too large", {}, "keep.png");
        row("1 full disk: 0 bytes free, a 3 KB CSV there",
            "head -c 3000 /dev/urandom | base64 > keep.csv && cp keep.csv keep.csv.orig && "
                + full.arg(0).arg("export capacity --out keep.csv"),
            2, "cannot write '.*keep.csv': file too large", {}, "keep.csv");
        row("1 full disk: large PNG, one line, no libpng", full.arg(4).arg("export attention --size 4000x3000 --out big.png"),
            2, "cannot write '.*big.png': file too large", {}, {}, "big.png");
        row("1 full disk: SVG", full.arg(2).arg("export decay-bound --out d.svg"), 2, "cannot write '.*d.svg': file too large",
            {}, {}, "d.svg");
        row("1 full disk: no trap, SIGXFSZ does not kill it", "ulimit -f 4; exec \"$BIN\" export capacity --out k.csv",
            2, "file too large", {}, {}, "k.csv");

        // 2. The memory budget.
        row("2 lstm-vs-mean over the memory budget",
            "exec \"$BIN\" train --set task=lstm-vs-mean --set steps=5 --set batch=4096 --set hidden=512 --set embed=512 "
            "--set seq_len=1000 --set vocab=10000 --set heldout=100000",
            2, "needs [0-9]+(\\.[0-9])? GiB of memory, at most 2 GiB");
        row("2 toy trainer over the memory budget, rounded up",
            "exec \"$BIN\" train --set arm=token-only --set batch=4096 --set seq_len=256 --set d_hid=1024",
            2, "needs (?!2\\.0 )[0-9]+(\\.[0-9])? GiB of memory, at most 2 GiB;");
        row("2 toy trainer over the work budget",
            "exec \"$BIN\" train --set steps=100000 --set d_hid=1024 --set batch=1024",
            2, "needs [0-9.]+e[0-9]+ floating-point operations, at most 5e13");

        // 3. Decimals under de_DE.UTF-8 (the test checked the locale prints 2,5 there).
        row("3 de_DE: snr=2.5 accepted", "exec \"$BIN\" compute capacity --set snr=2.5", 0, "^$", "\"token_bits\"", {}, {}, false, true);
        row("3 de_DE: snr=2,5 refused", "exec \"$BIN\" compute capacity --set snr=2,5", 2, "snr .*got '2,5', which is not a number",
            {}, {}, {}, true, true);
        row("3 de_DE: base=1.5 accepted", "exec \"$BIN\" compute decay-bound --set base=1.5", 0, "^$", "\"distance\"", {}, {}, false, true);
        row("3 de_DE: lr=0.008 accepted", "exec \"$BIN\" train --set arm=token-only --set steps=3 --set lr=0.008", 0, "^$",
            "\"status\":\"finished\"", {}, {}, false, true);
        row("3 de_DE: --help prints C decimals", "exec \"$BIN\" compute --help", 0, "^$", "base: a number in \\[1\\.0001, 1000000000\\]",
            {}, {}, false, true);
        row("3 de_DE: --scale 1.5 and --set agree", "exec \"$BIN\" export decay-bound --set base=1.5 --scale 1.5 --size 64x40 --out s.png",
            0, "^$", "s\\.png", {}, {}, false, true);
        row("3 de_DE: messages print C decimals", "exec \"$BIN\" compute capacity --set snr=1e7", 2, "\\[0, 1000000\\], got 10000000$",
            {}, {}, {}, true, true);
        row("3 de_DE: CSV and JSON as in the C locale",
            "\"$BIN\" export decay-bound --set base=2.5 --out de.csv >/dev/null && \"$BIN\" compute capacity --set snr=2.5 > de.json && "
            "LC_ALL=C \"$BIN\" export decay-bound --set base=2.5 --out c.csv >/dev/null && LC_ALL=C \"$BIN\" compute capacity --set snr=2.5 > c.json && "
            "cmp de.csv c.csv && cmp de.json c.json && grep -q '[0-9]\\.[0-9]' de.csv && exec true", 0, "^$", {}, {}, {}, false, true);

        // 4. FIFOs.
        row("4 FIFO as a scene", "mkfifo pipe.fullband && exec \"$BIN\" pipe.fullband", 2, "pipe.fullband' is a FIFO \\(named pipe\\), not a regular file");
        row("4 FIFO as a PNG", "mkfifo pipe.png && exec \"$BIN\" pipe.png", 2, "pipe.png' is a FIFO \\(named pipe\\), not a regular file");
        row("4 FIFO as the settings file",
            "mkdir -p config/FullBand && mkfifo config/FullBand/FullBand.conf && exec \"$BIN\" bad.fullband", 2,
            "settings file .*FullBand.conf' is a FIFO.*default settings(.|\n)*format must be 1", {}, {}, {}, false);
        row("4 a device as a scene, its path named once", "exec \"$BIN\" /dev/null", 2,
            "^fullband: '/dev/null' is a device, not a regular file$");
        row("4 FIFO as --out", "mkfifo pipe.csv && exec \"$BIN\" export capacity --out pipe.csv", 2, "--out: .*pipe.csv' is a FIFO");

        // 5. Divergence on the last steps.
        row("5 toy lr=1000 steps=1", "exec \"$BIN\" train --set arm=token-only --set lr=1000 --set steps=1", 0, "^$",
            "\"message\":\"diverged after step 1: held-out loss [0-9.e+]+ nats after the last update exceeds 13\\.86.*\"status\":\"diverged\"");
        row("5 toy lr=1 steps=2", "exec \"$BIN\" train --set arm=token-only --set lr=1 --set steps=2", 0, "^$", "\"status\":\"diverged\"");
        row("5 toy lr=1000 steps=1 keeps good weights", "exec \"$BIN\" train --set arm=latent-feedback --set lr=1000 --set steps=1",
            0, "^$", "\"heldout_loss\":1\\.[0-9]+,");
        row("5 lstm lr=1 spikes", "exec \"$BIN\" train --set task=lstm-vs-mean --set arm=lstm --set lr=1 --set steps=300 --set hidden=128 --set embed=128",
            0, "^$", "\"status\":\"diverged\",\"message\":\"the training loss [0-9.]+ nats exceeded 6\\.931 at step 3");

        // 6. A PNG chunk longer than its file.
        row("6 tEXt chunk claiming 2 GB", "exec \"$BIN\" bomb.png", 2, "bomb.png': chunk 2 \\(tEXt\\) claims 2147483632 bytes, but only");

        // 7. Non-finite and absurd values.
        row("7 --scale nan, PNG", "exec \"$BIN\" export decay-bound --scale nan --out n.png", 2, "--scale must be a number in \\[0\\.5, 4\\].*got 'nan'",
            {}, {}, "n.png");
        row("7 --scale nan, SVG", "exec \"$BIN\" export decay-bound --scale nan --out n.svg", 2, "--scale must be", {}, {}, "n.svg");
        row("7 pins at +-1e308", "exec \"$BIN\" pins.fullband", 2, "extra\\.pins\\[0\\] point 0 must have a distance in \\[1, 65536\\] and a bound in \\[0, 512\\]");

        // 8. Messages.
        row("8 2,001 x é is 2,001 characters", "exec \"$BIN\" compute attention --set content=sentence --set sentence=" + QString(2001, QChar(0xe9)),
            0, "^$", "\"tokens\"");
        row("8 4,001 x é is refused as 4,001 characters",
            "exec \"$BIN\" compute attention --set content=sentence --set sentence=" + QString(4001, QChar(0xe9)), 2,
            "sentence .*at most 4000 characters, got 4001 characters$");
        row("8 export names an extra argument", "exec \"$BIN\" export capacity --out x.png extra", 2, "extra argument 'extra'", {}, {}, "x.png");
        row("8 rnn-gradients names itself", "exec \"$BIN\" compute rnn-gradients --set zzz=1", 2, "unknown key 'zzz' for rnn-gradients;");
        row("8 compute --help lists the depth labs' keys", "exec \"$BIN\" compute --help", 0, "^$",
            "depth-gradients  \\(.*\\n(    .*\\n)*    depth: an integer in \\[1, 200\\](.|\\n)*rnn-gradients  \\(.*\\n    depth: an integer(.|\\n)*    radius: a number in \\[0\\.1, 2\\]");
        row("8 a refused scene is one line", "exec \"$BIN\" bad.fullband", 2, "^fullband: bad.fullband: format must be 1");
        row("8 a damaged PNG is one line, no libpng", "exec \"$BIN\" damaged.png", 2, "damaged.png': chunk 2 \\(tEXt\\) is damaged");

        // 9. Progress on a terminal (script gives the run one); none when stderr is not one.
        row("9 train shows progress on a terminal",
            "script -qfec '\"$BIN\" train --set arm=token-only --set steps=1000' /dev/null > tty.txt; "
            "grep -q 'fullband: training step [0-9,]* of 1,000' tty.txt && grep -q 'left' tty.txt && exec true",
            0, "^$");
        row("9 no progress into a pipe", "exec \"$BIN\" train --set arm=token-only --set steps=300", 0, "^$", "\"status\":\"finished\"");

        // 10. The text task's file is read bounded, never blocking.
        const QString text = QStringLiteral("exec \"$BIN\" train --set model=transformer --set task=text --set steps=2 --set text=%1");
        row("10 text= a FIFO with no writer", "mkfifo t.txt && " + text.arg("t.txt"), 2,
            "^fullband: text: 't.txt' is a FIFO \\(named pipe\\), not a regular file$");
        row("10 text= /dev/zero", text.arg("/dev/zero"), 2, "^fullband: text: '/dev/zero' is a device, not a regular file$");
        row("10 text= /dev/urandom", text.arg("/dev/urandom"), 2, "text: '/dev/urandom' is a device");
        row("10 text= /dev/stdin fed from /dev/zero", text.arg("/dev/stdin") + " < /dev/zero", 2, "text: '/dev/stdin' is a device");
        row("10 text= /dev/stdin, a pipe from /dev/zero", "cat /dev/zero | " + text.arg("/dev/stdin").mid(5), 2,
            "text: '/dev/stdin' is a FIFO");
        row("10 text= a link to /dev/zero", "ln -s /dev/zero notes.txt && " + text.arg("notes.txt"), 2,
            "text: 'notes.txt' is a device, not a regular file");
        row("10 text= a sparse 10 GB file", "truncate -s 10G big.txt && " + text.arg("big.txt"), 2,
            "^fullband: text: 'big.txt' is 10737418240 bytes; at most 67108864 bytes \\(64 MiB\\)$", {}, {}, {});
        row("10 text= 64 MiB + 1 byte, said in bytes", "truncate -s 67108865 big.txt && " + text.arg("big.txt"), 2,
            "^fullband: text: 'big.txt' is 67108865 bytes; at most 67108864 bytes \\(64 MiB\\)$");
        row("10 text= a folder", "mkdir d && " + text.arg("d"), 2, "^fullband: text: 'd' is a folder, not a regular file$");
        row("10 text= /proc/self/mem", text.arg("/proc/self/mem"), 2, "^fullband: text: cannot read '/proc/self/mem': ");
        row("10 a PNG whose scene names /dev/zero", "exec \"$BIN\" zero.png", 2, "text: '/dev/zero' is a device, not a regular file");
        row("10 a PNG whose scene names a FIFO", "mkfifo text.fifo && exec \"$BIN\" fifo.png", 2,
            "text: 'text.fifo' is a FIFO \\(named pipe\\), not a regular file");
        row("10 a deck naming a missing text", "exec \"$BIN\" deck-missing.fullband", 2,
            "^fullband: deck-missing.fullband: scenes\\[1\\]: text: 'none.txt' does not exist$");
        row("10 a deck naming a folder as text", "exec \"$BIN\" deck-folder.fullband", 2, "scenes\\[1\\]: text: '.' is a folder");
        row("10 a deck naming /proc/self/mem as text", "exec \"$BIN\" deck-mem.fullband", 2,
            "scenes\\[1\\]: text: cannot read '/proc/self/mem'");

        // 11. Read-only files stay as they are, as cp leaves them.
        const QString small = QStringLiteral("--size 64x40");
        const QString sweep = QStringLiteral("animate decay-bound --sweep base=500:1000 --frames 2 --size 64x40");
        auto readOnly = [&](const char *name, const QString &first, const QString &second, const QString &file,
                            const QString &target) {
            row(name, "\"$BIN\" " + first + " >/dev/null && cp " + file + " " + file + ".orig && chmod 444 " + file + " && "
                    + (target != file ? "ln -s " + file + " " + target + " && " : QString()) + "exec \"$BIN\" " + second,
                2, "^fullband: cannot write '.*" + QString(target).replace('.', "\\.")
                       + "': permission denied \\(the file is read-only\\)$", {}, file);
        };
        readOnly("11 PNG over a 0444 file", "export decay-bound " + small + " --out keep.png",
                 "export decay-bound --set base=500 " + small + " --out keep.png", "keep.png", "keep.png");
        readOnly("11 SVG over a 0444 file", "export decay-bound --out keep.svg", "export decay-bound --set base=500 --out keep.svg",
                 "keep.svg", "keep.svg");
        readOnly("11 CSV over a 0444 file", "export capacity --out keep.csv", "export capacity --set snr=20 --out keep.csv",
                 "keep.csv", "keep.csv");
        readOnly("11 CSV through a link to a 0444 file", "export capacity --out keep.csv",
                 "export capacity --set snr=20 --out link.csv", "keep.csv", "link.csv");
        readOnly("11 GIF over a 0444 file", sweep + " --out keep.gif", sweep + " --out keep.gif", "keep.gif", "keep.gif");
        readOnly("11 MP4 through a link to a 0444 file", sweep + " --out keep.mp4", sweep + " --out link.mp4", "keep.mp4",
                 "link.mp4");

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
            "script -qfec '\"$BIN\" train --set model=transformer --set steps=300' /dev/null > tty.txt; "
            "grep -q 'fullband: this run is expected to take about' tty.txt && grep -q 'fullband: training step 300 of 300' tty.txt "
            "&& exec true",
            0, "^$");
        row("13 threads=64: the machine's cores, one line", "exec \"$BIN\" train --set model=transformer --set steps=2 --set threads=64",
            0, "^(fullband: threads=64 is more than the [0-9]+ cores of this machine; using [0-9]+\n)?$", "\"status\":\"finished\"",
            {}, {}, false);

        // 14. Messages.
        row("14 a full disk during a GIF is one line", full.arg(8).arg(QString(sweep).replace("--frames 2 --size 64x40", "--frames 40 --size 320x200") + " --out full.gif"),
            2, "full\\.gif.*(file too large|File too large)", {}, {}, "full.gif");
        row("14 a newline in a missing file's name", "exec \"$BIN\" $'a\\nb.fullband'", 2,
            "^fullband: unknown subcommand or file 'a\\\\nb\\.fullband'");
        row("14 a newline in a refused scene's name", "cp bad.fullband $'bad\\nname.fullband' && exec \"$BIN\" $'bad\\nname.fullband'", 2,
            "^fullband: bad\\\\nname\\.fullband: format must be 1");
        row("14 a newline in --out's name", "exec \"$BIN\" export capacity --out $'x\\ny.txt'", 2,
            "^fullband: --out must name a \\.png, \\.svg or \\.csv file, got 'x\\\\ny\\.txt'$");

        // 15. Animation outputs.
        row("15 --out x.gif, an existing folder", "mkdir x.gif && exec \"$BIN\" " + sweep + " --out x.gif", 2,
            "^fullband: --out: '.*/x\\.gif' is a folder, not a GIF file", {}, {}, "x.gif/frame_0001.png");
        const QString interrupted = QStringLiteral(
            "set -m; cp bad.fullband keep.mp4 && cp keep.mp4 keep.mp4.orig; "
            "\"$BIN\" animate decay-bound --sweep base=500:1000 --frames 3000 --size 320x200 --out keep.mp4 >/dev/null 2>&1 & pid=$!; "
            "for i in $(seq 1200); do ls -A | grep -q '^\\.keep\\.mp4\\.partial-' && break; kill -0 $pid 2>/dev/null || break; "
            "sleep 0.05; done; kill -%1 $pid; wait $pid 2>/dev/null; echo \"exit $?\"; ls -A | grep partial >&2; exec true");
        row("15 SIGTERM during animate removes the partial file", interrupted.arg("TERM"), 0, "^$", "^exit 143\n$", "keep.mp4");
        row("15 SIGINT during animate removes the partial file", interrupted.arg("INT"), 0, "^$", "^exit 130\n$", "keep.mp4");
    }
    void table()
    {
        QFETCH(QString, script);
        QFETCH(bool, german);
        QFETCH(int, exitCode);
        QFETCH(QString, errPart);
        QFETCH(QString, outPart);
        QFETCH(QString, keep);
        QFETCH(QString, absent);
        QFETCH(bool, oneLine);
        QTemporaryDir tmp;
        QDir dir(tmp.path());
        writeFixtures(dir);
        const Run r = run(script, dir, german);
        const QString what = QStringLiteral("exit %1\nstderr: %2\nstdout: %3").arg(r.exitCode).arg(r.err.left(600), r.out.left(300));
        QVERIFY2(r.exitCode == exitCode, qPrintable(what));
        if (errPart == QLatin1String("^$")) QVERIFY2(r.err.isEmpty(), qPrintable(what));
        else QVERIFY2(r.err.contains(QRegularExpression(errPart)), qPrintable(what));
        if (!outPart.isEmpty()) QVERIFY2(r.out.contains(QRegularExpression(outPart)), qPrintable(what));
        if (exitCode == 2) {
            QVERIFY2(r.out.isEmpty(), qPrintable(what));
            if (oneLine) {
                QVERIFY2(r.err.startsWith(QLatin1String("fullband: ")) && r.err.count(QLatin1Char('\n')) == 1, qPrintable(what));
            }
        }
        if (!keep.isEmpty()) {
            QFile now(dir.filePath(keep)), before(dir.filePath(keep + QStringLiteral(".orig")));
            QVERIFY(now.open(QIODevice::ReadOnly) && before.open(QIODevice::ReadOnly));
            const QByteArray a = now.readAll(), b = before.readAll();
            QVERIFY2(a.size() > 0 && a == b, qPrintable(QStringLiteral("%1 changed: %2 bytes, was %3").arg(keep).arg(a.size()).arg(b.size())));
        }
        if (!absent.isEmpty()) QVERIFY2(!QFile::exists(dir.filePath(absent)), qPrintable(absent + QStringLiteral(" was written")));
        // Nothing half-written is left beside the files.
        for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!name.contains(QLatin1String(".fullband-")), qPrintable(name));
    }

    // Bad input changes nothing in the window: a FIFO, a chunk bomb, a damaged PNG, a scene with a
    // value out of range or absurd pins are refused, and the scene the window shows stays as it was.
    void refusedFilesChangeNothing()
    {
        QStandardPaths::setTestModeEnabled(true);
        QTemporaryDir tmp;
        QDir dir(tmp.path());
        writeFixtures(dir);
        QVERIFY(QProcess::execute(QStringLiteral("mkfifo"), { dir.filePath(QStringLiteral("pipe.fullband")) }) == 0);
        QFile range(dir.filePath(QStringLiteral("range.fullband")));
        QVERIFY(range.open(QIODevice::WriteOnly));
        range.write(R"({"format": 1, "lab": "decay-bound", "params": {"d": 3}})");
        range.close();
        MainWindow w;
        QFile good(dir.filePath(QStringLiteral("good.fullband")));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(R"({"format": 1, "lab": "decay-bound", "params": {"d": 64, "base": 500}})");
        good.close();
        QCOMPARE(w.openPath(good.fileName()), QString());
        const QString before = dir.filePath(QStringLiteral("before.fullband"));
        QCOMPARE(w.saveScene(before), QString());
        // Item 10 in the window: scenes naming a FIFO or a folder as the transformer's text, in a PNG or
        // a deck (absolute paths: the window's folder is not dir).
        const QString textFifo = dir.filePath(QStringLiteral("text.fifo"));
        QVERIFY(QProcess::execute(QStringLiteral("mkfifo"), { textFifo }) == 0);
        auto write = [&](const char *name, const QByteArray &bytes) {
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write("fifo-window.png", scenePng(textFifo.toUtf8()));
        write("deck-fifo.fullband", textDeck(textFifo.toUtf8()));
        write("deck-dir.fullband", textDeck(dir.path().toUtf8()));
        for (const char *name : { "pipe.fullband", "bomb.png", "damaged.png", "bad.fullband", "pins.fullband",
                                  "range.fullband", "none.fullband", "fifo-window.png", "deck-fifo.fullband",
                                  "deck-dir.fullband" }) {
            const QString err = w.openPath(dir.filePath(QLatin1String(name)));
            QVERIFY2(!err.isEmpty() && !err.contains(QLatin1Char('\n')), name);
            const QString after = dir.filePath(QStringLiteral("after.fullband"));
            QCOMPARE(w.saveScene(after), QString());
            QFile a(after), b(before);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
    }

    // Item 14: deck notes are counted in characters, as the message says: 15,000 emoji (30,000 UTF-16
    // units) are within the 20,000 characters, 20,001 are not.
    void notesCountCharacters()
    {
        auto deck = [](int emoji) {
            QString notes;
            for (int i = 0; i < emoji; ++i) notes += QString::fromUcs4(U"\U0001F600", 1);
            QJsonObject slide { { QStringLiteral("lab"), QStringLiteral("decay-bound") }, { QStringLiteral("notes"), notes } };
            QJsonObject o { { QStringLiteral("format"), 1 }, { QStringLiteral("scenes"), QJsonArray { slide } } };
            return parseSceneOrDeck(QJsonDocument(o).toJson(), labSpec);
        };
        const SceneParse fits = deck(15000);
        QVERIFY2(fits.error.isEmpty(), qPrintable(fits.error));
        QCOMPARE(fits.deck.scenes.size(), 1);
        QCOMPARE(characterCount(fits.deck.scenes[0].notes), 15000);
        const SceneParse over = deck(20001);
        QCOMPARE(over.error, QStringLiteral("scenes[0].notes are 20001 characters long; notes are at most 20000 characters"));
        // The deck editor cuts at a character, never inside an emoji's surrogate pair.
        const QString cut = firstCharacters(fits.deck.scenes[0].notes, 3);
        QCOMPARE(cut.size(), 6);
        QCOMPARE(characterCount(cut), 3);
    }

    // Item 1 in the window: File > Save scene on a full disk leaves the previous scene as it was.
    void saveSceneOnAFullDisk()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandAdversarialTest"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scene.fullband"));
        MainWindow w;
        QCOMPARE(w.saveScene(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        QVERIFY(before.size() > 100);
        QString err;
        {
            auto *previous = std::signal(SIGXFSZ, SIG_IGN);
            rlimit old {};
            getrlimit(RLIMIT_FSIZE, &old);
            rlimit none = old;
            none.rlim_cur = 0;
            setrlimit(RLIMIT_FSIZE, &none);
            err = w.saveScene(path);
            setrlimit(RLIMIT_FSIZE, &old);
            std::signal(SIGXFSZ, previous);
        }
        QVERIFY2(err == QStringLiteral("cannot save '%1': file too large").arg(path), qPrintable(err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }
};

QTEST_MAIN(TestAdversarial)
#include "tst_adversarial.moc"
