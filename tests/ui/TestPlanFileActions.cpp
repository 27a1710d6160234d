// File > Save plan and Open plan: the plan editor's settings and the ticked hosts go to a plan file and come back,
// on this computer and on another one that does not know the hosts yet.
#include "CredentialStore.h"
#include "FileDialogAnswer.h"
#include "HostListPanel.h"
#include "MainWindow.h"
#include "PlanEditorPanel.h"
#include "PlanFileActions.h"
#include "RunControlPanel.h"
#include "settings/Config.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace wb;

namespace {

Host labHost(const QString &name, quint16 port)
{
    Host h;
    h.name = name;
    h.address = QStringLiteral("127.0.0.1");
    h.port = port;
    h.osLabel = QStringLiteral("Linux");
    return h;
}

TestPlan editedPlan(const PlanEditorPanel &editor)
{
    TestPlan plan = editor.plan();
    plan.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    plan.frameSizes = {1500, 9000};
    plan.repetitions = 3;
    plan.params.durationMs = 2000;
    plan.params.messageSize = 1472;
    plan.params.sendBufferBytes = 32768;
    plan.params.recvBufferBytes = 65536;
    return plan;
}

QStringList ticked(const HostListPanel &panel)
{
    QStringList names;
    for (const Host &h : panel.selectedHosts())
        names << h.displayName();
    return names;
}

} // namespace

class TestPlanFileActions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { qputenv("WIREBENCH_NO_KEYCHAIN", "1"); }
    void saveAndOpenOnThisComputer();
    void openOnAnotherComputerAddsHosts();
    void badFileSaysWhy();
    void throughTheFileMenu();
};

void TestPlanFileActions::saveAndOpenOnThisComputer()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    HostListPanel hosts(&config);
    PlanEditorPanel editor(&config);
    QWidget parent;
    PlanFileActions actions(&hosts, &editor, &parent);

    hosts.addHost(labHost(QStringLiteral("lab-a"), 5301));
    hosts.credentials()->setSecret(QStringLiteral("lab-a"), QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
    const TestPlan saved = editedPlan(editor);
    editor.setPlan(saved);
    QCOMPARE(ticked(hosts), (QStringList{QStringLiteral("This computer (loopback)"), QStringLiteral("lab-a")}));

    const QString path = dir.filePath(QStringLiteral("shootout.wbplan.json"));
    QString message;
    QVERIFY2(actions.save(path, &message), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("2 host(s)"))
                 && message.contains(QStringLiteral("passwords not included")),
             qPrintable(message));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("hunter2"));

    // The user changes everything, then opens the plan again.
    TestPlan other = saved;
    other.repetitions = 9;
    other.protocols = {QStringLiteral("tcp-send")};
    editor.setPlan(other);
    hosts.setSelected(1, false);
    hosts.addHost(labHost(QStringLiteral("lab-b"), 5302));
    QVERIFY2(actions.open(path, &message), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("2 host(s)")) && message.contains(QStringLiteral("24 run(s)")),
             qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("added")), qPrintable(message));

    const TestPlan back = editor.plan();
    QCOMPARE(back.protocols, saved.protocols);
    QCOMPARE(back.frameSizes, saved.frameSizes);
    QCOMPARE(back.repetitions, 3);
    QCOMPARE(back.params.durationMs, 2000);
    QCOMPARE(back.params.messageSize, 1472);
    QCOMPARE(back.params.sendBufferBytes, 32768);
    QCOMPARE(back.params.recvBufferBytes, 65536);
    // Exactly the plan's hosts are ticked; lab-b stays in the list, unticked; lab-a keeps its password.
    QCOMPARE(ticked(hosts), (QStringList{QStringLiteral("This computer (loopback)"), QStringLiteral("lab-a")}));
    QCOMPARE(hosts.entries().size(), 3);
    QCOMPARE(hosts.credentials()->secret(QStringLiteral("lab-a"), QStringLiteral("ftp.password")),
             QStringLiteral("hunter2"));
}

void TestPlanFileActions::openOnAnotherComputerAddsHosts()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shared.wbplan.json"));
    {
        Config config(dir.filePath(QStringLiteral("mine.ini")));
        HostListPanel hosts(&config);
        PlanEditorPanel editor(&config);
        PlanFileActions actions(&hosts, &editor, nullptr);
        hosts.addHost(labHost(QStringLiteral("lab-a"), 5301));
        hosts.setSelected(0, false); // only lab-a
        editor.setPlan(editedPlan(editor));
        QString message;
        QVERIFY2(actions.save(path, &message), qPrintable(message));
    }
    Config config(dir.filePath(QStringLiteral("theirs.ini")));
    HostListPanel hosts(&config);
    PlanEditorPanel editor(&config);
    PlanFileActions actions(&hosts, &editor, nullptr);
    QString message;
    QVERIFY2(actions.open(path, &message), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("added to the list: lab-a")), qPrintable(message));
    QCOMPARE(ticked(hosts), QStringList{QStringLiteral("lab-a")});
    QCOMPARE(hosts.entries().size(), 2); // their loopback host, unticked, and lab-a
    QCOMPARE(hosts.selectedHosts().first().port, quint16(5301));
    // Kept by Config like any host the user adds.
    QCOMPARE(config.hosts().size(), 2);
}

void TestPlanFileActions::badFileSaysWhy()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    HostListPanel hosts(&config);
    PlanEditorPanel editor(&config);
    PlanFileActions actions(&hosts, &editor, nullptr);
    const TestPlan before = editor.plan();
    const QString path = dir.filePath(QStringLiteral("results.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"results": []})");
    f.close();
    QString message;
    QVERIFY(!actions.open(path, &message));
    QVERIFY2(message.contains(path) && message.contains(QStringLiteral("not a Wirebench plan")), qPrintable(message));
    QCOMPARE(editor.plan().protocols, before.protocols); // nothing changed
    QVERIFY(!actions.save(QStringLiteral("/nonexistent-dir/p.wbplan.json"), &message));
    QVERIFY2(message.contains(QStringLiteral("/nonexistent-dir/p.wbplan.json")), qPrintable(message));
}

void TestPlanFileActions::throughTheFileMenu()
{
    QTemporaryDir dir;
    Config config(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow window(&config);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.planEditor()->setPlan(editedPlan(*window.planEditor()));

    const QString path = dir.filePath(QStringLiteral("menu.wbplan.json"));
    answerFileDialog(path);
    window.findChild<QAction *>(QStringLiteral("savePlanAction"))->trigger();
    QVERIFY(QFile::exists(path));
    auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    QVERIFY(status);
    QVERIFY2(status->text().contains(QStringLiteral("Plan saved to")), qPrintable(status->text()));

    TestPlan other = window.planEditor()->plan();
    other.repetitions = 7;
    window.planEditor()->setPlan(other);
    answerFileDialog(path);
    window.findChild<QAction *>(QStringLiteral("openPlanAction"))->trigger();
    QCOMPARE(window.planEditor()->plan().repetitions, 3);
    QCOMPARE(window.planEditor()->plan().frameSizes, (QList<int>{1500, 9000}));
}

QTEST_MAIN(TestPlanFileActions)
#include "TestPlanFileActions.moc"
