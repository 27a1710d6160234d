#include "LinkCheckPanel.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace wb;

namespace {

Host loopback()
{
    Host h;
    h.name = QStringLiteral("loop");
    h.address = QStringLiteral("127.0.0.1");
    return h;
}

QString cell(const LinkCheckPanel &p, int row, int column)
{
    const QTableWidgetItem *item = p.table()->item(row, column);
    return item ? item->text() : QString();
}

/// The table row of a frame size (host 0).
int rowOfFrame(const LinkCheckPanel &p, int frame)
{
    for (int row = 0; row < p.table()->rowCount(); ++row) {
        if (cell(p, row, LinkCheckPanel::Frame) == QString::number(frame))
            return row;
    }
    return -1;
}

} // namespace

class TestLinkCheckPanel : public QObject
{
    Q_OBJECT
private slots:
    void loopbackPathMtu();
    void oversizeFrameFlagged();
    void hostNameResolved();
    void emptyAndBadInput();
};

void TestLinkCheckPanel::loopbackPathMtu()
{
    LinkCheckPanel panel;
    QSignalSpy spy(&panel, &LinkCheckPanel::checked);
    panel.setHosts({loopback()});
    panel.setFrameSizes({1500});
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 10000);
    QCOMPARE(panel.checks().size(), 1);
    const HostFrameCheck c = panel.checks().first();
    QVERIFY2(c.link.error.isEmpty(), qPrintable(c.link.error));
    QCOMPARE(c.link.interfaceName, QStringLiteral("lo"));
    QVERIFY(c.link.pathMtu >= 1500);
    // What the user sees: the interface, its MTU and the path MTU, in bytes.
    QCOMPARE(cell(panel, 0, LinkCheckPanel::HostName), QStringLiteral("loop"));
    QCOMPARE(cell(panel, 0, LinkCheckPanel::Interface), QStringLiteral("lo"));
    QCOMPARE(cell(panel, 0, LinkCheckPanel::PathMtu), QString::number(c.link.pathMtu));
    QCOMPARE(cell(panel, 0, LinkCheckPanel::InterfaceMtu), QString::number(c.link.interfaceMtu));
    QVERIFY(panel.table()->horizontalHeaderItem(LinkCheckPanel::PathMtu)->text().endsWith(QStringLiteral("(B)")));
    // Loopback has no negotiated speed.
    QCOMPARE(cell(panel, 0, LinkCheckPanel::Speed), QStringLiteral("unknown"));
    const int row = rowOfFrame(panel, 1500);
    QVERIFY(row >= 0);
    QCOMPARE(cell(panel, row, LinkCheckPanel::CanRun), QStringLiteral("yes"));
    QVERIFY(cell(panel, row, LinkCheckPanel::Reason).isEmpty());
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("linkCheckSummary"))->text().contains(QStringLiteral("can run")));
}

void TestLinkCheckPanel::oversizeFrameFlagged()
{
    LinkCheckPanel panel;
    QSignalSpy spy(&panel, &LinkCheckPanel::checked);
    panel.setHosts({loopback()});
    panel.setFrameSizes({1500});
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 10000);
    const int pathMtu = panel.checks().first().link.pathMtu;
    QVERIFY(pathMtu > 0);

    // A frame larger than the path MTU: flagged with the reason; 1500 still fine. Updates on its own.
    const int big = pathMtu + 8;
    panel.setFrameSizes({1500, big});
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 2, 10000);
    QCOMPARE(panel.table()->rowCount(), 2);
    QCOMPARE(cell(panel, rowOfFrame(panel, 1500), LinkCheckPanel::CanRun), QStringLiteral("yes"));
    const int row = rowOfFrame(panel, big);
    QVERIFY(row >= 0);
    QCOMPARE(cell(panel, row, LinkCheckPanel::CanRun), QStringLiteral("no"));
    const QString reason = cell(panel, row, LinkCheckPanel::Reason);
    QVERIFY2(reason.contains(QStringLiteral("path MTU")) && reason.contains(QString::number(pathMtu)),
             qPrintable(reason));
    QVERIFY(!panel.checks().first().allOk());
    QVERIFY(
        panel.findChild<QLabel *>(QStringLiteral("linkCheckSummary"))->text().contains(QStringLiteral("cannot run")));
    // The host's link on its first row only.
    QCOMPARE(cell(panel, 0, LinkCheckPanel::PathMtu), QString::number(pathMtu));
    QVERIFY(cell(panel, 1, LinkCheckPanel::PathMtu).isEmpty());
}

void TestLinkCheckPanel::hostNameResolved()
{
    // "localhost" goes through the asynchronous resolver (the hosts file), then the probe.
    LinkCheckPanel panel;
    QSignalSpy spy(&panel, &LinkCheckPanel::checked);
    Host h;
    h.name = QStringLiteral("by-name");
    h.address = QStringLiteral("localhost");
    Host embedded;
    embedded.name = QStringLiteral("This computer (loopback)");
    embedded.embedded = true; // no address: the panel uses the built-in responder's 127.0.0.1
    panel.setHosts({h, embedded});
    panel.setFrameSizes({1500});
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 15000);
    QCOMPARE(panel.checks().size(), 2);
    for (const HostFrameCheck &c : panel.checks()) {
        QVERIFY2(c.link.error.isEmpty(), qPrintable(c.link.error));
        QVERIFY(c.link.pathMtu > 0);
        QVERIFY(c.frames.first().ok);
    }
    QCOMPARE(panel.checks().at(0).host.address, QStringLiteral("localhost")); // the user's host, as entered
}

void TestLinkCheckPanel::emptyAndBadInput()
{
    LinkCheckPanel panel;
    QSignalSpy spy(&panel, &LinkCheckPanel::checked);
    panel.checkNow();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.table()->rowCount(), 0);
    QVERIFY(
        panel.findChild<QLabel *>(QStringLiteral("linkCheckSummary"))->text().contains(QStringLiteral("Tick a host")));

    // A host without an address: one line saying so, no crash.
    Host blank;
    blank.name = QStringLiteral("blank");
    panel.setHosts({blank});
    panel.setFrameSizes({1500, 9000});
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 2, 10000);
    QCOMPARE(panel.checks().size(), 1);
    QVERIFY(!panel.checks().first().link.error.isEmpty());
    QVERIFY(!cell(panel, 0, LinkCheckPanel::Reason).isEmpty());
}

QTEST_MAIN(TestLinkCheckPanel)
#include "TestLinkCheckPanel.moc"
