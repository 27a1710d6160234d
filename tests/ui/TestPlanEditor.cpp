#include "PlanEditorPanel.h"
#include "settings/Config.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
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
    void problemsReported();
    void persisted();

private:
    template<typename T> T *child(QWidget &w, const char *name)
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

QTEST_MAIN(TestPlanEditor)
#include "TestPlanEditor.moc"
