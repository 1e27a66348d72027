// fullband export LAB [--set KEY=VALUE]... --out FILE.png [--size WxH] [--scale S] [--chart N]
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/export/image_export.h"
#include "app/export/lab_image.h"
#include "app/registry/lab_registry.h"
#include "core/io/atomic_file.h"
#include "core/io/bounded_read.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <memory>

namespace fb {

int runExport(int argc, char **argv)
{
    installQuietMessages();
    // Rendering needs no screen: use the offscreen platform unless the caller chose one.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Render one chart of a lab to a PNG without a display.\nLabs: %1").arg(labNames()));
    addCommonOptions(parser);
    parser.addOption({ QStringLiteral("out"), QStringLiteral("File to write (required): .png image, .svg drawing or .csv data."), QStringLiteral("FILE.png") });
    parser.addOption({ QStringLiteral("size"), QStringLiteral("Pixel size, default 1600x1000."), QStringLiteral("WxH") });
    parser.addOption({ QStringLiteral("scale"), QStringLiteral("1 or 2 (2: twice the pixels, for slides)."), QStringLiteral("S") });
    parser.addOption({ QStringLiteral("chart"), QStringLiteral("Which chart of the lab, from 1 (default 1)."), QStringLiteral("N") });
    parser.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The subcommand."));
    parser.addPositionalArgument(QStringLiteral("LAB"), QStringLiteral("The lab to render."));
    if (!parser.parse(QCoreApplication::arguments())) return failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList args = parser.positionalArguments();
    if (args.size() > 2)
        return failBadInput(QStringLiteral("export takes one LAB, got extra argument '%1' (use --set KEY=VALUE for "
                                           "parameters)").arg(args.at(2)));
    if (args.size() != 2)
        return failBadInput(QStringLiteral("export needs exactly one LAB, one of: %1").arg(labNames()));
    const int index = labIndex(args[1]);
    if (index < 0) return failBadInput(QStringLiteral("unknown lab '%1'; labs: %2").arg(args[1], labNames()));

    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty()) return failBadInput(QStringLiteral("--out FILE.png is required"));
    if (exportFormat(out) == ExportFormat::Unknown)
        return failBadInput(QStringLiteral("--out must name a .png, .svg or .csv file, got '%1'").arg(out));
    const QFileInfo outInfo(out);
    if (!outInfo.absoluteDir().exists())
        return failBadInput(QStringLiteral("--out: folder '%1' does not exist").arg(outInfo.absolutePath()));
    if (const std::string why = checkNotSpecialFile(QFile::encodeName(out).toStdString()); !why.empty())
        return failBadInput(QStringLiteral("--out: %1").arg(QString::fromStdString(why)));
    // A read-only file is refused before anything is drawn (the writer would refuse it anyway).
    if (const std::string why = checkReplaceable(QFile::encodeName(out).toStdString()); !why.empty())
        return failBadInput(QString::fromStdString(why));
    ExportOptions options;
    if (parser.isSet(QStringLiteral("size")) && !parseSize(parser.value(QStringLiteral("size")), options.size))
        return failBadInput(QStringLiteral("--size must be WxH with both in [16, 8192], got '%1'")
                                .arg(parser.value(QStringLiteral("size"))));
    if (parser.isSet(QStringLiteral("scale"))) {
        // The parser of --set (core's parseNumber): the same numbers in every locale.
        double scale = 0.0;
        const bool ok = parseNumber(parser.value(QStringLiteral("scale")).trimmed().toStdString(), scale);
        options.scale = scale;
        if (!ok || !(options.scale >= 0.5 && options.scale <= 4.0)  // NaN fails both comparisons
            || options.size.width() * options.scale > 16384 || options.size.height() * options.scale > 16384)
            return failBadInput(QStringLiteral("--scale must be a number in [0.5, 4] (at most 16384 pixels a side), got '%1'")
                                    .arg(parser.value(QStringLiteral("scale"))));
    }

    std::unique_ptr<LabView> lab(labRegistry()[index].create());
    ParamValues values = lab->values();
    if (QString err = applySets(lab->panel()->spec(), values, parser.values(kSetOption)); !err.isEmpty())
        return failBadInput(err);
    if (QString err = lab->setValues(values); !err.isEmpty()) return failBadInput(err);

    int chart = 1;
    if (parser.isSet(QStringLiteral("chart"))) {
        bool ok = false;
        chart = parser.value(QStringLiteral("chart")).toInt(&ok);
        if (!ok || chart < 1 || chart > lab->exportables().size())
            return failBadInput(QStringLiteral("--chart must be an integer in [1, %1], got '%2'")
                                    .arg(lab->exportables().size()).arg(parser.value(QStringLiteral("chart"))));
    }
    lab->resize(options.size);
    lab->show();
    lab->waitForResult();
    Exportable &target = *lab->exportables()[chart - 1];
    QString err;
    switch (exportFormat(out)) {
    case ExportFormat::Svg: err = writeSvg(target, out, options.size); break;
    case ExportFormat::Csv: err = writeCsv(target, out); break;
    // The same image as the window's Export chart, with the scene embedded.
    default: err = writePng(chartImage(*lab, chart - 1, options.size, options.scale, false), out); break;
    }
    if (!err.isEmpty()) return failBadInput(err);
    std::printf("%s\n", qPrintable(QFileInfo(out).absoluteFilePath()));
    return 0;
}

} // namespace fb
