#pragma once
// A test's window keeps its settings apart from the user's: Qt's test locations, FullBand's test
// organisation and the test's own application name, started empty.
#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

namespace fb::test {

inline void useFreshTestSettings(const QString &applicationName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
    QCoreApplication::setApplicationName(applicationName);
    QSettings().clear();
}

} // namespace fb::test
