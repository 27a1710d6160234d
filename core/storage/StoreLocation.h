#pragma once

#include <QString>

namespace wb {

/// Where the result store lives: an SQLite file on this computer, or a database on a PostgreSQL server named by
/// `postgresql://USER@HOST[:PORT]/DB` (or `postgres://`). A password is never part of the text (a command line
/// is seen by every user of the computer): libpq takes it from PGPASSWORD or ~/.pgpass, the window from its
/// keychain (setPassword()).
class StoreLocation
{
public:
    enum class Kind { SQLite, PostgreSQL };
    static constexpr int kDefaultPort = 5432;

    /// A file path (empty: the user's default store) or a postgresql:// URL; false with a one-line reason for a
    /// URL that names no host or database, carries a password, or is not one.
    static bool parse(const QString &text, StoreLocation *out, QString *error);
    static StoreLocation file(const QString &path);
    static StoreLocation server(const QString &host, int port, const QString &database, const QString &user);
    /// True when `text` is meant as a server (starts with postgresql:// or postgres://).
    static bool isServerUrl(const QString &text);

    Kind kind() const { return m_kind; }
    bool isServer() const { return m_kind == Kind::PostgreSQL; }
    QString path() const { return m_path; }
    QString host() const { return m_host; }
    int port() const { return m_port; }
    QString database() const { return m_database; }
    QString user() const { return m_user; }
    QString password() const { return m_password; }
    void setPassword(const QString &password) { m_password = password; }
    /// What messages name: the file's path, or `postgresql://USER@HOST:PORT/DB` (never the password).
    QString display() const;

private:
    Kind m_kind = Kind::SQLite;
    QString m_path;
    QString m_host;
    int m_port = kDefaultPort;
    QString m_database;
    QString m_user;
    QString m_password;
};

} // namespace wb
