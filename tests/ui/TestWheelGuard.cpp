// The wheel scrolls the plan editor, not the values it passes over (WheelGuard, installed on the application as
// the GUI's main does): over a spin box or a combo box without focus, inside a scroll area, the area scrolls and the
// value stays; with focus, the box takes the wheel as usual; outside a scroll area nothing changes.
#include "PlanEditorPanel.h"
#include "WheelGuard.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

using namespace wb;

class TestWheelGuard : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { qApp->installEventFilter(&m_guard); }
    void unfocusedBoxScrollsTheArea();
    void focusedBoxTakesTheWheel();
    void outsideAScrollAreaNothingChanges();
    void planEditorDurationStays();

private:
    /// One notch of the wheel, down, over w's centre.
    static void wheelDown(QWidget *w)
    {
        const QPointF local = QPointF(w->rect().center());
        QWheelEvent e(local, QPointF(w->mapToGlobal(local.toPoint())), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &e);
    }

    WheelGuard m_guard;
};

namespace {

struct Scrolled
{
    QScrollArea area;
    QSpinBox *spin = nullptr;
    QComboBox *combo = nullptr;

    Scrolled()
    {
        auto *content = new QWidget;
        auto *layout = new QVBoxLayout(content);
        layout->addWidget(new QLineEdit); // where the window's focus starts, as the host list has it in the main window
        spin = new QSpinBox;
        spin->setRange(0, 100);
        spin->setValue(50);
        combo = new QComboBox;
        combo->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        combo->setCurrentIndex(1);
        layout->addWidget(spin);
        layout->addWidget(combo);
        layout->addSpacing(3000);
        area.setWidget(content);
        area.resize(300, 200);
        area.show();
    }
};

} // namespace

void TestWheelGuard::unfocusedBoxScrollsTheArea()
{
    Scrolled s;
    QVERIFY(QTest::qWaitForWindowExposed(&s.area));
    QCOMPARE(s.spin->focusPolicy(), Qt::StrongFocus); // the wheel gives it no focus
    QVERIFY(!s.spin->hasFocus());
    QCOMPARE(s.area.verticalScrollBar()->value(), 0);
    wheelDown(s.spin);
    QCOMPARE(s.spin->value(), 50);
    const int afterSpin = s.area.verticalScrollBar()->value();
    QVERIFY2(afterSpin > 0, "the area did not scroll");
    s.area.verticalScrollBar()->setValue(0);
    wheelDown(s.combo);
    QCOMPARE(s.combo->currentIndex(), 1);
    QCOMPARE(s.area.verticalScrollBar()->value(), afterSpin); // one notch, scrolled once
}

void TestWheelGuard::focusedBoxTakesTheWheel()
{
    Scrolled s;
    QVERIFY(QTest::qWaitForWindowExposed(&s.area));
    s.area.activateWindow();
    s.spin->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(s.spin->hasFocus());
    wheelDown(s.spin);
    QCOMPARE(s.spin->value(), 49);
    QCOMPARE(s.area.verticalScrollBar()->value(), 0);
}

void TestWheelGuard::outsideAScrollAreaNothingChanges()
{
    QWidget window;
    auto *spin = new QSpinBox(&window);
    spin->setValue(50);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(spin->focusPolicy(), Qt::WheelFocus);
    wheelDown(spin);
    QCOMPARE(spin->value(), 49);
}

void TestWheelGuard::planEditorDurationStays()
{
    // The real plan editor in a scroll area, as the main window holds it: the wheel over "Duration of a run".
    QScrollArea area;
    auto *panel = new PlanEditorPanel(nullptr);
    area.setWidget(panel);
    area.setWidgetResizable(true);
    area.resize(420, 300);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    auto *duration = panel->findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
    QVERIFY(duration);
    const double before = duration->value();
    area.ensureWidgetVisible(duration);
    const int scrolled = area.verticalScrollBar()->value();
    wheelDown(duration);
    QCOMPARE(duration->value(), before);
    QVERIFY(area.verticalScrollBar()->value() > scrolled
            || area.verticalScrollBar()->value() == area.verticalScrollBar()->maximum());
}

QTEST_MAIN(TestWheelGuard)
#include "TestWheelGuard.moc"
