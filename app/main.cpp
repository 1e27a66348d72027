// FullBand: a desktop lab for the transformer and latent feedback.
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/animation/video_writer.h"
#include "app/window/main_window.h"
#include "app/window/settings_guard.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

int main(int argc, char **argv)
{
    // Past a file-size limit (ulimit -f), a write fails with "file too large" and the export says so,
    // instead of the process being killed with the previous file's replacement half written.
    std::signal(SIGXFSZ, SIG_IGN);
    // Ctrl-C or SIGTERM during an animation export removes its hidden partial file on the way out.
    fb::removePartialFilesOnSignals();
    fb::installQuietMessages();
    if (argc > 1) {
        if (std::strcmp(argv[1], "compute") == 0) return fb::runCompute(argc, argv);
        if (std::strcmp(argv[1], "train") == 0) return fb::runTrain(argc, argv);
        if (std::strcmp(argv[1], "export") == 0) return fb::runExport(argc, argv);
        if (std::strcmp(argv[1], "animate") == 0) return fb::runAnimate(argc, argv);
        if (std::strcmp(argv[1], "generate") == 0) return fb::runGenerate(argc, argv);
        if (std::strcmp(argv[1], "compare") == 0) return fb::runCompare(argc, argv);
    }

    // A word that is neither a subcommand, an option nor a file is a typo: say so without a display.
    if (argc > 1 && argv[1][0] != '-' && !QFileInfo::exists(QString::fromLocal8Bit(argv[1]))) {
        return fb::failBadInput(QStringLiteral("unknown subcommand or file '%1'; expected compute, train, export, "
                                               "animate, generate, compare or a file to open (see fullband --help)")
                                    .arg(QString::fromLocal8Bit(argv[1])));
    }

    // --help and --version need no display: answer them before a GUI application exists.
    bool infoOnly = false;
    for (int i = 1; i < argc; ++i)
        for (const char *flag : { "--help", "-h", "-help", "--version", "-v", "-version" })
            infoOnly = infoOnly || std::strcmp(argv[i], flag) == 0;
    std::unique_ptr<QCoreApplication> appHolder;
    if (infoOnly) appHolder = std::make_unique<QCoreApplication>(argc, argv);
    else {
        if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
            && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            std::fprintf(stderr, "fullband: no display found (DISPLAY is not set). Start it on a desktop, "
                                 "under xvfb-run, or use the headless subcommands (fullband --help).\n");
            return fb::kExitBadInput;
        }
        appHolder = std::make_unique<QApplication>(argc, argv);
    }
    QCoreApplication &app = *appHolder;
    QApplication::setApplicationName(QStringLiteral("FullBand"));
    QApplication::setOrganizationName(QStringLiteral("FullBand"));
    QApplication::setApplicationVersion(QStringLiteral(FULLBAND_VERSION));
    if (!infoOnly) QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fullband.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "FullBand: live labs for attention, RoPE, channel capacity, latent-feedback training and "
        "transformer costs.\n\n"
        "Subcommands (headless, no display needed):\n"
        "  compute LAB [--set KEY=VALUE]...   print a lab's figures as JSON\n"
        "  train [--set KEY=VALUE]...         train the latent-feedback toy, print JSON\n"
        "  export LAB [--set KEY=VALUE]... --out FILE.png [--size WxH]\n"
        "  animate LAB --sweep KEY=FROM:TO[:log] [--set KEY=VALUE]... [--frames N] [--fps F]\n"
        "          [--size WxH] --out FILE.mp4|FILE.gif|DIR/   a parameter sweep as video, GIF or PNGs\n"
        "  generate MODEL.fbmodel [--prompt TEXT] [--chars N] [--set KEY=VALUE]...\n"
        "          a saved text model writes, with its KV cache and without; prints JSON\n"
        "  compare [--set KEY=VALUE]... --config OVERRIDES [--config OVERRIDES]...\n"
        "          up to five transformer configurations trained side by side, print JSON\n"
        "fullband FILE opens a scene (.fullband), a deck, or a PNG exported by FullBand.\n"
        "Run 'fullband SUBCOMMAND --help' for the keys of each."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A scene, deck or exported PNG to open."), QStringLiteral("[FILE]"));
    if (!parser.parse(QCoreApplication::arguments()))
        return fb::failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("FullBand %s\n", FULLBAND_VERSION);
        return 0;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return fb::failBadInput(QStringLiteral("open one scene, deck or exported PNG at a time, got %1 files").arg(files.size()));

    if (const QString warning = fb::guardSettingsFiles(); !warning.isEmpty())
        std::fprintf(stderr, "fullband: %s\n", qPrintable(warning));
    fb::MainWindow window;
    if (!files.isEmpty()) {
        // A file that cannot be opened is refused before any window appears.
        if (const QString err = window.openPath(files.first()); !err.isEmpty()) return fb::failBadInput(err);
    }
    // The very first start opens on the start page: what each lab shows and where to begin.
    if (files.isEmpty() && window.isFirstStart()) window.showStartPage();
    window.show();
    return app.exec();
}
