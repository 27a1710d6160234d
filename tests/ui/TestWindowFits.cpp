#include "ComparisonChart.h"
#include "LatencyChart.h"
#include "MainWindow.h"
#include "MeasurePage.h"
#include "ResultsTable.h"
#include "RunControlPanel.h"
#include "ThroughputChart.h"
#include "settings/Config.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace wb;

// The window on the screens people have: its first size comes from the screen, it fits a 1280x720 screen (and
// 1920x1080 at 150%, which is 1280x720 to Qt), every panel keeps a readable size, no text is cut, nothing lies
// outside the window; and every action has a key. Each screen is a child process of this test with Qt's offscreen
// platform set to that screen (its configfile) and QT_SCALE_FACTOR, since a screen is fixed when QApplication starts.
class TestWindowFits : public QObject
{
    Q_OBJECT
private slots:
    void fitsTheScreen_data();
    void fitsTheScreen();
    void everyActionHasAKey();
    void startAndStopByKeys();
};

namespace {

constexpr char kScreenVariable[] = "WIREBENCH_FITS_SCREEN"; // "WIDTHxHEIGHT" in the child

/// Everything the child finds wrong, one line each.
QStringList problemsOf(MainWindow &window)
{
    QStringList problems;
    const QRect area = window.screen()->availableGeometry();
    if (!area.contains(window.frameGeometry()))
        problems << QStringLiteral("window %1 outside the screen's area %2")
                        .arg(QDebug::toString(window.frameGeometry()), QDebug::toString(area));
    if (window.minimumSizeHint().width() > area.width() || window.minimumSizeHint().height() > area.height())
        problems << QStringLiteral("minimum size hint %1 larger than the screen's area")
                        .arg(QDebug::toString(window.minimumSizeHint()));
    auto *page = window.findChild<MeasurePage *>();
    if (page->width() < MeasurePage::kCompactWidth != page->isCompact())
        problems << QStringLiteral("page %1 px wide and compact=%2").arg(page->width()).arg(page->isCompact());
    const auto tooSmall = [&](const QString &what, const QWidget *w, int minW, int minH) {
        if (w->width() < minW || w->height() < minH)
            problems << QStringLiteral("%1 is %2x%3, below %4x%5")
                            .arg(what)
                            .arg(w->width())
                            .arg(w->height())
                            .arg(minW)
                            .arg(minH);
    };
    tooSmall(QStringLiteral("live graph"), window.throughputChart()->plot(), 360, 170);
    tooSmall(QStringLiteral("latency graph"), window.latencyChart()->findChild<QCustomPlot *>(), 320, 110);
    const ResultsTable *table = window.resultsTable();
    const int rows = table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
    if (rows < 5)
        problems << QStringLiteral("the results table shows %1 rows").arg(rows);
    if (page->isCompact())
        page->chartTabs()->setCurrentIndex(1); // the comparison chart's own controls are checked too
    QApplication::processEvents();
    tooSmall(QStringLiteral("comparison chart"), window.comparisonChart()->plot(), 360, 170);

    // Nothing cut: a control inside the window (but for what a scroll area shows part of), its text within it.
    const QRect inside = window.rect();
    for (QWidget *w : window.findChildren<QWidget *>()) {
        if (!w->isVisibleTo(&window) || !w->isVisible())
            continue;
        bool scrolled = false;
        for (QWidget *p = w->parentWidget(); p && p != &window; p = p->parentWidget())
            scrolled = scrolled || qobject_cast<QAbstractScrollArea *>(p);
        if (scrolled)
            continue;
        const QString name
            = w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) : w->objectName();
        const QRect at(w->mapTo(&window, QPoint(0, 0)), w->size());
        if (!(qobject_cast<QAbstractButton *>(w) || qobject_cast<QComboBox *>(w) || qobject_cast<QLabel *>(w)))
            continue;
        if (!inside.contains(at))
            problems << QStringLiteral("%1 at %2 lies outside the window %3")
                            .arg(name, QDebug::toString(at), QDebug::toString(inside));
        if (auto *label = qobject_cast<QLabel *>(w); label && !label->wordWrap() && !label->text().isEmpty()
            && label->textFormat() != Qt::RichText
            && label->fontMetrics().horizontalAdvance(label->text()) > label->contentsRect().width() + 1)
            problems << QStringLiteral("label %1 cut: \"%2\"").arg(name, label->text());
        if (auto *button = qobject_cast<QAbstractButton *>(w);
            button && button->sizeHint().width() > button->width() + 1)
            problems << QStringLiteral("button %1 cut: \"%2\" needs %3 px, has %4")
                            .arg(name, button->text())
                            .arg(button->sizeHint().width())
                            .arg(button->width());
    }
    return problems;
}

/// The child: the window on the screen the offscreen platform was given, its problems on stdout.
int runChild()
{
    int argc = 1;
    char name[] = "TestWindowFits";
    char *argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow window(&config);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 2;
    QTest::qWait(200); // the layouts settle after the first show
    const QStringList problems = problemsOf(window);
    if (const QByteArray shots = qgetenv("WIREBENCH_FITS_SHOTS"); !shots.isEmpty())
        window.grab().save(QString::fromLocal8Bit(shots) + QLatin1Char('/')
                           + QString::fromLocal8Bit(qgetenv(kScreenVariable)) + QStringLiteral("@")
                           + QString::fromLocal8Bit(qgetenv("QT_SCALE_FACTOR")) + QStringLiteral(".png"));
    std::printf("window %dx%d on %dx%d (dpr %.2f)\n", window.width(), window.height(),
                window.screen()->availableGeometry().width(), window.screen()->availableGeometry().height(),
                window.devicePixelRatioF());
    for (const QString &p : problems)
        std::printf("PROBLEM %s\n", qPrintable(p));
    return problems.isEmpty() ? 0 : 1;
}

} // namespace

void TestWindowFits::fitsTheScreen_data()
{
    QTest::addColumn<QSize>("screen"); // in device pixels
    QTest::addColumn<QString>("scale");
    QTest::newRow("1280x720") << QSize(1280, 720) << QStringLiteral("1");
    QTest::newRow("1366x768") << QSize(1366, 768) << QStringLiteral("1");
    QTest::newRow("1920x1080") << QSize(1920, 1080) << QStringLiteral("1");
    QTest::newRow("1920x1080 at 150%") << QSize(1920, 1080) << QStringLiteral("1.5");
    QTest::newRow("2560x1440 at 200%") << QSize(2560, 1440) << QStringLiteral("2");
    QTest::newRow("2560x1440") << QSize(2560, 1440) << QStringLiteral("1");
    QTest::newRow("3840x2160 at 200%") << QSize(3840, 2160) << QStringLiteral("2");
}

void TestWindowFits::fitsTheScreen()
{
    QFETCH(QSize, screen);
    QFETCH(QString, scale);
    QTemporaryDir dir;
    // The offscreen platform's screen of this size (Qt's qoffscreenintegration reads it from a JSON file).
    QFile file(dir.filePath(QStringLiteral("screen.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1, "height": %2,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}], "windowFrameMargins": false})")
                   .arg(screen.width())
                   .arg(screen.height())
                   .toUtf8());
    file.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + file.fileName());
    env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
    env.insert(QLatin1String(kScreenVariable), QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height()));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForFinished(60000));
    const QString out = QString::fromLocal8Bit(child.readAll());
    qInfo().noquote() << out.trimmed();
    // The child saw the screen it was given (Qt's logical pixels: device pixels / scale).
    const QSize logical(qRound(screen.width() / scale.toDouble()), qRound(screen.height() / scale.toDouble()));
    QVERIFY2(out.contains(QStringLiteral(" on %1x%2 ").arg(logical.width()).arg(logical.height())), qPrintable(out));
    QVERIFY2(child.exitCode() == 0, qPrintable(out));
}

void TestWindowFits::everyActionHasAKey()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow window(&config);
    const QHash<QString, QKeySequence> keys{
        {QStringLiteral("startAction"), QKeySequence(Qt::Key_F5)},
        {QStringLiteral("stopAction"), QKeySequence(Qt::Key_Escape)},
        {QStringLiteral("exportComparisonAction"), QKeySequence(Qt::CTRL | Qt::Key_E)},
        {QStringLiteral("exportLiveAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)},
        {QStringLiteral("reportAction"), QKeySequence(Qt::CTRL | Qt::Key_P)},
        {QStringLiteral("addHostAction"), QKeySequence(Qt::CTRL | Qt::Key_N)},
        {QStringLiteral("editHostAction"), QKeySequence(Qt::Key_F2)},
        {QStringLiteral("pageAction1"), QKeySequence(Qt::CTRL | Qt::Key_1)},
        {QStringLiteral("pageAction2"), QKeySequence(Qt::CTRL | Qt::Key_2)},
        {QStringLiteral("pageAction3"), QKeySequence(Qt::CTRL | Qt::Key_3)},
        {QStringLiteral("openPlanAction"), QKeySequence(QKeySequence::Open)},
        {QStringLiteral("savePlanAction"), QKeySequence(QKeySequence::Save)},
    };
    QHash<QString, QAction *> inMenus; // reachable from the menu bar, where the key is shown beside the entry
    for (QMenu *menu : window.menuBar()->findChildren<QMenu *>())
        for (QAction *a : menu->actions())
            inMenus.insert(a->objectName(), a);
    for (auto it = keys.cbegin(); it != keys.cend(); ++it) {
        QAction *a = inMenus.value(it.key());
        QVERIFY2(a, qPrintable(it.key()));
        QVERIFY2(a->shortcuts().contains(it.value()), qPrintable(it.key()));
    }
    for (const QString &preset : {QStringLiteral("shootoutMenuAction"), QStringLiteral("netperfMenuAction"),
                                  QStringLiteral("removeHostAction")})
        QVERIFY2(inMenus.contains(preset), qPrintable(preset));
    QCOMPARE(window.menuBar()->actions().constFirst()->text(), QStringLiteral("&File"));
    QCOMPARE(window.menuBar()->actions().constLast()->text(), QStringLiteral("&Help"));
}

void TestWindowFits::startAndStopByKeys()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow window(&config);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto *pages = window.findChild<QTabWidget *>(QStringLiteral("pageTabs"));
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(pages->currentIndex(), 1);
    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(pages->currentIndex(), 2);
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(pages->currentIndex(), 0);
    // F5 starts the default plan against the built-in loopback responder; Esc stops it; the keys go through the
    // buttons, so they do what a click does.
    QVERIFY(window.runControl()->startAction()->isEnabled());
    QTest::keyClick(&window, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(window.engine()->isRunning(), 20000);
    QVERIFY(window.runControl()->stopAction()->isEnabled());
    QVERIFY(!window.runControl()->startAction()->isEnabled());
    QSignalSpy done(&window, &MainWindow::planDone);
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
    QCOMPARE(done.first().first().toBool(), true); // cancelled
    QVERIFY(window.runControl()->startAction()->isEnabled());
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet(kScreenVariable))
        return runChild();
    QApplication app(argc, argv);
    TestWindowFits test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestWindowFits.moc"
