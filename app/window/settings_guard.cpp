#include "app/window/settings_guard.h"

#include "core/io/bounded_read.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace fb {

QString guardSettingsFiles()
{
    // QSettings' files on Unix: <dir>/<organization>/<application>.conf and <dir>/<organization>.conf
    // for the user's config folder and each system one (XDG_CONFIG_DIRS).
    const QString org = QCoreApplication::organizationName(), app = QCoreApplication::applicationName();
    QStringList candidates;
    for (const QString &dir : QStandardPaths::standardLocations(QStandardPaths::GenericConfigLocation)) {
        candidates << QDir(dir).filePath(org + QLatin1Char('/') + app + QStringLiteral(".conf"))
                   << QDir(dir).filePath(org + QStringLiteral(".conf"));
    }
    for (const QString &path : candidates) {
        const std::string why = checkNotSpecialFile(QFile::encodeName(path).toStdString());
        if (why.empty()) continue;
        // A private empty folder for this run: nothing is read from it, and what is saved is dropped.
        static QTemporaryDir empty;
        // Both formats: on Unix a default QSettings (NativeFormat) has paths of its own.
        for (QSettings::Format format : { QSettings::NativeFormat, QSettings::IniFormat })
            for (QSettings::Scope scope : { QSettings::UserScope, QSettings::SystemScope })
                QSettings::setPath(format, scope, empty.path());
        return QStringLiteral("settings file %1; starting with the default settings, which will not be saved")
            .arg(QString::fromStdString(why));
    }
    return {};
}

} // namespace fb
