#pragma once
// The command-line tests' one way to run the fullband executable (FULLBAND_BIN, set by CTest) as a
// user would: without a display, collecting what it printed. exitCode is -1 when it crashed or
// did not finish within timeoutMs (then err says so). badInputProblem is the one rule for how a
// command answers bad input.
#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace fb::test {

struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
};

inline CliRun runFullband(const QStringList &args, int timeoutMs = 120000)
{
    CliRun r;
    const QString bin = qEnvironmentVariable("FULLBAND_BIN");
    if (bin.isEmpty()) {
        r.err = "FULLBAND_BIN is not set";
        return r;
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(bin, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The same run with what it printed as text (UTF-8), for tests that search it.
struct CliText {
    int code = -1;
    QString out, err;
};

inline CliText runFullbandText(const QStringList &args, int timeoutMs = 120000)
{
    const CliRun r = runFullband(args, timeoutMs);
    return { r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err) };
}

// What is wrong with r as the answer to a bad input, empty when nothing is: a bad input exits 2,
// prints nothing on stdout and one line on stderr, "fullband: ...", that contains `names` (the key,
// option or value at fault). Used as QVERIFY2(problem.isEmpty(), qPrintable(problem)).
inline QString badInputProblem(const CliRun &r, const QString &names)
{
    const QString out = QString::fromUtf8(r.out);
    const QString err = QString::fromUtf8(r.err);
    const QString said = QStringLiteral(" (stdout: '%1', stderr: '%2')").arg(out, err);
    if (r.exitCode != 2) return QStringLiteral("exit code %1, not 2").arg(r.exitCode) + said;
    if (!out.isEmpty()) return QStringLiteral("something on stdout") + said;
    if (err.count(QLatin1Char('\n')) != 1 || err.trimmed().contains(QLatin1Char('\n')))
        return QStringLiteral("not one line on stderr") + said;
    if (!err.startsWith(QStringLiteral("fullband: ")) || err.count(QStringLiteral("fullband:")) != 1)
        return QStringLiteral("stderr is not one 'fullband: ' message") + said;
    if (!err.contains(names)) return QStringLiteral("stderr does not name '%1'").arg(names) + said;
    return {};
}

// The same for a command that writes files, which must write none: every "OUT" in args becomes a
// fresh empty folder, and that folder must still be empty afterwards.
inline QString badInputWritesNothingProblem(QStringList args, const QString &names)
{
    QTemporaryDir dir;
    if (!dir.isValid()) return QStringLiteral("no temporary folder: %1").arg(dir.errorString());
    for (QString &a : args) a.replace(QStringLiteral("OUT"), dir.path());
    if (const QString problem = badInputProblem(runFullband(args), names); !problem.isEmpty()) return problem;
    const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    if (!left.isEmpty()) return QStringLiteral("wrote %1").arg(left.join(QStringLiteral(", ")));
    return {};
}

} // namespace fb::test
