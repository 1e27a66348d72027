// "Nothing lost, nothing hangs": the adversarial run's failures as one table, each row a new user's
// mistake or a hostile file handed to the real `fullband` (FULLBAND_BIN), with the exit code, the
// one stderr line and what must (not) happen to the files around it. The rows that start runs and wait
// for them (items 9, 12, 13 and 15) are tst_adversarial_runs.
//   1. a full disk (a file-size limit with SIGXFSZ ignored) never replaces a good file
//   2. the LSTM task and the toy trainer refuse a run over the memory budget, with the figure
//   3. decimals read and print the same under de_DE.UTF-8 (a real locale, built with localedef)
//   4. a FIFO as scene, PNG, settings file or --out is refused at once
//   5. divergence on the last step is "diverged", not "finished", for both trainers
//   6. a 200-byte PNG claiming a 2 GB chunk is refused before it is decoded
//   7. --scale nan is refused naming --scale; decay-bound pins at ±1e308 are refused
//   8. messages: characters counted, extra arguments named, the right lab named, one line
//  10. the text task's file, named on the command line, in a scene, a PNG or a deck: only a regular file
//      of at most 64 MiB is read (a FIFO, a device, a folder, /proc/self/mem, 10 GB are refused unread)
//  11. a read-only file (mode 0444, directly or through a link) is not replaced by an export
//  14. messages: a full disk during a GIF is one line; a newline in a file name is escaped
// In the window, below the table: refused files change nothing (items 4, 6, 8, 10), notes are
// counted in characters (item 14), saving a scene on a full disk (item 1).
#include "app/registry/lab_registry.h"
#include "app/scene/scene.h"
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"
#include "support/adversarial_table.h"

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
using namespace adversarial;

class TestAdversarial : public QObject {
    Q_OBJECT
private:
    QTemporaryDir locales_;
    bool german_ = false;

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
        const Run check = runScript(QStringLiteral("printf '%.1f' 2,5"), dir, locales_.path(), false);
        german_ = check.out == QLatin1String("2,5");
        QVERIFY2(german_, qPrintable(QStringLiteral("de_DE.UTF-8 did not build (localedef: %1; printf gave '%2'); "
                                                    "the locales package has its sources")
                                         .arg(QString::fromLocal8Bit(def.readAllStandardError()), check.out)));
    }

    void table_data()
    {
        addColumns();
        const QString full = fullDisk();

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

        // 14. Messages.
        row("14 a full disk during a GIF is one line", full.arg(8).arg(QString(sweep).replace("--frames 2 --size 64x40", "--frames 40 --size 320x200") + " --out full.gif"),
            2, "full\\.gif.*(file too large|File too large)", {}, {}, "full.gif");
        row("14 a newline in a missing file's name", "exec \"$BIN\" $'a\\nb.fullband'", 2,
            "^fullband: unknown subcommand or file 'a\\\\nb\\.fullband'");
        row("14 a newline in a refused scene's name", "cp bad.fullband $'bad\\nname.fullband' && exec \"$BIN\" $'bad\\nname.fullband'", 2,
            "^fullband: bad\\\\nname\\.fullband: format must be 1");
        row("14 a newline in --out's name", "exec \"$BIN\" export capacity --out $'x\\ny.txt'", 2,
            "^fullband: --out must name a \\.png, \\.svg or \\.csv file, got 'x\\\\ny\\.txt'$");

    }
    void table() { checkRow(locales_.path()); }

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
