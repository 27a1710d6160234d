// The icon reaches an executable through wirebench_resources without any Q_INIT_RESOURCE call.
#include <QFile>
#include <QTest>

class TestResources : public QObject
{
    Q_OBJECT
private slots:
    void iconIsCompiledIn_data();
    void iconIsCompiledIn();
};

void TestResources::iconIsCompiledIn_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("magic");
    const QByteArray png("\x89PNG\r\n\x1a\n", 8);
    QTest::newRow("svg") << QStringLiteral(":/icons/wirebench.svg") << QByteArray("<?xml");
    for (int size : {16, 32, 48, 64, 128, 256})
        QTest::newRow(qPrintable(QStringLiteral("png %1").arg(size)))
            << QStringLiteral(":/icons/wirebench-%1.png").arg(size) << png;
}

void TestResources::iconIsCompiledIn()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, magic);
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path + QStringLiteral(": ") + file.errorString()));
    const QByteArray data = file.readAll();
    QVERIFY(data.startsWith(magic));
    if (path.endsWith(QLatin1String(".svg")))
        QVERIFY(data.contains("<svg"));
}

QTEST_GUILESS_MAIN(TestResources)
#include "TestResources.moc"
