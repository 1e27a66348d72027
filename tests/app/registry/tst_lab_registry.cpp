// Every lab of the window, taken from core's list (core/labs/lab_list.cpp), not from the registry
// under test: it has a view registered, the view names that lab, it has an icon found by its name,
// an explanation that says what to try, and a row in the README's table of labs.
#include "app/registry/lab_registry.h"
#include "core/lab/lab.h"
#include "views/lab/explanation_panel.h"
#include "views/lab/lab_view.h"

#include <QFile>
#include <QIcon>
#include <QRegularExpression>
#include <QTest>
#include <QTextDocument>

#include <memory>

using namespace fb;

namespace {

QString plain(const QString &html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

QStringList windowLabs()
{
    QStringList names;
    for (const LabDefinition &lab : labDefinitions())
        if (lab.inWindow) names << QString::fromStdString(lab.name());
    return names;
}

} // namespace

class TestLabRegistry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyWindowLabHasAView()
    {
        QVERIFY2(labsWithoutView().isEmpty(), qPrintable(labsWithoutView().join(QStringLiteral(", "))));
        const QStringList names = windowLabs();
        QVERIFY(names.size() >= 10);
        QCOMPARE(labRegistry().size(), names.size());
        for (int i = 0; i < names.size(); ++i) {
            const LabEntry &entry = labRegistry()[i];
            QCOMPARE(entry.name, names[i]);  // the sidebar in core's order
            std::unique_ptr<LabView> view(entry.create());
            QVERIFY(view);
            QCOMPARE(view->name(), names[i]);  // the view draws the lab it is registered for
            QCOMPARE(view->title(), QString::fromStdString(findLab(names[i].toStdString())->spec().title));
        }
    }

    void everyWindowLabHasAnIconFoundByItsName()
    {
        for (const QString &name : windowLabs()) {
            const QString path = QStringLiteral(":/icons/labs/%1.svg").arg(name);
            QVERIFY2(QFile::exists(path), qPrintable(path));
            QCOMPARE(labRegistry()[labIndex(name)].icon, path);
            QVERIFY2(!QIcon(path).pixmap(32, 32).isNull(), qPrintable(path));
        }
    }

    void everyWindowLabExplainsItself()
    {
        for (const QString &name : windowLabs()) {
            const LabEntry &entry = labRegistry()[labIndex(name)];
            QVERIFY(entry.explanation);
            const QString text = plain(entry.explanation());
            // A few sentences: what it shows, what to try.
            QVERIFY2(text.size() > 300, qPrintable(name));
            QVERIFY2(text.contains(QStringLiteral("Try")), qPrintable(name));
            // The view shows it, under the section the lab follows.
            std::unique_ptr<LabView> view(entry.create());
            const QString shown = plain(view->explanation()->text());
            QVERIFY2(shown.contains(text), qPrintable(name));
            QVERIFY2(shown.startsWith(QString::fromStdString(entry.spec().section)), qPrintable(name));
        }
    }

    void theReadmeListsEveryWindowLab()
    {
        QFile readme(QStringLiteral(FULLBAND_SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        for (const QString &name : windowLabs()) {
            const QString title = QString::fromStdString(findLab(name.toStdString())->spec().title);
            // A row of the table of labs: "| Title (`name`) | section | what moves |".
            const QRegularExpression row(QStringLiteral("^\\| %1 \\(`%2`\\) \\|").arg(QRegularExpression::escape(title),
                                                                                  QRegularExpression::escape(name)),
                                         QRegularExpression::MultilineOption);
            QVERIFY2(row.match(text).hasMatch(), qPrintable(QStringLiteral("README.md has no row for %1 (%2)").arg(title, name)));
        }
    }
};

QTEST_MAIN(TestLabRegistry)
#include "tst_lab_registry.moc"
