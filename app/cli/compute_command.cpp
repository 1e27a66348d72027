// fullband compute LAB [--set KEY=VALUE]...: one lab of core's list (core/lab/lab.h), its typed result
// printed as one JSON object.
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/lab/lab.h"

#include <QCoreApplication>

#include <cstdio>
#include <stdexcept>

namespace fb {

namespace {

QString computableNames()
{
    return QString::fromStdString(labNameList(true));
}

// Each lab with its keys, ranges, defaults and one sentence of help.
QString labsHelp()
{
    QString out = QStringLiteral("\nLabs and their keys (--set KEY=VALUE; defaults are the chapter's values):\n");
    for (const LabDefinition &lab : labDefinitions()) {
        if (!lab.computeJson) continue;
        const LabSpec &spec = lab.spec();
        out += QStringLiteral("\n  %1  (%2; %3)\n")
                   .arg(QString::fromStdString(spec.name), QString::fromStdString(spec.title),
                        QString::fromStdString(spec.source));
        for (const ParamSpec &p : spec.params) {
            const bool isText = p.kind == ParamKind::Choice || p.kind == ParamKind::Text;
            const QString def = isText ? QStringLiteral("'%1'").arg(QString::fromStdString(p.defText))
                                       : QString::fromStdString(formatNumber(p.def));
            QString unit = p.unit.empty() ? QString() : QStringLiteral(" %1").arg(QString::fromStdString(p.unit));
            if (p.kind == ParamKind::Text) unit.clear();
            out += QStringLiteral("    %1: %2, default %3%4. %5\n")
                       .arg(QString::fromStdString(p.key), QString::fromStdString(rangeText(p)), def, unit,
                            QString::fromStdString(p.help));
        }
    }
    return out;
}

} // namespace

int runLabCompute(const LabDefinition &lab, const QStringList &sets)
{
    const LabSpec &spec = lab.spec();
    ParamValues values = spec.defaults();
    if (const QString err = applySets(spec, values, sets); !err.isEmpty()) return failBadInput(err);
    if (const std::string err = lab.check(values); !err.empty()) return failBadInput(QString::fromStdString(err));
    JsonWriter json;
    RunControl stop;
    try {
        lab.computeJson(values, stop, json);
    } catch (const std::invalid_argument &e) {
        return failBadInput(QString::fromUtf8(e.what()));
    }
    if (!json.finite())
        return failBadInput(QStringLiteral("%1 gave a non-finite value for these settings; try values nearer the "
                                           "defaults (fullband compute --help)").arg(QString::fromStdString(spec.name)));
    const std::string &text = json.str();
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}

int runCompute(int argc, char **argv)
{
    QCoreApplication app(argc, argv);  // no display: the labs are pure computation
    QCoreApplication::setApplicationName(QStringLiteral("fullband compute"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Computes one lab of FullBand and prints every figure it shows as one JSON object on stdout."));
    addCommonOptions(parser);
    parser.addPositionalArgument(QStringLiteral("LAB"), QStringLiteral("One of: %1.").arg(computableNames()));

    // Parse as if "compute" were the program: fullband compute LAB ... -> [fullband, LAB, ...].
    QStringList args = QCoreApplication::arguments();
    if (args.size() > 1) args.removeAt(1);
    if (!parser.parse(args))
        return failBadInput(parser.errorText() + QStringLiteral(" (see fullband compute --help)"));
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        // Qt's usage line names the executable's path; name the subcommand instead.
        QString help = parser.helpText();
        const qsizetype eol = help.indexOf(QLatin1Char('\n'));
        help.replace(0, eol, QStringLiteral("Usage: fullband compute LAB [--set KEY=VALUE]..."));
        std::fputs(qPrintable(help + labsHelp()), stdout);
        return 0;
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return failBadInput(QStringLiteral("compute needs a lab, one of: %1").arg(computableNames()));
    if (positional.size() > 1)
        return failBadInput(QStringLiteral("compute takes one lab, got extra argument '%1' (use --set KEY=VALUE "
                                           "for parameters)").arg(positional.at(1)));
    const LabDefinition *lab = findLab(positional.first().toStdString());
    if (!lab || !lab->computeJson) {
        const QString hint = !lab ? QString()
                             : lab->name() == "transformer"
                                 ? QStringLiteral(" (train it with fullband train --set model=transformer)")
                                 : QStringLiteral(" (train it with fullband train)");
        return failBadInput(QStringLiteral("unknown lab '%1'%2; expected one of: %3")
                                .arg(positional.first(), hint, computableNames()));
    }
    return runLabCompute(*lab, parser.values(kSetOption));
}

} // namespace fb
