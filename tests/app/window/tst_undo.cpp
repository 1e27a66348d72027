// Undo and redo of parameter changes: per lab, from the keyboard in and out of lecture mode, a
// slider drag as one step, scenes as one step, animation frames and the restored session as none.
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"
#include "views/widgets/number_spin_box.h"
#include "views/lab/param_panel.h"

#include <QAction>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>
#include <QUndoGroup>
#include <QUndoStack>

using namespace fb;

namespace {

int labNamed(const MainWindow &w, const QString &name)
{
    for (int i = 0; i < w.labCount(); ++i)
        if (w.lab(i) && w.lab(i)->name() == name) return i;
    return -1;
}

QAction *actionNamed(const MainWindow &w, const QString &prefix)
{
    for (QAction *a : w.actions())
        if (a->text().remove(QLatin1Char('&')).startsWith(prefix)) return a;
    return nullptr;
}

} // namespace

class TestUndo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandUndoTest"));
    }

    void keyboardUndoesAndRedoes()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int decay = labNamed(w, QStringLiteral("decay-bound"));
        QVERIFY(decay >= 0);
        w.showLab(decay);
        LabView *lab = w.currentLab();
        const ParamValues start = lab->values();
        QCOMPARE(lab->panel()->setValue("base", "500000"), QString());
        QCOMPARE(lab->undoStack()->count(), 1);
        QCOMPARE(lab->undoStack()->text(0), QStringLiteral("base 10000 \u2192 500000"));
        QAction *undo = actionNamed(w, QStringLiteral("Undo"));
        QVERIFY(undo && undo->isEnabled());
        QCOMPARE(undo->text(), QStringLiteral("&Undo base 10000 \u2192 500000"));

        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(lab->values() == start);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(lab->values().number("base"), 500000.0);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(lab->values() == start);
        QTest::keyClick(&w, Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(lab->values().number("base"), 500000.0);
        // The result follows the values (the lab recomputes on undo as on any change).
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        lab->waitForResult();
        QVERIFY(lab->values() == start);

        // Undo, then a new change: the redo is gone.
        QCOMPARE(lab->panel()->setValue("d", "128"), QString());
        QVERIFY(!lab->undoStack()->canRedo());
    }

    void eachLabHasItsOwnStack()
    {
        MainWindow w;
        const int decay = labNamed(w, QStringLiteral("decay-bound"));
        const int rope = labNamed(w, QStringLiteral("rope-invariance"));
        QVERIFY(decay >= 0 && rope >= 0);
        w.showLab(decay);
        QCOMPARE(w.currentLab()->panel()->setValue("base", "500000"), QString());
        w.showLab(rope);
        QCOMPARE(w.undoGroup()->activeStack(), w.lab(rope)->undoStack());
        QVERIFY(!w.undoGroup()->canUndo());  // the RoPE lab has not changed
        w.undoGroup()->undo();
        QCOMPARE(w.lab(decay)->values().number("base"), 500000.0);
        w.showLab(decay);
        w.undoGroup()->undo();
        QCOMPARE(w.lab(decay)->values().number("base"), 10000.0);
    }

    // A drag moves the slider through many values: one undo step back to where it started.
    void aSliderDragIsOneStep()
    {
        MainWindow w;
        w.showLab(labNamed(w, QStringLiteral("decay-bound")));
        LabView *lab = w.currentLab();
        const ParamValues start = lab->values();
        QSlider *slider = lab->panel()->findChildren<QSlider *>().first();
        for (int i = 1; i <= 20; ++i) slider->setValue(slider->value() + 3);
        QVERIFY(!(lab->values() == start));
        QCOMPARE(lab->undoStack()->count(), 1);
        lab->undoStack()->undo();
        QVERIFY(lab->values() == start);
        // A drag that comes back to its start leaves no step at all.
        lab->undoStack()->clear();
        const int at = slider->value();
        slider->setValue(at + 10);
        slider->setValue(at);
        QCOMPARE(lab->undoStack()->count(), 0);
    }

    // The spin box does not keep Ctrl+Z for its text: the window's undo acts, with the focus there.
    void undoWithTheFocusInASpinBox()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLab(labNamed(w, QStringLiteral("decay-bound")));
        LabView *lab = w.currentLab();
        NumberSpinBox *spin = lab->panel()->findChildren<NumberSpinBox *>().first();
        const ParamValues start = lab->values();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("128"));
        QTest::keyClick(spin, Qt::Key_Return);
        QVERIFY(!(lab->values() == start));
        QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(lab->values() == start);
        QCOMPARE(spin->text(), QString::fromStdString(formatNumber(start.number(lab->panel()->spec().params.front().key))));
    }

    void worksInLectureMode()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLab(labNamed(w, QStringLiteral("decay-bound")));
        LabView *lab = w.currentLab();
        QCOMPARE(lab->panel()->setValue("base", "500000"), QString());
        w.lecture()->enter();
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(lab->values().number("base"), 10000.0);
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(lab->values().number("base"), 500000.0);
        w.lecture()->leave();
    }

    // A scene is one step (its values at once); values set as not undoable (animation frames) none.
    void scenesAreOneStepFramesNone()
    {
        MainWindow w;
        const int decay = labNamed(w, QStringLiteral("decay-bound"));
        w.showLab(decay);
        LabView *lab = w.currentLab();
        const ParamValues start = lab->values();
        Scene s = w.currentScene();
        s.values.numbers["base"] = 500000;
        s.values.numbers["d"] = 128;
        QCOMPARE(w.applyScene(s), QString());
        QCOMPARE(lab->undoStack()->count(), 1);
        lab->undoStack()->undo();
        QVERIFY(lab->values() == start);

        lab->undoStack()->clear();
        ParamValues frame = start;
        frame.numbers["base"] = 300;
        QCOMPARE(lab->setValues(frame, false), QString());
        QCOMPARE(lab->undoStack()->count(), 0);
        // The next change starts from the frame's values.
        QCOMPARE(lab->panel()->setValue("base", "700"), QString());
        lab->undoStack()->undo();
        QCOMPARE(lab->values().number("base"), 300.0);
    }
};

QTEST_MAIN(TestUndo)
#include "tst_undo.moc"
