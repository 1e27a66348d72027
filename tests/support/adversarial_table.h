#pragma once
// The adversarial tables' shared parts (tst_adversarial, tst_adversarial_runs): each row a script
// run by bash around the real `fullband` (FULLBAND_BIN), with the exit code, the one stderr line and
// what must (not) happen to the files around it; the hostile files every row finds in its folder.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace adversarial {


struct Run {
    int exitCode = -1;  // -1: crashed, or did not finish (a hang)
    QString out, err;
};

inline QByteArray be32(quint32 v)
{
    QByteArray b(4, '\0');
    for (int i = 0; i < 4; ++i) b[i] = char(v >> (24 - 8 * i));
    return b;
}

inline quint32 crc32(const QByteArray &bytes)
{
    quint32 c = 0xffffffffu;
    for (const char ch : bytes) {
        c ^= quint8(ch);
        for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

inline QByteArray chunk(const QByteArray &type, const QByteArray &data, quint32 claimed)
{
    return be32(claimed) + type + data + be32(crc32(type + data));
}

// Item 10: a 1x1 PNG of about 200 bytes whose embedded scene names textPath as the transformer's text.
inline QByteArray scenePng(const QByteArray &textPath)
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
inline QByteArray textDeck(const QByteArray &textPath)
{
    return R"({"format": 1, "deck": "d", "scenes": [{"lab": "decay-bound"},
        {"lab": "transformer", "params": {"task": "text", "text": ")" + textPath + R"("}}]})";
}

// The hostile files of the table, written into dir before every row.
inline void writeFixtures(const QDir &dir)
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


// The table's columns, for a test's _data function.
inline void addColumns()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<bool>("german");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("errPart");   // in stderr (regular expression); for exit 2 the one line's
    QTest::addColumn<QString>("outPart");   // in stdout (regular expression), or empty
    QTest::addColumn<QString>("keep");      // a file that must stay byte for byte as the setup left it
    QTest::addColumn<QString>("absent");    // a file that must not exist afterwards
    QTest::addColumn<bool>("oneLine");      // stderr is exactly one line
}

inline void row(const char *name, const QString &script, int code, const QString &err, const QString &out = {},
                const QString &keep = {}, const QString &absent = {}, bool oneLine = true, bool german = false)
{
    QTest::newRow(name) << script << german << code << err << out << keep << absent << oneLine;
}

// A script with a file-size limit of %1 KB and SIGXFSZ ignored (a full disk), then fullband %2.
inline QString fullDisk() { return QStringLiteral("trap '' XFSZ; ulimit -f %1; exec \"$BIN\" %2"); }

// Runs script under bash in dir: BIN is fullband; the script's last command runs it (exec). With
// germanLocales (a folder holding de_DE.UTF-8), under that locale; otherwise under C.UTF-8.
inline Run runScript(const QString &script, const QDir &dir, const QString &germanLocales = {}, bool config = true)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));  // Qt says so on a line of its own, unless silenced
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("BIN"), qEnvironmentVariable("FULLBAND_BIN"));
    if (config) env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    if (!germanLocales.isEmpty()) {
        env.insert(QStringLiteral("LOCPATH"), germanLocales);
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


// The body of a table's test function: runs the current row and checks what it promises.
inline void checkRow(const QString &germanLocales = {})
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
    const Run r = runScript(script, dir, german ? germanLocales : QString());
    const QString what = QStringLiteral("exit %1\nstderr: %2\nstdout: %3").arg(r.exitCode).arg(r.err.left(600), r.out.left(300));
    QVERIFY2(r.exitCode == exitCode, qPrintable(what));
    if (errPart == QLatin1String("^$")) QVERIFY2(r.err.isEmpty(), qPrintable(what));
    else QVERIFY2(r.err.contains(QRegularExpression(errPart)), qPrintable(what));
    if (!outPart.isEmpty()) QVERIFY2(r.out.contains(QRegularExpression(outPart)), qPrintable(what));
    if (exitCode == 2) {
        QVERIFY2(r.out.isEmpty(), qPrintable(what));
        if (oneLine) {
            // A long export announces its expected time first (on a slow machine, or under the
            // sanitizers); that note is not part of the error, which is one line.
            QString error = r.err;
            error.remove(QRegularExpression(QStringLiteral("^fullband: [^\n]*expected to take [^\n]*\n")));
            QVERIFY2(error.startsWith(QLatin1String("fullband: ")) && error.count(QLatin1Char('\n')) == 1, qPrintable(what));
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

} // namespace adversarial
