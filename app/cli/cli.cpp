#include "app/cli/cli.h"

#include <cstdio>

namespace fb {

QString oneLine(const QString &message)
{
    // A file name may hold a newline (or any control character): escaped, the refusal stays one line.
    QString out;
    out.reserve(message.size());
    for (const QChar c : message) {
        if (c == QLatin1Char('\n')) out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\r')) out += QStringLiteral("\\r");
        else if (c == QLatin1Char('\t')) out += QStringLiteral("\\t");
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f) out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else out += c;
    }
    return out;
}

int failBadInput(const QString &message)
{
    std::fprintf(stderr, "fullband: %s\n", qPrintable(oneLine(message)));
    return kExitBadInput;
}

namespace {
void quietMessages(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("XDG_RUNTIME_DIR")) || message.contains(QLatin1String("propagateSizeHints"))
        || message.startsWith(QLatin1String("libpng ")))
        return;
    std::fputs(qPrintable(qFormatLogMessage(type, context, message) + QLatin1Char('\n')), stderr);
}
} // namespace

void installQuietMessages()
{
    qInstallMessageHandler(quietMessages);
}

QString applySets(const LabSpec &lab, ParamValues &values, const QStringList &sets)
{
    for (const QString &set : sets) {
        const qsizetype eq = set.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("--set expects KEY=VALUE, got '%1'; valid keys for %2: %3")
                .arg(set, QString::fromStdString(lab.name), QString::fromStdString(lab.keyList()));
        const std::string key = set.left(eq).trimmed().toStdString();
        const std::string value = set.mid(eq + 1).trimmed().toStdString();
        const std::string err = setFromText(lab, values, key, value);
        if (!err.empty()) return QString::fromStdString(err);
    }
    return {};
}

void addCommonOptions(QCommandLineParser &parser)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(kSetOption,
        QStringLiteral("Set one parameter (repeatable); defaults are the chapter's values."),
        QStringLiteral("KEY=VALUE")));
}

} // namespace fb
