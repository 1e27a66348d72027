// The parameter panel: slider mapping, refusing bad input without changing state (said under the
// row changed), a file parameter's Browse…, reset.
#include "views/widgets/number_spin_box.h"
#include "views/lab/param_panel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

using namespace fb;

namespace {
LabSpec demoSpec()
{
    LabSpec spec { "demo", "Demo", {} };
    ParamSpec d { "d", "head width d", "", ParamKind::Integer, 2, 1024, 64 };
    d.multipleOf = 2;
    ParamSpec base { "base", "RoPE base b", "", ParamKind::Real, 2, 1e9, 10000 };
    base.logScale = true;
    ParamSpec snr { "snr", "SNR", "", ParamKind::Real, 0, 1e6, 10 };
    snr.logScale = true;
    ParamSpec causal { "causal", "causal mask", "", ParamKind::Integer, 0, 1, 0 };
    ParamSpec method { "method", "scaling", "", ParamKind::Choice };
    method.choices = { "none", "pi", "ntk", "yarn" };
    method.defText = "none";
    ParamSpec width { "width", "model width", "", ParamKind::Integer, 1, 1048576, 4096 };
    width.logScale = true;
    spec.params = { d, base, snr, causal, method, width };
    return spec;
}
} // namespace

class TestParamPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sliderMappingRoundTrips_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::newRow("even width") << "d" << 64.0;
        QTest::newRow("width max") << "d" << 1024.0;
        QTest::newRow("base 10000") << "base" << 10000.0;
        QTest::newRow("base 500000") << "base" << 500000.0;
        QTest::newRow("snr 10") << "snr" << 10.0;
    }
    void sliderMappingRoundTrips()
    {
        QFETCH(QString, key);
        QFETCH(double, value);
        const LabSpec spec = demoSpec();
        const ParamSpec &p = *spec.find(key.toStdString());
        const int pos = ParamPanel::sliderPosition(p, value);
        QVERIFY(pos >= 0 && pos <= ParamPanel::kSliderSteps);
        const double back = ParamPanel::sliderValue(p, pos);
        // Log sliders land within one slider step (and 3 significant digits) of the value.
        QVERIFY2(std::fabs(back - value) <= value * 0.03, qPrintable(QStringLiteral("%1 -> %2 -> %3").arg(value).arg(pos).arg(back)));
        QVERIFY(checkNumber(p, back).empty());
    }

    void sliderValuesAreAlwaysValid()
    {
        const LabSpec spec = demoSpec();
        for (const auto &p : spec.params) {
            if (p.kind != ParamKind::Real && p.kind != ParamKind::Integer) continue;
            for (int pos = 0; pos <= ParamPanel::kSliderSteps; pos += 7)
                QVERIFY2(checkNumber(p, ParamPanel::sliderValue(p, pos)).empty(), p.key.c_str());
        }
    }

    void refusesBadValuesAndKeepsState()
    {
        ParamPanel panel(demoSpec());
        QSignalSpy changed(&panel, &ParamPanel::valuesChanged);
        const ParamValues before = panel.values();
        QVERIFY(!panel.setValue("d", "63").isEmpty());
        QVERIFY(panel.message().contains(QStringLiteral("d must be an even integer in [2, 1024], got 63")));
        QVERIFY(panel.values() == before);
        QCOMPARE(changed.count(), 0);
        QVERIFY(!panel.setValue("method", "rope").isEmpty());
        QVERIFY(panel.values() == before);
        QVERIFY(!panel.setValue("base", "abc").isEmpty());
        QVERIFY(panel.values() == before);
    }

    void crossKeyValidator()
    {
        ParamPanel panel(demoSpec());
        panel.setValidator([](const ParamValues &v) -> std::string {
            return v.integer("d") % 8 == 0 ? std::string() : std::string("d must be a multiple of 8 for 8 heads");
        });
        QVERIFY(!panel.setValue("d", "66").isEmpty());
        QCOMPARE(panel.values().integer("d"), 64);
        QVERIFY(panel.setValue("d", "72").isEmpty());
        QCOMPARE(panel.values().integer("d"), 72);
        QVERIFY(panel.message().isEmpty());
    }

    void acceptsAndEmitsOnce()
    {
        ParamPanel panel(demoSpec());
        QSignalSpy changed(&panel, &ParamPanel::valuesChanged);
        QVERIFY(panel.setValue("base", "500000").isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.values().number("base"), 500000.0);
        QVERIFY(panel.setValue("base", "500000").isEmpty());  // same value: no recompute
        QCOMPARE(changed.count(), 1);
    }

    void sliderDragChangesValue()
    {
        ParamPanel panel(demoSpec());
        auto sliders = panel.findChildren<QSlider *>();
        QVERIFY(!sliders.isEmpty());
        QSignalSpy changed(&panel, &ParamPanel::valuesChanged);
        QSlider *first = sliders.first();  // the d slider (rows are built in spec order)
        first->setValue(first->value() + 5);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.values().integer("d"), 74);
    }

    void logSlidersStepAlongRoundValues()
    {
        ParamPanel panel(demoSpec());
        const auto sliders = panel.findChildren<QSlider *>();
        const auto spins = panel.findChildren<NumberSpinBox *>();
        QCOMPARE(sliders.size(), 4);  // d, base, snr, width (in spec order)
        QSlider *width = sliders[3];
        width->setFocus();
        QTest::keyClick(width, Qt::Key_Right);
        QCOMPARE(panel.values().number("width"), 8192.0);  // not 4270
        QTest::keyClick(width, Qt::Key_Left);
        QTest::keyClick(width, Qt::Key_Left);
        QCOMPARE(panel.values().number("width"), 2048.0);
        QSlider *base = sliders[1];
        QTest::keyClick(base, Qt::Key_Right);
        QCOMPARE(panel.values().number("base"), 20000.0);
        QTest::keyClick(base, Qt::Key_Right);
        QCOMPARE(panel.values().number("base"), 50000.0);
        // The spin box's arrows use the same ladder.
        NumberSpinBox *widthSpin = spins[3];
        widthSpin->stepBy(1);
        QCOMPARE(panel.values().number("width"), 4096.0);
        QVERIFY(panel.setValue("base", "30000").isEmpty());
        spins[1]->stepBy(-1);
        QCOMPARE(panel.values().number("base"), 20000.0);
    }

    // A choice the cross-key rules refuse (task = text without its file) snaps back, and says why
    // right under the combo box, where the eye is, not at the foot of a long column; Browse… then
    // completes the refused choice with the file chosen: both take effect at once.
    void refusalUnderItsRowAndBrowseCompletesIt()
    {
        LabSpec spec { "demo", "Demo", {} };
        ParamSpec task { "task", "task", "", ParamKind::Choice };
        task.choices = { "copy", "text" };
        task.defText = "copy";
        ParamSpec text { "text", "text file", "", ParamKind::Text };
        text.isFile = true;
        spec.params = { task, text };
        ParamPanel panel(spec);
        panel.setValidator([](const ParamValues &v) -> std::string {
            return v.text("task") == "text" && v.text("text").empty() ? "text must name a file for task=text" : "";
        });
        panel.resize(300, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *combo = panel.findChild<QComboBox *>();
        QSignalSpy changed(&panel, &ParamPanel::valuesChanged);
        combo->setCurrentText(QStringLiteral("text"));
        QCOMPARE(combo->currentText(), QStringLiteral("copy"));
        QCOMPARE(changed.count(), 0);
        auto *under = panel.findChild<QLabel *>(QStringLiteral("paramMessage_task"));
        QVERIFY(under && under->isVisible());
        QVERIFY2(under->text().contains(QStringLiteral("Browse")), qPrintable(under->text()));
        QCOMPARE(panel.message(), under->text());
        QVERIFY(under->geometry().top() < panel.findChild<QLineEdit *>()->geometry().top());

        // Browse…: cancelled changes nothing; a file chosen completes the refused choice.
        QString offered = QStringLiteral("unset");
        panel.setFileChooser([&](const QString &current) { offered = current; return QString(); });
        auto *browse = panel.findChild<QPushButton *>(QStringLiteral("browse_text"));
        QVERIFY(browse && browse->isVisible());
        browse->click();
        QCOMPARE(offered, QString());
        QCOMPARE(changed.count(), 0);
        panel.setFileChooser([](const QString &) { return QStringLiteral("notes.txt"); });
        browse->click();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.values().text("task"), std::string("text"));
        QCOMPARE(panel.values().text("text"), std::string("notes.txt"));
        QCOMPARE(combo->currentText(), QStringLiteral("text"));
        QCOMPARE(panel.findChild<QLineEdit *>()->text(), QStringLiteral("notes.txt"));
        QVERIFY(!under->isVisible());
        QVERIFY(panel.message().isEmpty());
        // Later, a file alone is only the file.
        panel.setFileChooser([](const QString &) { return QStringLiteral("other.txt"); });
        panel.browse("text");
        QCOMPARE(panel.values().text("text"), std::string("other.txt"));

        // Typed key by key: every prefix is refused (no such file), the field keeps what is typed and
        // the values in force stay, until the whole name is taken.
        panel.setValidator([](const ParamValues &v) -> std::string {
            const std::string &f = v.text("text");
            return f == "other.txt" || f == "notes.txt" ? "" : "text: '" + f + "' does not exist";
        });
        auto *field = panel.findChild<QLineEdit *>();
        field->selectAll();
        field->setFocus();
        const int before = int(changed.count());
        QTest::keyClicks(field, QStringLiteral("notes.tx"));
        QCOMPARE(field->text(), QStringLiteral("notes.tx"));
        QCOMPARE(panel.values().text("text"), std::string("other.txt"));
        QVERIFY(panel.message().contains(QStringLiteral("notes.tx")));
        QCOMPARE(int(changed.count()), before);
        QTest::keyClick(field, Qt::Key_T);
        QCOMPARE(panel.values().text("text"), std::string("notes.txt"));
        QCOMPARE(int(changed.count()), before + 1);
        QVERIFY(panel.message().isEmpty());
    }

    void resetRestoresDefaults()
    {
        ParamPanel panel(demoSpec());
        panel.setValue("d", "128");
        panel.setValue("method", "yarn");
        panel.reset();
        QVERIFY(panel.values() == demoSpec().defaults());
    }
};

QTEST_MAIN(TestParamPanel)
#include "tst_param_panel.moc"
