#include "PlanEditorPanel.h"
#include "OptionForm.h"
#include "ReferenceStreamBox.h"
#include "support/HostRows.h"
#include "latency/LatencyRecorder.h"
#include "protocols/transfer/TransferSettings.h"
#include "settings/Config.h"

#include <QAction>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

class TestPlanEditor : public QObject
{
    Q_OBJECT
private slots:
    void defaults();
    void buildsThePlan();
    void netperfPreset();
    void parallelStreams();
    void latencyIdleLead();
    void problemsReported();
    void persisted();
    void repeatOptions();
    void transferSettingsShownAndRoundTrip();
    void shootoutPreset();
    void referenceOnlyForHostsThatAnswer();
    void netperfMenuPreset();
    void screenshot();

private:
    template <typename T>
    T *child(QWidget &w, const char *name)
    {
        T *c = w.findChild<T *>(QString::fromLatin1(name));
        if (!c)
            qFatal("no child %s", name);
        return c;
    }
    QTemporaryDir m_dir;
};

void TestPlanEditor::defaults()
{
    PlanEditorPanel panel(nullptr);
    const TestPlan plan = panel.plan();
    QCOMPARE(plan.protocols, (QStringList{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(plan.frameSizes, (QList<int>{1500, 9000}));
    QCOMPARE(plan.repetitions, 5);
    QCOMPARE(plan.params.durationMs, 10000);
    QCOMPARE(plan.params.messageSize, 128 * 1024);
    QCOMPARE(plan.params.sendBufferBytes, 0);
    QCOMPARE(plan.params.recvBufferBytes, 0);
    QCOMPARE(plan.params.sampleIntervalMs, 100);
    QCOMPARE(plan.params.streams, 1);
    QVERIFY(plan.hosts.isEmpty());
    QVERIFY(panel.problems().isEmpty());
    QCOMPARE(child<QComboBox>(panel, "socketBufferCombo")->currentText(), QStringLiteral("System default"));
}

void TestPlanEditor::buildsThePlan()
{
    PlanEditorPanel panel(nullptr);
    child<QCheckBox>(panel, "protocolCheck_tcp-send")->setChecked(false);
    child<QCheckBox>(panel, "frame1500Check")->setChecked(false);
    child<QLineEdit>(panel, "customFramesEdit")->setText(QStringLiteral("4000, 7000 4000"));
    child<QSpinBox>(panel, "repetitionsSpin")->setValue(3);
    child<QDoubleSpinBox>(panel, "durationSpin")->setValue(2.5);
    child<QComboBox>(panel, "socketBufferCombo")->setCurrentIndex(1);
    child<QSpinBox>(panel, "socketBufferSpin")->setValue(512);
    child<QSpinBox>(panel, "sampleIntervalSpin")->setValue(250);
    const TestPlan plan = panel.plan();
    QCOMPARE(plan.protocols, QStringList{QStringLiteral("tcp-recv")});
    QCOMPARE(plan.frameSizes, (QList<int>{9000, 4000, 7000}));
    QCOMPARE(plan.repetitions, 3);
    QCOMPARE(plan.params.durationMs, 2500);
    QCOMPARE(plan.params.sendBufferBytes, 512 * 1024);
    QCOMPARE(plan.params.recvBufferBytes, 512 * 1024);
    QCOMPARE(plan.params.sampleIntervalMs, 250);

    // What the engine expands: 1 host x 1 protocol x 3 frames x 3 repetitions.
    TestPlan withHost = plan;
    withHost.hosts = {Config::loopbackHost()};
    QCOMPARE(withHost.expand().size(), 9);
    QVERIFY(withHost.validate().isEmpty());
}

void TestPlanEditor::parallelStreams()
{
    // The spin box sets the plan's streams (1..128), a loaded plan sets the spin box, and the summary says how many.
    PlanEditorPanel panel(nullptr);
    auto *streams = child<QSpinBox>(panel, "streamsSpin");
    QCOMPARE(streams->minimum(), 1);
    QCOMPARE(streams->maximum(), 128);
    auto *summary = child<QLabel>(panel, "planSummaryLabel");
    QVERIFY2(!summary->text().contains(QStringLiteral("stream")), qPrintable(summary->text()));
    streams->setValue(4);
    QCOMPARE(panel.plan().params.streams, 4);
    QVERIFY2(summary->text().contains(QStringLiteral(", message 128 KiB, 4 streams each")),
             qPrintable(summary->text()));
    TestPlan loaded = panel.plan();
    loaded.params.streams = 16;
    panel.setPlan(loaded);
    QCOMPARE(streams->value(), 16);
    QCOMPARE(panel.plan().params.streams, 16);
}

void TestPlanEditor::latencyIdleLead()
{
    // latency.idle_ms: the default stays out of the plan, 0 turns the probe off (and its lead out of the length),
    // and a loaded plan's value comes back in the spin box.
    PlanEditorPanel panel(nullptr);
    auto *idle = child<QSpinBox>(panel, "latencyIdleSpin");
    QCOMPARE(idle->value(), LatencyRecorder::kDefaultIdleMs);
    QVERIFY(!panel.plan().params.options.contains(LatencyRecorder::idleOption()));
    QCOMPARE(LatencyRecorder::idleMsOf(panel.plan().params, QStringLiteral("tcp-send")),
             LatencyRecorder::kDefaultIdleMs);
    idle->setValue(0);
    QCOMPARE(idle->text(), QStringLiteral("off (no latency probe)"));
    QCOMPARE(panel.plan().params.options.value(LatencyRecorder::idleOption()).toInt(), 0);
    QCOMPARE(LatencyRecorder::idleMsOf(panel.plan().params, QStringLiteral("tcp-send")), 0);
    TestPlan loaded = panel.plan();
    loaded.params.options.insert(LatencyRecorder::idleOption(), 5000);
    panel.setPlan(loaded);
    QCOMPARE(idle->value(), 5000);
    QCOMPARE(LatencyRecorder::idleMsOf(panel.plan().params, QStringLiteral("tcp-send")), 5000);
    loaded.params.options.remove(LatencyRecorder::idleOption());
    panel.setPlan(loaded);
    QCOMPARE(idle->value(), LatencyRecorder::kDefaultIdleMs);
}

void TestPlanEditor::netperfPreset()
{
    PlanEditorPanel panel(nullptr);
    auto *preset = child<QComboBox>(panel, "messagePresetCombo");
    const int index = preset->findText(QStringLiteral("1472 B (netperf -m 1472)"));
    QVERIFY(index >= 0);
    preset->setCurrentIndex(index);
    emit preset->activated(index);
    QCOMPARE(panel.plan().params.messageSize, 1472);
    child<QSpinBox>(panel, "messageSizeSpin")->setValue(5000);
    QCOMPARE(panel.plan().params.messageSize, 5000);
    QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    child<QSpinBox>(panel, "messageSizeSpin")->setValue(128 * 1024);
    QCOMPARE(preset->currentText(), QStringLiteral("128 KiB (default)"));
}

void TestPlanEditor::problemsReported()
{
    PlanEditorPanel panel(nullptr);
    child<QCheckBox>(panel, "protocolCheck_tcp-send")->setChecked(false);
    child<QCheckBox>(panel, "protocolCheck_tcp-recv")->setChecked(false);
    child<QLineEdit>(panel, "customFramesEdit")->setText(QStringLiteral("12, jumbo"));
    const QStringList problems = panel.problems();
    QVERIFY(problems.join(QLatin1Char(' ')).contains(QStringLiteral("protocol")));
    QVERIFY(problems.join(QLatin1Char(' ')).contains(QStringLiteral("\"12\"")));
    QVERIFY(problems.join(QLatin1Char(' ')).contains(QStringLiteral("\"jumbo\"")));
    QCOMPARE(panel.plan().frameSizes, (QList<int>{1500, 9000})); // bad custom values are left out
}

void TestPlanEditor::persisted()
{
    const QString file = m_dir.filePath(QStringLiteral("plan.ini"));
    {
        Config config(file);
        PlanEditorPanel panel(&config);
        child<QSpinBox>(panel, "repetitionsSpin")->setValue(7);
        child<QCheckBox>(panel, "frame9000Check")->setChecked(false);
    }
    Config config(file);
    PlanEditorPanel panel(&config);
    QCOMPARE(panel.plan().repetitions, 7);
    QCOMPARE(panel.plan().frameSizes, QList<int>{1500});
}

void TestPlanEditor::repeatOptions()
{
    const QString file = m_dir.filePath(QStringLiteral("repeat.ini"));
    {
        Config config(file);
        PlanEditorPanel panel(&config);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // Off by default: every repetition runs, nothing is left out.
        QCOMPARE(panel.plan().params.stableTargetPercent, 0.0);
        QCOMPARE(panel.plan().params.warmupMs, 0);
        QVERIFY(!panel.plan().interleaveHosts);
        QVERIFY(!child<QDoubleSpinBox>(panel, "stableTargetSpin")->isEnabled());

        auto *stable = child<QCheckBox>(panel, "stableCheck");
        QTest::mouseClick(stable, Qt::LeftButton, {}, QPoint(8, stable->height() / 2));
        QVERIFY(stable->isChecked());
        QVERIFY(child<QDoubleSpinBox>(panel, "stableTargetSpin")->isEnabled());
        child<QSpinBox>(panel, "repetitionsSpin")->setValue(10);
        child<QDoubleSpinBox>(panel, "stableTargetSpin")->setValue(2.5);
        child<QSpinBox>(panel, "minRepetitionsSpin")->setValue(4);
        child<QDoubleSpinBox>(panel, "warmupSpin")->setValue(2);
        auto *interleave = child<QCheckBox>(panel, "interleaveCheck");
        QTest::mouseClick(interleave, Qt::LeftButton, {}, QPoint(8, interleave->height() / 2));
        auto *stop = child<QCheckBox>(panel, "stopOnErrorCheck");
        QTest::mouseClick(stop, Qt::LeftButton, {}, QPoint(8, stop->height() / 2));

        const TestPlan plan = panel.plan();
        QCOMPARE(plan.params.stableTargetPercent, 2.5);
        QCOMPARE(plan.params.minRepetitions, 4);
        QCOMPARE(plan.repetitions, 10);
        QCOMPARE(plan.params.warmupMs, 2000);
        QVERIFY(plan.interleaveHosts);
        QVERIFY(plan.params.stopOnError);
        const QString note = child<QLabel>(panel, "stableNoteLabel")->text();
        QVERIFY2(note.contains(QStringLiteral("4 to 10 times")) && note.contains(QStringLiteral("2.5 %")),
                 qPrintable(note));
        const QString summary = child<QLabel>(panel, "planSummaryLabel")->text();
        QVERIFY2(summary.contains(QStringLiteral("4 to 10 repetition(s)")), qPrintable(summary));
        QVERIFY(panel.problems().isEmpty());

        // More runs before judging than allowed at most: the editor says so.
        child<QSpinBox>(panel, "minRepetitionsSpin")->setValue(12);
        QVERIFY2(panel.problems().join(QLatin1Char(' ')).contains(QStringLiteral("Repeat until stable")),
                 qPrintable(panel.problems().join(QLatin1Char(' '))));
        child<QSpinBox>(panel, "minRepetitionsSpin")->setValue(4);
    }
    // Kept between sessions.
    Config config(file);
    PlanEditorPanel panel(&config);
    const TestPlan plan = panel.plan();
    QCOMPARE(plan.params.stableTargetPercent, 2.5);
    QCOMPARE(plan.params.minRepetitions, 4);
    QCOMPARE(plan.params.warmupMs, 2000);
    QVERIFY(plan.interleaveHosts);
    QVERIFY(plan.params.stopOnError);
    QVERIFY(child<QCheckBox>(panel, "stableCheck")->isChecked());

    // Interleaved: repetition 1 on every host before repetition 2 (A B A B).
    TestPlan two = plan;
    Host a = Config::loopbackHost();
    Host b = a;
    b.name = QStringLiteral("second");
    two.hosts = {a, b};
    two.protocols = {QStringLiteral("tcp-send")};
    two.frameSizes = {1500};
    two.repetitions = 2;
    const QList<RunSpec> runs = two.expand();
    QCOMPARE(runs.size(), 4);
    QCOMPARE(runs.at(0).host.name, a.name);
    QCOMPARE(runs.at(1).host.name, b.name);
    QCOMPARE(runs.at(2).host.name, a.name);
    QCOMPARE(runs.at(1).repetition, 1);
    QCOMPARE(runs.at(2).repetition, 2);
}

void TestPlanEditor::transferSettingsShownAndRoundTrip()
{
    const QString file = m_dir.filePath(QStringLiteral("transfer.ini"));
    {
        Config config(file);
        PlanEditorPanel panel(&config);
        panel.show();
        auto *box = child<QGroupBox>(panel, "transferBox");
        QVERIFY(!box->isVisible()); // only TCP checked
        child<QCheckBox>(panel, "protocolCheck_ftp-get")->setChecked(true);
        QVERIFY(box->isVisible());
        QCOMPARE(child<QSpinBox>(panel, "fileSizeSpin")->value(), 256);
        QCOMPARE(panel.plan().params.fileSizeBytes, 256LL * 1024 * 1024);
        // Every plan-wide option has its editor.
        for (const OptionSpec &option : TransferSettings::planOptions())
            QVERIFY2(panel.findChild<QWidget *>(QStringLiteral("option_") + option.key), qPrintable(option.key));
        auto *path = child<QLineEdit>(panel, "option_transfer.local_path");
        QVERIFY(!path->isEnabled()); // memory source and sink
        child<QComboBox>(panel, "option_transfer.sink")->setCurrentText(QStringLiteral("file"));
        QVERIFY(path->isEnabled());
        QVERIFY(panel.problems().join(QLatin1Char(' ')).contains(QStringLiteral("local file")));
        path->setText(QStringLiteral("/tmp/wb-sink.bin"));
        QVERIFY(panel.problems().isEmpty());
        child<QCheckBox>(panel, "option_transfer.unbuffered")->setChecked(true);
        child<QCheckBox>(panel, "option_transfer.verify")->setChecked(true);
        child<QCheckBox>(panel, "option_transfer.create_seed")->setChecked(false);
        child<QSpinBox>(panel, "fileSizeSpin")->setValue(64);

        const TestPlan plan = panel.plan();
        QCOMPARE(plan.params.fileSizeBytes, 64LL * 1024 * 1024);
        const TransferSettings t = TransferSettings::fromParams(plan.params);
        QVERIFY(t.fileSink);
        QVERIFY(!t.fileSource);
        QCOMPARE(t.localPath, QStringLiteral("/tmp/wb-sink.bin"));
        QVERIFY(t.unbuffered);
        QVERIFY(t.verify);
        QVERIFY(!t.createSeed);
    }
    // Saved through Config and read back into the editors.
    Config config(file);
    PlanEditorPanel panel(&config);
    QCOMPARE(child<QSpinBox>(panel, "fileSizeSpin")->value(), 64);
    QCOMPARE(child<QComboBox>(panel, "option_transfer.sink")->currentText(), QStringLiteral("file"));
    QCOMPARE(child<QLineEdit>(panel, "option_transfer.local_path")->text(), QStringLiteral("/tmp/wb-sink.bin"));
    QVERIFY(child<QCheckBox>(panel, "option_transfer.verify")->isChecked());
    QVERIFY(!child<QCheckBox>(panel, "option_transfer.create_seed")->isChecked());
    const TransferSettings t = TransferSettings::fromParams(panel.plan().params);
    QVERIFY(t.fileSink && t.unbuffered && t.verify && !t.createSeed);
}

void TestPlanEditor::shootoutPreset()
{
    PlanEditorPanel panel(nullptr);
    child<QSpinBox>(panel, "repetitionsSpin")->setValue(2);
    auto *button = child<QToolButton>(panel, "presetButton");
    QAction *action = button->menu()->findChild<QAction *>(QStringLiteral("shootoutPresetAction"));
    QVERIFY(action);
    action->trigger();
    TestPlan plan = panel.plan();
    QCOMPARE(plan.protocols,
             (QStringList{QStringLiteral("ftp-get"), QStringLiteral("ftp-put"), QStringLiteral("smb-read"),
                          QStringLiteral("smb-write")}));
    QCOMPARE(plan.frameSizes, (QList<int>{1500, 9000}));
    QCOMPARE(plan.repetitions, 5);
    QCOMPARE(plan.params.fileSizeBytes, 256LL * 1024 * 1024);
    QVERIFY(panel.problems().isEmpty());

    // x the chosen hosts: a Linux and a Windows server.
    Host linux_;
    linux_.name = QStringLiteral("fs-linux");
    linux_.address = QStringLiteral("127.0.0.1");
    Host windows;
    windows.name = QStringLiteral("fs-windows");
    windows.address = QStringLiteral("127.0.0.2");
    plan.hosts = {linux_, windows};
    QVERIFY(plan.validate().isEmpty());
    // The comparison's 4 x 2 x 5 x 2 = 80 runs, and first the reference streams: one tcp-send and one tcp-recv of
    // 3 s per host and frame size, 8 in all (the editor was given no hosts to ask, so both get them).
    QVERIFY(plan.referenceStreams);
    QCOMPARE(plan.referenceProtocols(), (QStringList{QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")}));
    QCOMPARE(plan.referenceRunCount(), 2 * 2 * 2);
    QCOMPARE(plan.runCount(), 4 * 2 * 5 * 2 + 8);
    const QList<RunSpec> runs = plan.expand();
    QCOMPARE(runs.size(), 88);
    QStringList reference;
    for (const RunSpec &r : runs.mid(0, 8)) {
        QVERIFY(TestPlan::isReference(r));
        QCOMPARE(r.params.durationMs, TestPlan::kReferenceMs);
        QCOMPARE(r.repetition, 1);
        reference << r.host.name + QLatin1Char(' ') + r.testKey();
    }
    QCOMPARE(reference,
             (QStringList{QStringLiteral("fs-linux tcp-send @ 1500"), QStringLiteral("fs-linux tcp-recv @ 1500"),
                          QStringLiteral("fs-windows tcp-send @ 1500"), QStringLiteral("fs-windows tcp-recv @ 1500"),
                          QStringLiteral("fs-linux tcp-send @ 9000"), QStringLiteral("fs-linux tcp-recv @ 9000"),
                          QStringLiteral("fs-windows tcp-send @ 9000"), QStringLiteral("fs-windows tcp-recv @ 9000")}));
    QSet<QString> cells;
    for (const RunSpec &r : runs.mid(8)) {
        QVERIFY(!TestPlan::isReference(r));
        QVERIFY(plan.protocols.contains(r.protocol));
        cells.insert(r.host.name + r.testKey() + QString::number(r.repetition));
    }
    QCOMPARE(cells.size(), 80); // every combination once

    // Their length is the user's: the spin box beside the check box, off with it, in the plan and its summary.
    auto *seconds = child<QDoubleSpinBox>(panel, "referenceSecondsSpin");
    QVERIFY(seconds->isEnabled());
    seconds->setValue(7.5);
    plan = panel.plan();
    QCOMPARE(plan.referenceMs, 7500);
    QVERIFY2(child<QLabel>(panel, "planSummaryLabel")
                 ->text()
                 .contains(QStringLiteral("reference stream(s) of 7.5 s per host")),
             qPrintable(child<QLabel>(panel, "planSummaryLabel")->text()));
    plan.hosts = {linux_};
    for (const RunSpec &r : plan.expand())
        QCOMPARE(r.params.durationMs, TestPlan::isReference(r) ? 7500 : plan.params.durationMs);
    child<QCheckBox>(panel, "referenceStreamsCheck")->setChecked(false);
    QVERIFY(!seconds->isEnabled());
}

void TestPlanEditor::referenceOnlyForHostsThatAnswer()
{
    // fs-linux's wirebenchd port answers (a listener here), fs-windows' does not (a port just closed), the built-in
    // loopback host always does: fs-windows gets no reference stream, and the editor says why.
    QTcpServer listening;
    QVERIFY(listening.listen(QHostAddress::LocalHost));
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 closedPort = closed.serverPort();
    closed.close();
    Host linux_ = test::namedHost(QStringLiteral("fs-linux"), QStringLiteral("127.0.0.1"), QStringLiteral("Linux"));
    linux_.port = listening.serverPort();
    Host windows
        = test::namedHost(QStringLiteral("fs-windows"), QStringLiteral("127.0.0.1"), QStringLiteral("Windows"));
    windows.port = closedPort;
    Host loopback;
    loopback.name = QStringLiteral("This computer (loopback)");
    loopback.embedded = true;

    PlanEditorPanel panel(nullptr);
    panel.applyShootoutPreset();
    ReferenceStreamBox *box = panel.referenceStreams();
    QVERIFY(child<QCheckBox>(panel, "referenceStreamsCheck")->isChecked());
    panel.setHosts({linux_, windows, loopback});
    QTRY_VERIFY_WITH_TIMEOUT(!box->isProbing(), 10000);
    TestPlan plan = panel.plan();
    QCOMPARE(plan.referenceSkipped.size(), 1);
    const ReferenceSkip &skip = plan.referenceSkipped.first();
    QCOMPARE(skip.name, QStringLiteral("fs-windows"));
    QCOMPARE(skip.reason,
             QStringLiteral("its wirebenchd port %1 does not answer (Connection refused)").arg(closedPort));
    const QString said = child<QLabel>(panel, "referenceStreamsLabel")->text();
    QVERIFY2(said.contains(QStringLiteral("No reference stream for fs-windows: its wirebenchd port %1 does not answer "
                                          "(Connection refused)")
                               .arg(closedPort)),
             qPrintable(said));
    QVERIFY2(!said.contains(QStringLiteral("fs-linux")), qPrintable(said));
    // The plan as the window runs it: fs-linux and the loopback host get 2 x 2 reference runs each, fs-windows none.
    loopback.address = QStringLiteral("127.0.0.1");
    plan.hosts = {linux_, windows, loopback};
    QCOMPARE(plan.referenceRunCount(), 8);
    QStringList got;
    for (const RunSpec &r : plan.expand())
        if (TestPlan::isReference(r))
            got << r.host.name;
    QCOMPARE(got.count(QStringLiteral("fs-linux")), 4);
    QCOMPARE(got.count(QStringLiteral("This computer (loopback)")), 4);
    QCOMPARE(got.count(QStringLiteral("fs-windows")), 0);
    // Unticked, nothing is added and nothing is said.
    child<QCheckBox>(panel, "referenceStreamsCheck")->setChecked(false);
    QVERIFY(!panel.plan().referenceStreams);
    QVERIFY(!child<QLabel>(panel, "referenceStreamsLabel")->isVisibleTo(&panel));
}

void TestPlanEditor::netperfMenuPreset()
{
    PlanEditorPanel panel(nullptr);
    QAction *action = child<QToolButton>(panel, "presetButton")
                          ->menu()
                          ->findChild<QAction *>(QStringLiteral("netperfPresetAction"));
    QVERIFY(action);
    action->trigger();
    const TestPlan plan = panel.plan();
    QCOMPARE(plan.protocols, QStringList{QStringLiteral("tcp-send")});
    QCOMPARE(plan.params.messageSize, 1472);
    QCOMPARE(plan.params.sendBufferBytes, 32 * 1024);
    QCOMPARE(plan.params.recvBufferBytes, 64 * 1024);
    QCOMPARE(plan.params.durationMs, 10000);
    QCOMPARE(child<QComboBox>(panel, "messagePresetCombo")->currentText(), QStringLiteral("1472 B (netperf -m 1472)"));
    QVERIFY(child<QSpinBox>(panel, "recvBufferSpin")->isEnabled());
}

void TestPlanEditor::screenshot()
{
    // With WIREBENCH_SCREENSHOT_DIR set, the editor with the shoot-out preset is saved as a PNG for a look.
    PlanEditorPanel panel(nullptr);
    panel.applyShootoutPreset();
    panel.resize(430, panel.sizeHint().height());
    panel.show();
    QVERIFY(child<QGroupBox>(panel, "transferBox")->isVisible());
    const QPixmap shot = panel.grab();
    QVERIFY(!shot.isNull());
    const QString dir = qEnvironmentVariable("WIREBENCH_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(shot.save(dir + QStringLiteral("/plan-editor.png")));
}

QTEST_MAIN(TestPlanEditor)
#include "TestPlanEditor.moc"
