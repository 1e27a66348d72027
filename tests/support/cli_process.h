#pragma once
// The command-line tests' one way to run the fullband executable (FULLBAND_BIN, set by CTest) as a
// user would: without a display, collecting what it printed. exitCode is -1 when it crashed or
// did not finish within timeoutMs (then err says so).
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

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

} // namespace fb::test
