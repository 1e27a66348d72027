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
// Saving a scene on a full disk (item 1) runs in the window itself, below the table.
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"

#include <QDir>
#include <QFile>
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
        for (const char *name : { "pipe.fullband", "bomb.png", "damaged.png", "bad.fullband", "pins.fullband",
                                  "range.fullband", "none.fullband" }) {
            const QString err = w.openPath(dir.filePath(QLatin1String(name)));
            QVERIFY2(!err.isEmpty() && !err.contains(QLatin1Char('\n')), name);
            const QString after = dir.filePath(QStringLiteral("after.fullband"));
            QCOMPARE(w.saveScene(after), QString());
            QFile a(after), b(before);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), name);
        }
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
