// The Findings tab: what the session's tests show together, shown in full as runs end, and the window's own
// run at two frame sizes against its embedded responder gives the frame-size sentence there.
#include "FindingsPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "settings/Config.h"

#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QtTest>

using namespace wb;

class TestFindingsPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void placeholderThenSentences();
    void windowRunAtTwoFrames();

private:
    QTemporaryDir m_dir;
};

void TestFindingsPanel::placeholderThenSentences()
{
    FindingsPanel panel;
    auto *label = panel.findChild<QLabel *>(QStringLiteral("findingsLabel"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(QStringLiteral("a file transfer and a TCP stream")), qPrintable(label->text()));
    QVERIFY(panel.findings().isEmpty());

    // A TCP stream and an FTP PUT to the same host, added one by one as the engine would.
    Host fs;
    fs.name = QStringLiteral("fs1");
    fs.address = QStringLiteral("192.0.2.10");
    RunResultList runs;
    for (const auto &[protocol, mbps] : {std::pair{"tcp-send", 117.7}, std::pair{"ftp-put", 42.7}}) {
        RunResult r;
        r.spec.host = fs;
        r.spec.protocol = QLatin1String(protocol);
        r.spec.frameSize = 1500;
        r.status = RunStatus::Ok;
        r.seconds = 10;
        r.bytes = qint64(mbps * 1e7);
        panel.addResult(r);
        runs << r;
    }
    const FindingList expected = SessionFindings::of(runs);
    QCOMPARE(expected.size(), 1);
    QCOMPARE(panel.findings().size(), 1);
    QCOMPARE(panel.findings().first().sentence, expected.first().sentence);
    QVERIFY2(panel.text().contains(QStringLiteral("ftp-put @ 1500 B 42.7 MB/s: 36% of the 117.7 MB/s")),
             qPrintable(panel.text()));
    QVERIFY(label->text().contains(QStringLiteral("ftp-put @ 1500 B 42.7 MB/s")));
    panel.clearResults();
    QVERIFY(panel.findings().isEmpty());
    QVERIFY(label->text().contains(QStringLiteral("a file transfer and a TCP stream")));
}

void TestFindingsPanel::windowRunAtTwoFrames()
{
    Config config(m_dir.filePath(QStringLiteral("findings.ini")));
    MainWindow window(&config);
    TestPlan plan;
    plan.protocols = {QStringLiteral("tcp-send")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 2;
    plan.params.durationMs = 500;
    window.planEditor()->setPlan(plan);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy done(&window, &MainWindow::planDone);
    auto *start = window.findChild<QPushButton *>(QStringLiteral("startButton"));
    QVERIFY(start && start->isEnabled());
    QTest::mouseClick(start, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);

    auto *panel = window.findChild<FindingsPanel *>(QStringLiteral("findingsPanel"));
    QVERIFY(panel);
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QStringLiteral("Findings"));
    QCOMPARE(panel->findings().size(), 1);
    const Finding &f = panel->findings().first();
    QCOMPARE(f.kind, Finding::Kind::FrameSizes);
    QCOMPARE(f.protocol, QStringLiteral("tcp-send"));
    QVERIFY2(f.sentence.startsWith(
                 QStringLiteral("This computer (loopback), tcp-send: 9000 B frames against 1500 B: throughput ")),
             qPrintable(f.sentence));
    // Both ends report CPU on loopback: the embedded responder is the far end.
    QVERIFY2(f.sentence.contains(QStringLiteral("CPU per GB on this computer")), qPrintable(f.sentence));
    auto *label = panel->findChild<QLabel *>(QStringLiteral("findingsLabel"));
    QVERIFY(label && label->text().contains(f.sentence.toHtmlEscaped()));
}

QTEST_MAIN(TestFindingsPanel)
#include "TestFindingsPanel.moc"
