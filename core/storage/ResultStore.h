#pragma once

#include "StoreLocation.h"
#include "StoreSchema.h"
#include "StoreTypes.h"
#include "model/RunResult.h"
#include "plan/TestPlan.h"

#include <QMutex>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <memory>

class QLockFile;

namespace wb {

class StoreConnections;

/// The result store: an SQLite file (QtSql, QSQLITE, WAL) or a database on a PostgreSQL server (QPSQL, shared
/// by a team: ServerStore) holding sessions with the computer that ran them, the hosts as they were, every run
/// with its samples. Each call commits at once, so a SIGKILL loses at most the run in flight; the ids are the
/// database's, so clients writing at once never share one.
///
/// Thread use: one ResultStore may be shared between threads; each thread gets its own connection
/// (StoreConnections). The layout and its migration are StoreSchema's, the session list's SQL SessionQuery's.
/// Concurrent writers wait up to 10 s. A store that could not be opened is simply closed: every call then fails with
/// lastError() and the app goes on without history.
class ResultStore
{
public:
    static constexpr int kSchemaVersion = StoreSchema::kVersion;

    ResultStore();
    ~ResultStore();
    ResultStore(const ResultStore &) = delete;
    ResultStore &operator=(const ResultStore &) = delete;

    /// The user's store, one file for the window and every wirebench-cli command: the GUI's
    /// `<AppDataLocation>/results.sqlite` whichever program asks (e.g.
    /// `$XDG_DATA_HOME/Wirebench/wirebench/results.sqlite`, `~/.local/share/...` when XDG_DATA_HOME is unset).
    static QString defaultPath();
    /// Where earlier builds of wirebench-cli kept a store of their own (`~/.local/share/wirebench-cli/results.sqlite`),
    /// which nothing else read; LegacyCliStore moves its sessions into the default store. Empty when unknown.
    static QString legacyCliPath();

    /// Opens (creating or migrating) the store at `path` (empty = defaultPath()). A file that is not an SQLite
    /// database, is damaged or was written by a newer Wirebench is left untouched and `false` is returned with a
    /// one-line reason. When this process is the only user of the file, sessions a crash left `running` are
    /// marked `interrupted` (see interruptedAtOpen()).
    /// `path` may also be `postgresql://USER@HOST[:PORT]/DB` (StoreLocation): the server's database is created
    /// or migrated the same way; one that cannot be reached fails with which server, what failed, what to try.
    bool open(const QString &path = QString(), QString *error = nullptr);
    /// The same for a location that may carry a password (the window's, from its keychain).
    bool open(const StoreLocation &location, QString *error = nullptr);
    void close();
    bool isOpen() const { return m_open; }
    /// The file's absolute path, or the server's `postgresql://USER@HOST:PORT/DB`.
    QString path() const { return m_path; }
    StoreLocation location() const { return m_location; }
    bool isServer() const;
    QString lastError() const;
    /// Sessions open() turned from running into interrupted.
    int interruptedAtOpen() const { return m_interruptedAtOpen; }
    /// The schema version of the file before open() migrated it (0 = new file).
    int versionAtOpen() const { return m_versionAtOpen; }
    /// Where open() copied an older-version file before migrating it (empty when nothing was migrated).
    QString backupPath() const { return m_backupPath; }

    /// Starts a session for `plan` (state running). Returns its id, or 0 on failure.
    qint64 beginSession(const TestPlan &plan, QString *error = nullptr);
    /// Stores one finished run with its samples in one transaction. Returns the run's id, or 0 on failure.
    qint64 addRun(qint64 sessionId, const RunResult &result, QString *error = nullptr);
    bool endSession(qint64 sessionId, SessionState state, QString *error = nullptr);
    /// The title History and `sessions` show beside the date ("Scheduled every 1h: nightly.wbplan.json").
    bool setSessionTitle(qint64 sessionId, const QString &title, QString *error = nullptr);
    /// Turns every `running` session into `interrupted`; returns how many (or -1 on failure).
    int markInterruptedSessions(QString *error = nullptr);
    /// A finished session holding `runs` (e.g. from Iperf3Import); the plan is derived from the runs.
    qint64 importRuns(const QString &title, const RunResultList &runs, QString *error = nullptr);

    /// Newest first.
    SessionInfoList sessions(const SessionFilter &filter = SessionFilter(), QString *error = nullptr) const;
    /// How many sessions the filter selects, whatever its limit; -1 with *error when the store cannot say.
    qint64 sessionCount(const SessionFilter &filter = SessionFilter(), QString *error = nullptr) const;
    /// What changes when any writer (this one, another process: a scheduled run, a second window) adds or deletes a
    /// session, adds a run or ends a session: a cheap look for a view to know when to read again. Empty when closed.
    QString changeMark() const;
    bool session(qint64 sessionId, SessionInfo *info, QString *error = nullptr) const;
    /// The runs of a session in the order they were stored, with samples. `runIds` receives the store's ids.
    RunResultList runs(qint64 sessionId, QString *error = nullptr, QList<qint64> *runIds = nullptr) const;
    /// The runs of the given protocols with status ok that started in [from, to), of any session, oldest first
    /// (SessionFindings compares a transfer with a TCP stream measured shortly before it).
    StoredRunList runsBetween(const QDateTime &from, const QDateTime &to, const QStringList &protocols,
                              QString *error = nullptr) const;
    bool deleteSession(qint64 sessionId, QString *error = nullptr);
    /// Resolves what a user typed (a session id, or a uuid or its unique prefix); 0 when none or ambiguous.
    qint64 findSession(const QString &idOrUuid, QString *error = nullptr) const;

    /// Reads `PRAGMA user_version` of a file without changing it; -1 when it cannot be read.
    static int fileSchemaVersion(const QString &path, QString *error = nullptr);

private:
    QSqlDatabase db() const;
    bool openFile(QString *error);
    bool openServer(QString *error);
    bool fail(QString *error, const QString &message) const;

    QString m_path;
    StoreLocation m_location;
    bool m_open = false;
    int m_interruptedAtOpen = 0;
    int m_versionAtOpen = 0;
    QString m_backupPath;
    std::unique_ptr<QLockFile> m_lock;
    std::unique_ptr<StoreConnections> m_connections; // one per thread
    mutable QMutex m_mutex;                          // guards m_lastError
    mutable QString m_lastError;
};

} // namespace wb
