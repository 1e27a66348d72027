// Files FullBand writes and reads, against a full disk and a hostile file (core/io/atomic_file.h,
// core/io/bounded_read.h, core/io/png_chunks.h). A full disk is a file-size limit (RLIMIT_FSIZE, with
// SIGXFSZ ignored): write() then fails with EFBIG as it fails with ENOSPC on a full disk, without
// root. Every failure leaves the previous file byte for byte as it was, and no temporary file behind.
#include "core/io/atomic_file.h"
#include "core/io/bounded_read.h"
#include "core/io/png_chunks.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdint>
#include <string>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace fb;

namespace {

std::string readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

// Lowers the file-size limit for its lifetime (SIGXFSZ ignored, as `trap '' XFSZ; ulimit -f`).
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        previousHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &previous_);
        rlimit lower = previous_;
        lower.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &lower);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &previous_);
        std::signal(SIGXFSZ, previousHandler_);
    }

private:
    rlimit previous_ {};
    void (*previousHandler_)(int) = nullptr;
};

// "\x89PNG..." with the given chunks (length, type, data as given, CRC computed unless bad).
std::string chunk(const std::string &type, const std::string &data, std::uint32_t claimed, bool badCrc = false);

std::uint32_t crc(const std::string &bytes)
{
    std::uint32_t c = 0xffffffffu;
    for (unsigned char ch : bytes) {
        c ^= ch;
        for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

std::string be32(std::uint32_t v)
{
    return { char(v >> 24), char(v >> 16), char(v >> 8), char(v) };
}

std::string chunk(const std::string &type, const std::string &data, std::uint32_t claimed, bool badCrc)
{
    return be32(claimed) + type + data + be32(crc(type + data) ^ (badCrc ? 1u : 0u));
}

const std::string kSignature { "\x89PNG\r\n\x1a\n", 8 };

std::string ihdr()
{
    const std::string d = be32(1) + be32(1) + std::string("\x08\x02\x00\x00\x00", 5);
    return chunk("IHDR", d, std::uint32_t(d.size()));
}

} // namespace

class TestFileIo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QCOMPARE(writeFileAtomically(path.toStdString(), "first\n"), std::string());
        QCOMPARE(readAll(path), std::string("first\n"));
        QCOMPARE(writeFileAtomically(path.toStdString(), "second\n"), std::string());
        QCOMPARE(readAll(path), std::string("second\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 1);
    }

    void fullDiskLeavesThePreviousFile_data()
    {
        QTest::addColumn<int>("limit");     // bytes that fit
        QTest::addColumn<int>("size");      // bytes written
        QTest::addColumn<int>("previous");  // bytes of the file already there
        QTest::newRow("4 KB free, 10 KB written") << 4096 << 10000 << 3000;
        QTest::newRow("4 KB free, a small file that sits in a buffer") << 4096 << 5000 << 200;
        QTest::newRow("0 bytes free, a 3 KB file there") << 0 << 3000 << 3000;
        QTest::newRow("0 bytes free, nothing there") << 0 << 100 << -1;
    }
    void fullDiskLeavesThePreviousFile()
    {
        QFETCH(int, limit);
        QFETCH(int, size);
        QFETCH(int, previous);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.csv"));
        std::string before;
        if (previous >= 0) {
            before = std::string(std::size_t(previous), '7');
            QCOMPARE(writeFileAtomically(path.toStdString(), before), std::string());
        }
        std::string err;
        {
            FileSizeLimit full { rlim_t(limit) };
            err = writeFileAtomically(path.toStdString(), std::string(std::size_t(size), '1'));
        }
        QVERIFY2(err == "cannot write '" + path.toStdString() + "': file too large", err.c_str());
        if (previous >= 0) QCOMPARE(readAll(path), before);
        else QVERIFY(!QFile::exists(path));
        // No temporary file is left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), previous >= 0 ? 1 : 0);
    }

    void refusesSpecialTargets()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe.csv")).toStdString();
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY(writeFileAtomically(fifo, "x").find("not a regular file") != std::string::npos);
        QVERIFY(writeFileAtomically(dir.path().toStdString(), "x").find("not a regular file") != std::string::npos);
        QVERIFY(writeFileAtomically(dir.filePath(QStringLiteral("no/such/x.csv")).toStdString(), "x")
                    .find("no such file or directory") != std::string::npos);
    }

    void readsOnlyRegularFilesAndNeverBlocks()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe.fullband")).toStdString();
        QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
        std::string out = "stale";
        // Without O_NONBLOCK this open() waits for a writer forever.
        const std::string err = readRegularFile(fifo, 1 << 20, out);
        QVERIFY2(err == "'" + fifo + "' is a FIFO (named pipe), not a regular file", err.c_str());
        QVERIFY(out.empty());
        QVERIFY(!checkNotSpecialFile(fifo).empty());
        QVERIFY(readRegularFile(dir.path().toStdString(), 1 << 20, out).find("a folder") != std::string::npos);
        QVERIFY(readRegularFile("/dev/zero", 1 << 20, out).find("a device") != std::string::npos);
        QVERIFY(readRegularFile(dir.filePath(QStringLiteral("none")).toStdString(), 10, out).find("does not exist")
                != std::string::npos);
        const std::string file = dir.filePath(QStringLiteral("s.fullband")).toStdString();
        QCOMPARE(writeFileAtomically(file, std::string(100, 'x')), std::string());
        QCOMPARE(readRegularFile(file, 100, out), std::string());
        QCOMPARE(out.size(), std::size_t(100));
        QVERIFY(readRegularFile(file, 99, out).find("at most 99") != std::string::npos);
        QVERIFY(out.empty());
        QCOMPARE(checkNotSpecialFile(file), std::string());
    }

    void pngChunksWithinTheFile_data()
    {
        QTest::addColumn<QByteArray>("png");
        QTest::addColumn<QString>("problem");  // empty: sound
        const std::string iend = chunk("IEND", "", 0);
        const std::string text = chunk("tEXt", std::string("fullband-scene\0{}", 17), 17);
        auto row = [](const char *name, const std::string &bytes, const char *problem) {
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << QString::fromLatin1(problem);
        };
        row("sound", kSignature + ihdr() + text + iend, "");
        // The file: 200 bytes, a tEXt chunk claiming 0x7FFFFFF0 bytes (2.1 GB allocated before).
        row("tEXt claims 2 GB", kSignature + ihdr() + chunk("tEXt", std::string(150, 'a'), 0x7ffffff0u) + iend,
            "claims 2147483632 bytes, but only");
        row("length over 2^31", kSignature + ihdr() + chunk("tEXt", "ab", 0xfffffff0u) + iend, "more than a PNG chunk may hold");
        row("bad CRC", kSignature + ihdr() + chunk("tEXt", std::string("k\0v", 3), 3, true) + iend, "CRC");
        row("no IEND", kSignature + ihdr() + text, "before IEND");
        row("not a PNG", "GIF89a............", "no PNG signature");
        row("empty", "", "no PNG signature");
    }
    void pngChunksWithinTheFile()
    {
        QFETCH(QByteArray, png);
        QFETCH(QString, problem);
        const std::string err = checkPngChunks(png.toStdString());
        if (problem.isEmpty()) QCOMPARE(err, std::string());
        else QVERIFY2(err.find(problem.toStdString()) != std::string::npos, err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestFileIo)
#include "tst_file_io.moc"
