#include "RunControlPanel.h"

#include <QLabel>
#include <QProgressBar>
#include <QTest>
#include <QVBoxLayout>

using namespace wb;

namespace {

// Counts the layout requests a widget receives (posted by a child's updateGeometry, or a layout's invalidate).
class LayoutRequests : public QObject
{
public:
    int count = 0;
    bool eventFilter(QObject *, QEvent *event) override
    {
        count += event->type() == QEvent::LayoutRequest ? 1 : 0;
        return false;
    }
};

// Delivers the pending layout requests, as the event loop would next.
void settleLayouts()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

// The panel at the top of a window of the width given, the rest of the window empty space.
RunControlPanel *showInWindow(QWidget &window, int width)
{
    auto *layout = new QVBoxLayout(&window);
    auto *panel = new RunControlPanel(&window);
    layout->addWidget(panel);
    layout->addStretch(1);
    window.resize(width, 400);
    window.show();
    return panel;
}

} // namespace

// The status line under Start, Stop and the progress bar: shown whole, and a new line of the same wrapped height
// leaves the window's layouts alone (a layout request reaching the page tabs repaints the whole window).
class TestRunControlPanel : public QObject
{
    Q_OBJECT
private slots:
    void statusShownWholeUnderTheRow();
    void sameHeightStatusAsksNoLayout();
    void longerStatusGrowsThePanel();
};

void TestRunControlPanel::statusShownWholeUnderTheRow()
{
    QWidget window;
    RunControlPanel *panel = showInWindow(window, 600);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    panel->setStatus(QStringLiteral("Run 1: tcp-send to lab server at frame size 1500, repetition 1"));
    settleLayouts();
    QCOMPARE(panel->statusText(), QStringLiteral("Run 1: tcp-send to lab server at frame size 1500, repetition 1"));
    const auto *label = panel->findChild<QLabel *>(QStringLiteral("statusLabel"));
    const auto *bar = panel->findChild<QProgressBar *>(QStringLiteral("progressBar"));
    QVERIFY(label && bar);
    QVERIFY(label->isVisible());
    QCOMPARE(label->width(), panel->width());
    QVERIFY2(label->height() >= label->fontMetrics().height(), "at least one line of text high");
    QVERIFY2(label->geometry().top() >= bar->geometry().bottom(), "the status line sits under the progress bar");
    QVERIFY2(label->geometry().bottom() < panel->height(), "the status line is inside the panel");
}

void TestRunControlPanel::sameHeightStatusAsksNoLayout()
{
    QWidget window;
    RunControlPanel *panel = showInWindow(window, 600);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    panel->setStatus(QStringLiteral("Run 1: tcp-send to lab server, repetition 1"));
    settleLayouts();
    const int height = panel->height();

    LayoutRequests onPanel;
    LayoutRequests onWindow;
    panel->installEventFilter(&onPanel);
    window.installEventFilter(&onWindow);
    panel->setStatus(QStringLiteral("Measuring tcp-recv @ 1500 B frame, repetition 2..."));
    settleLayouts();
    QCOMPARE(panel->statusText(), QStringLiteral("Measuring tcp-recv @ 1500 B frame, repetition 2..."));
    QCOMPARE(onPanel.count, 0);
    QCOMPARE(onWindow.count, 0);
    QCOMPARE(panel->height(), height);
}

void TestRunControlPanel::longerStatusGrowsThePanel()
{
    QWidget window;
    RunControlPanel *panel = showInWindow(window, 400);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    panel->setStatus(QStringLiteral("Done."));
    settleLayouts();
    const int oneLine = panel->height();
    const auto *label = panel->findChild<QLabel *>(QStringLiteral("statusLabel"));
    QVERIFY(label);

    const QString error = QStringLiteral("lab server: the connection to 10.0.0.2:5301 was refused; is wirebenchd "
                                         "running there, and does its firewall let port 5301 in? Repeating the "
                                         "test cannot cure this, so its other repetitions were not run.");
    panel->setStatus(error);
    settleLayouts();
    QVERIFY2(panel->height() > oneLine, "a status that wraps to more lines makes the panel taller");
    QVERIFY2(label->height() >= 2 * label->fontMetrics().height(), "the long status shows on several lines");
    QVERIFY2(label->geometry().bottom() < panel->height(), "every line of the status is inside the panel");

    panel->setStatus(QStringLiteral("Done."));
    settleLayouts();
    QCOMPARE(panel->height(), oneLine);
}

QTEST_MAIN(TestRunControlPanel)
#include "TestRunControlPanel.moc"
