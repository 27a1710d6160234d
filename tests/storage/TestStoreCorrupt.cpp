#include "storage/ResultStore.h"
#include "StoreTestData.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

/// A store file that is not ours, is damaged or is too new: open() says so in one line, leaves every byte as it
/// was and the app goes on without a store.
class TestStoreCorrupt : public QObject
{
    Q_OBJECT

private slots:
    void garbageFile();
    void damagedDatabase();
    void truncatedDatabase();
    void newerSchema();
    void folderInsteadOfFile();
    void emptyFileIsANewStore();

private:
    static QByteArray digest(const QString &path);
    static QString makeStore(const QTemporaryDir &dir, int runs);
    static void expectRefused(const QString &path, const QString &expectedWords);
};

QByteArray TestStoreCorrupt::digest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QByteArray();
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

QString TestStoreCorrupt::makeStore(const QTemporaryDir &dir, int runs)
{
    const QString path = dir.filePath(QStringLiteral("results.sqlite"));
    ResultStore store;
    if (!store.open(path))
        return QString();
    const TestPlan plan = wbtest::plan();
    const qint64 id = store.beginSession(plan);
    for (int i = 0; i < runs; ++i) {
        RunSpec spec = plan.expand().at(i % plan.runCount());
        spec.index = i;
        store.addRun(id, wbtest::run(spec, 1000, 100));
    }
    store.endSession(id, SessionState::Finished);
    return path; // closing the last connection checkpoints the WAL into the file
}

void TestStoreCorrupt::expectRefused(const QString &path, const QString &expectedWords)
{
    const QByteArray before = digest(path);
    const QStringList filesBefore = QFileInfo(path).dir().entryList(QDir::Files);

    ResultStore store;
    QString error;
    QVERIFY(!store.open(path, &error));
    qInfo("%s", qPrintable(error));
    QVERIFY(!store.isOpen());
    QVERIFY2(error.contains(expectedWords), qPrintable(error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error)); // names the file
    QVERIFY(!error.contains(QLatin1Char('\n')));                                 // one line
    QCOMPARE(store.lastError(), error);

    // The app goes on without a store: every call fails cleanly.
    QString later;
    QCOMPARE(store.beginSession(wbtest::plan(), &later), 0);
    QVERIFY(!later.isEmpty());
    QVERIFY(store.sessions().isEmpty());

    QCOMPARE(digest(path), before);
    QCOMPARE(QFileInfo(path).dir().entryList(QDir::Files), filesBefore); // no -wal, -shm or lock left behind
}

void TestStoreCorrupt::garbageFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("results.sqlite"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray junk("This is a shopping list, not a database.\n");
    for (int i = 0; i < 5000; ++i)
        junk.append(char((i * 7919) & 0xff));
    f.write(junk);
    f.close();
    expectRefused(path, QStringLiteral("not an SQLite database"));
}

void TestStoreCorrupt::damagedDatabase()
{
    QTemporaryDir dir;
    const QString path = makeStore(dir, 40);
    QVERIFY(!path.isEmpty());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    const qint64 size = f.size();
    QVERIFY2(size > 16 * 4096, qPrintable(QString::number(size)));
    // Scribble over a few pages in the middle, header left intact: an SQLite file with broken b-trees.
    for (qint64 page : {3, 5, 8, 11}) {
        f.seek(page * 4096);
        f.write(QByteArray(4096, char(0xA5)));
    }
    f.close();
    expectRefused(path, QStringLiteral("damaged"));
}

void TestStoreCorrupt::truncatedDatabase()
{
    QTemporaryDir dir;
    const QString path = makeStore(dir, 40);
    QVERIFY(!path.isEmpty());
    QFile f(path);
    QVERIFY(f.resize(f.size() / 2));
    expectRefused(path, QStringLiteral("damaged"));
}

void TestStoreCorrupt::newerSchema()
{
    QTemporaryDir dir;
    const QString path = makeStore(dir, 2);
    QVERIFY(!path.isEmpty());
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        raw.setDatabaseName(path);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 99")));
        q = QSqlQuery();
        raw.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    QCOMPARE(ResultStore::fileSchemaVersion(path), 99);
    expectRefused(path, QStringLiteral("newer Wirebench"));
}

void TestStoreCorrupt::folderInsteadOfFile()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("results.sqlite")));
    ResultStore store;
    QString error;
    QVERIFY(!store.open(dir.filePath(QStringLiteral("results.sqlite")), &error));
    QVERIFY2(error.contains(QStringLiteral("folder")), qPrintable(error));
}

void TestStoreCorrupt::emptyFileIsANewStore()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("results.sqlite"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    ResultStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QVERIFY(store.beginSession(wbtest::plan()) > 0);
}

QTEST_GUILESS_MAIN(TestStoreCorrupt)
#include "TestStoreCorrupt.moc"
