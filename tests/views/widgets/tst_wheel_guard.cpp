// The wheel over an unfocused slider, spin box or combo box scrolls the panel and leaves the value;
// over the focused one it changes the value.
#include "views/widgets/wheel_guard.h"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace {
void wheel(QWidget *w, int steps)
{
    const QPointF pos(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, -120 * steps), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}
} // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wheelScrollsThePanelUnlessFocused()
    {
        QScrollArea area;
        auto *panel = new QWidget;
        auto *layout = new QVBoxLayout(panel);
        auto *slider = new QSlider(Qt::Horizontal);
        slider->setRange(0, 100);
        slider->setValue(50);
        auto *spin = new QSpinBox;
        spin->setRange(0, 100);
        spin->setValue(50);
        auto *combo = new QComboBox;
        combo->addItems({ QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") });
        layout->addWidget(slider);
        layout->addWidget(spin);
        layout->addWidget(combo);
        for (int i = 0; i < 30; ++i) layout->addWidget(new QSlider(Qt::Horizontal));
        area.setWidget(panel);
        area.setWidgetResizable(true);
        area.resize(300, 200);
        fb::WheelGuard::install(&area);
        fb::WheelGuard::install(&area);  // twice: harmless
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QVERIFY(area.verticalScrollBar()->maximum() > 0);
        QCOMPARE(slider->focusPolicy(), Qt::StrongFocus);

        for (QWidget *w : { static_cast<QWidget *>(slider), static_cast<QWidget *>(spin),
                            static_cast<QWidget *>(combo) }) {
            area.verticalScrollBar()->setValue(0);
            wheel(w, 2);
            QVERIFY2(area.verticalScrollBar()->value() > 0, w->metaObject()->className());
        }
        QCOMPARE(slider->value(), 50);
        QCOMPARE(spin->value(), 50);
        QCOMPARE(combo->currentIndex(), 0);

        // The control the user picked takes the wheel.
        area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        spin->setFocus(Qt::OtherFocusReason);  // focus the program gave, not the user: still guarded
        QVERIFY(spin->hasFocus());
        area.verticalScrollBar()->setValue(0);
        wheel(spin, 1);
        QCOMPARE(spin->value(), 50);
        QVERIFY(area.verticalScrollBar()->value() > 0);
        spin->clearFocus();
        spin->setFocus(Qt::TabFocusReason);  // the user tabbed into it
        QVERIFY(spin->hasFocus());
        const int scrolled = area.verticalScrollBar()->value();
        wheel(spin, 1);
        QVERIFY(spin->value() != 50);
        QCOMPARE(area.verticalScrollBar()->value(), scrolled);
    }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheel_guard.moc"
