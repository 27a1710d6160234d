#pragma once

#include "../protocols/FileServerFixture.h"
#include "responder/Responder.h"

#include <QString>

#include <memory>

namespace wb::test {

/// The real peers of the identity tests: vsftpd and smbd (FileServerFixture, needs root) and a Responder
/// (wirebenchd) on 127.0.0.1, which needs nothing.
class IdentityPeers
{
public:
    ~IdentityPeers() { stop(); }

    /// Starts the responder (false with *why if it cannot) and tries the file servers (see fileServersReady()).
    bool start(QString *why);
    /// Stops the file servers and what smbd left behind.
    void stop();

    bool fileServersReady() const { return m_ready; }
    QString whyNoFileServers() const { return m_why; }
    FileServerFixture &fixture() { return m_fixture; }
    quint16 responderPort() const { return m_responder ? m_responder->port() : 0; }

    /// A host named name on 127.0.0.1 whose wirebenchd, FTP and SMB ports are all port.
    static Host onePort(const QString &name, quint16 port)
    {
        Host host;
        host.name = name;
        host.address = QStringLiteral("127.0.0.1");
        host.port = port;
        host.options.insert(QStringLiteral("ftp.port"), port);
        host.options.insert(QStringLiteral("smb.port"), port);
        return host;
    }

private:
    FileServerFixture m_fixture;
    bool m_ready = false;
    bool m_stopped = false;
    QString m_why;
    std::unique_ptr<Responder> m_responder;
};

} // namespace wb::test
