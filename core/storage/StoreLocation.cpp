#include "StoreLocation.h"

#include <QUrl>

namespace wb {

bool StoreLocation::isServerUrl(const QString &text)
{
    const QString t = text.trimmed();
    return t.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
        || t.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

StoreLocation StoreLocation::file(const QString &path)
{
    StoreLocation l;
    l.m_path = path;
    return l;
}

StoreLocation StoreLocation::server(const QString &host, int port, const QString &database, const QString &user)
{
    StoreLocation l;
    l.m_kind = Kind::PostgreSQL;
    l.m_host = host;
    l.m_port = port > 0 ? port : kDefaultPort;
    l.m_database = database;
    l.m_user = user;
    return l;
}

bool StoreLocation::parse(const QString &text, StoreLocation *out, QString *error)
{
    if (!isServerUrl(text)) {
        *out = file(text);
        return true;
    }
    const QString example = QStringLiteral("write it as postgresql://USER@HOST[:PORT]/DATABASE, e.g. "
                                           "postgresql://bench@db.example.org/wirebench");
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid()) {
        *error = QStringLiteral("\"%1\" is not a store address (%2); %3").arg(text, url.errorString(), example);
        return false;
    }
    if (!url.password().isEmpty()) {
        *error = QStringLiteral("the store address carries a password, which every user of this computer can read "
                                "on a command line; remove it and put it in PGPASSWORD or ~/.pgpass "
                                "(HOST:PORT:DATABASE:USER:PASSWORD, mode 0600)");
        return false;
    }
    const QString database = url.path().mid(1);
    if (url.host().isEmpty() || database.isEmpty() || database.contains(QLatin1Char('/'))) {
        *error = QStringLiteral("\"%1\" names no %2; %3")
                     .arg(text, url.host().isEmpty() ? QStringLiteral("server") : QStringLiteral("database"), example);
        return false;
    }
    if (!url.query().isEmpty() || !url.fragment().isEmpty()) {
        *error = QStringLiteral("\"%1\" has options after the database, which Wirebench does not take; %2")
                     .arg(text, example);
        return false;
    }
    *out = server(url.host(), url.port(kDefaultPort), database, url.userName());
    return true;
}

QString StoreLocation::display() const
{
    if (!isServer())
        return m_path;
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setHost(m_host);
    url.setPort(m_port);
    url.setUserName(m_user);
    url.setPath(QLatin1Char('/') + m_database);
    return url.toString();
}

} // namespace wb
