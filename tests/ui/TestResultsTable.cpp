#include "ResultsTable.h"

#include <QTest>

using namespace wb;

namespace {

RunResult run(RunStatus status = RunStatus::Ok)
{
    RunResult r;
    r.spec.host.name = QStringLiteral("fs1");
    r.spec.host.address = QStringLiteral("10.0.0.5");
    r.spec.protocol = QStringLiteral("tcp-send");
    r.spec.frameSize = 1500;
    r.spec.repetition = 1;
    r.status = status;
    r.seconds = 2.0;
    r.bytes = status == RunStatus::Ok ? 220000000 : 0; // 110 MB/s
    r.mss = 1448;
    return r;
}

QString cell(const ResultsTable &t, int row, int column)
{
    const QTableWidgetItem *item = t.item(row, column);
    return item ? item->text() : QString();
}

} // namespace

class TestResultsTable : public QObject
{
    Q_OBJECT
private slots:
    void trustColumns();
    void warningIcon();
    void notRunGreyWithReason();
    void smbConnectionsInTooltip();
    void streamsInProtocol();
    void bothWaysSideBySide();
};

void TestResultsTable::trustColumns()
{
    ResultsTable table;
    QCOMPARE(table.horizontalHeaderItem(ResultsTable::PercentOfCeiling)->text(), QStringLiteral("% of ceiling"));
    QCOMPARE(table.horizontalHeaderItem(ResultsTable::CpuLocal)->text(), QStringLiteral("CPU local (%)"));
    QCOMPARE(table.horizontalHeaderItem(ResultsTable::CpuRemote)->text(), QStringLiteral("CPU remote (%)"));
    QCOMPARE(table.horizontalHeaderItem(ResultsTable::RttMs)->text(), QStringLiteral("RTT (ms)"));
    QVERIFY(table.horizontalHeaderItem(ResultsTable::Retransmits)->text().contains(QStringLiteral("segments")));

    RunResult r = run();
    r.extra.insert(QStringLiteral("percent_of_ceiling"), 93.47);
    r.extra.insert(QStringLiteral("ceiling_MBps"), 117.685);
    r.extra.insert(QStringLiteral("ceiling_mtu"), 1500);
    r.extra.insert(QStringLiteral("cpu_local_percent"), 12.34);
    r.extra.insert(QStringLiteral("cpu_remote_percent"), 45.0);
    r.extra.insert(QStringLiteral("retransmits"), 3);
    r.extra.insert(QStringLiteral("rtt_us"), 250);
    table.addResult(r);
    QCOMPARE(cell(table, 0, ResultsTable::MBps), QStringLiteral("110.00"));
    QCOMPARE(cell(table, 0, ResultsTable::PercentOfCeiling), QStringLiteral("93.5"));
    QVERIFY(table.item(0, ResultsTable::PercentOfCeiling)->toolTip().contains(QStringLiteral("117.7 MB/s")));
    QCOMPARE(cell(table, 0, ResultsTable::CpuLocal), QStringLiteral("12.3"));
    QCOMPARE(cell(table, 0, ResultsTable::CpuRemote), QStringLiteral("45.0"));
    QCOMPARE(cell(table, 0, ResultsTable::Retransmits), QStringLiteral("3"));
    QCOMPARE(cell(table, 0, ResultsTable::RttMs), QStringLiteral("0.250"));
    QCOMPARE(cell(table, 0, ResultsTable::Status), QStringLiteral("ok"));
    QVERIFY(table.item(0, ResultsTable::Status)->icon().isNull());

    // Not reported (loopback has no ceiling, a driver without TCP_INFO): a dash, not a zero.
    table.addResult(run());
    for (int c : {ResultsTable::PercentOfCeiling, ResultsTable::CpuLocal, ResultsTable::CpuRemote,
                  ResultsTable::Retransmits, ResultsTable::RttMs})
        QCOMPARE(cell(table, 1, c), QStringLiteral("-"));
}

void TestResultsTable::warningIcon()
{
    ResultsTable table;
    RunResult r = run();
    r.warnings << QStringLiteral("110 MB/s is above the line-rate ceiling of 100 Mbit/s at MTU 1500 (11.8 MB/s, "
                                 "935% of it): a cache, compression or a counting error");
    table.addResult(r);
    QTableWidgetItem *status = table.item(0, ResultsTable::Status);
    QVERIFY(!status->icon().isNull());
    QVERIFY(status->toolTip().contains(QStringLiteral("counting error")));
    QVERIFY(cell(table, 0, ResultsTable::Error).contains(QStringLiteral("above the line-rate ceiling")));
}

void TestResultsTable::notRunGreyWithReason()
{
    ResultsTable table;
    table.addResult(run());
    RunResult r = run(RunStatus::NotRun);
    r.spec.frameSize = 9000;
    r.mss = 0;
    r.error = QStringLiteral("jumbo frames are not enabled end to end: path MTU to fs1 (10.0.0.5) is 1500 bytes");
    table.addResult(r);
    QCOMPARE(cell(table, 1, ResultsTable::Status), QStringLiteral("not run"));
    QCOMPARE(cell(table, 1, ResultsTable::Error), r.error);
    QCOMPARE(cell(table, 1, ResultsTable::MBps), QStringLiteral("-"));
    const QColor okColor = table.item(0, ResultsTable::HostName)->foreground().color();
    for (int c : {ResultsTable::HostName, ResultsTable::Frame, ResultsTable::Status, ResultsTable::Error}) {
        const QColor grey = table.item(1, c)->foreground().color();
        QVERIFY(grey != okColor);
        QCOMPARE(grey.red(), grey.green()); // grey: no hue
        QCOMPARE(grey.green(), grey.blue());
    }
    QVERIFY(table.item(1, ResultsTable::Frame)->toolTip().contains(QStringLiteral("path MTU")));
}

void TestResultsTable::smbConnectionsInTooltip()
{
    // An SMB write or read over several connections says so on its protocol; one connection, nothing.
    ResultsTable table;
    const struct
    {
        const char *protocol;
        const char *key;
        int connections;
        QString tooltip;
    } rows[] = {
        {"smb-write", "smb_write_connections", 2,
         QStringLiteral("Written over 2 connections at once, each with one write in flight (smb.write_connections)")},
        {"smb-read", "smb_read_connections", 3,
         QStringLiteral(
             "Read over 3 connections at once, each reading the next chunk of the file (smb.read_connections)")},
        {"smb-read", "smb_read_connections", 1, QString()}};
    for (const auto &row : rows) {
        RunResult r = run();
        r.spec.protocol = QString::fromLatin1(row.protocol);
        r.extra.insert(QString::fromLatin1(row.key), row.connections);
        table.addResult(r);
        QCOMPARE(table.item(table.rowCount() - 1, ResultsTable::Protocol)->toolTip(), row.tooltip);
    }
}

void TestResultsTable::streamsInProtocol()
{
    // A run over several streams says how many on its protocol, and what the figure is; one stream, nothing.
    ResultsTable table;
    for (const int streams : {4, 1}) {
        RunResult r = run();
        r.spec.protocol = QStringLiteral("tcp-send");
        if (streams > 1)
            r.extra.insert(QStringLiteral("streams"), streams);
        table.addResult(r);
        const QTableWidgetItem *protocol = table.item(table.rowCount() - 1, ResultsTable::Protocol);
        QCOMPARE(protocol->text(), streams > 1 ? QStringLiteral("tcp-send (4 streams)") : QStringLiteral("tcp-send"));
        QCOMPARE(protocol->toolTip(),
                 streams > 1 ? QStringLiteral("4 streams at once; the figure is their sum over the time "
                                              "common to all")
                             : QString());
    }
}

void TestResultsTable::bothWaysSideBySide()
{
    // Both directions at once: each figure's cell holds the send and the receive figure, send first.
    ResultsTable table;
    RunResult r = run();
    r.spec.protocol = QStringLiteral("tcp-bidir");
    r.bytes = 22868000; // 11.434 MB/s over 2 s
    r.reverse = RunResult::Reverse{22800000, 2.0, 22810000, {}};
    r.extra.insert(QStringLiteral("percent_of_ceiling"), 100.0);
    r.extra.insert(QStringLiteral("reverse_percent_of_ceiling"), 99.7);
    r.extra.insert(QStringLiteral("ceiling_MBps"), 11.434);
    table.addResult(r);
    QCOMPARE(cell(table, 0, ResultsTable::MBps), QStringLiteral("11.43 \u2191 11.40 \u2193"));
    QCOMPARE(cell(table, 0, ResultsTable::Mbps), QStringLiteral("91.5 \u2191 91.2 \u2193"));
    QCOMPARE(cell(table, 0, ResultsTable::PercentOfCeiling), QStringLiteral("100.0 \u2191 99.7 \u2193"));
    QCOMPARE(table.item(0, ResultsTable::MBps)->toolTip(),
             QStringLiteral(
                 "Both directions at once: \u2191 send (client \u2192 server), \u2193 receive (server \u2192 client), "
                 "each the receiver's count over its own time"));
    QCOMPARE(table.item(0, ResultsTable::PercentOfCeiling)->toolTip(),
             QStringLiteral("Of what each direction carries while the other direction's ACKs share it (11.43 MB/s)"));
    table.addResult(run()); // one direction: one figure
    QCOMPARE(cell(table, 1, ResultsTable::MBps), QStringLiteral("110.00"));
}

QTEST_MAIN(TestResultsTable)
#include "TestResultsTable.moc"
