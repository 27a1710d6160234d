#pragma once
// A scripted SMB peer on 127.0.0.1 and the NTLMSSP CHALLENGE it answers with, built from the [MS-NLMP] 2.2.1.2
// layout: for what no real server here can say (a Windows build, a version no release has). TestServerIdentity
// and TestCliOsLabel use them.
#include "identity/NtlmChallenge.h"
#include "identity/WireBytes.h"

#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QPair>
#include <QString>

#include <functional>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::test {

inline QByteArray utf16le(const QString &s)
{
    QByteArray b;
    for (QChar c : s)
        wire::putLe<quint16>(b, c.unicode());
    return b;
}

struct ChallengeSpec
{
    quint8 major = 6;
    quint8 minor = 1;
    quint16 build = 0;
    QString target = QStringLiteral("WBTEST");
    QList<QPair<quint16, QString>> avPairs{{2, QStringLiteral("WBTEST")},
                                           {1, QStringLiteral("FS1")},
                                           {4, QStringLiteral("example.org")},
                                           {3, QStringLiteral("fs1.example.org")}};
    bool withVersion = true;
};

/// A CHALLENGE message laid out as [MS-NLMP] 2.2.1.2: fixed header, Version, then target name and target info.
inline QByteArray challengeMessage(const ChallengeSpec &spec)
{
    QByteArray info;
    for (const auto &[id, value] : spec.avPairs) {
        const QByteArray v = utf16le(value);
        wire::putLe<quint16>(info, id);
        wire::putLe<quint16>(info, quint16(v.size()));
        info += v;
    }
    wire::putLe<quint16>(info, 0); // MsvAvEOL
    wire::putLe<quint16>(info, 0);
    const QByteArray target = utf16le(spec.target);
    const quint32 payload = 56;
    QByteArray m("NTLMSSP\0", 8);
    wire::putLe<quint32>(m, 2);
    wire::putLe<quint16>(m, quint16(target.size()));
    wire::putLe<quint16>(m, quint16(target.size()));
    wire::putLe<quint32>(m, payload);
    wire::putLe<quint32>(m,
                         NtlmChallenge::kNegotiateUnicode | NtlmChallenge::kTargetInfo
                             | (spec.withVersion ? quint32(NtlmChallenge::kNegotiateVersion) : 0u));
    m += QByteArray::fromHex("0123456789abcdef"); // ServerChallenge
    m += QByteArray(8, '\0');                     // Reserved
    wire::putLe<quint16>(m, quint16(info.size()));
    wire::putLe<quint16>(m, quint16(info.size()));
    wire::putLe<quint32>(m, payload + quint32(target.size()));
    m.append(char(spec.major)).append(char(spec.minor));
    wire::putLe<quint16>(m, spec.build);
    m += QByteArray(3, '\0');
    m.append(char(15));
    Q_ASSERT(m.size() == int(payload));
    return m + target + info;
}

/// A scripted SMB server on 127.0.0.1: each request (without its 4-byte transport header) goes to the script, whose
/// answer is sent framed; an empty answer closes the connection. One connection at a time, as the probe makes them.
class CannedSmbPeer
{
public:
    using Script = std::function<QByteArray(const QByteArray &request)>;

    explicit CannedSmbPeer(Script script)
        : m_script(std::move(script))
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&a), len) == 0 && ::listen(m_listen, 4) == 0
            && ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len) == 0)
            m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~CannedSmbPeer()
    {
        ::shutdown(m_listen, SHUT_RDWR); // wakes accept()
        m_thread.join();
        ::close(m_listen);
    }
    quint16 port() const { return m_port; }
    QList<QByteArray> requests() const
    {
        QMutexLocker lock(&m_mutex);
        return m_requests;
    }

private:
    static bool readAll(int fd, char *to, size_t n)
    {
        for (size_t got = 0; got < n;) {
            const ssize_t r = ::read(fd, to + got, n - got);
            if (r <= 0)
                return false;
            got += size_t(r);
        }
        return true;
    }
    void serve()
    {
        for (;;) {
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                return;
            for (;;) {
                unsigned char head[4];
                if (!readAll(fd, reinterpret_cast<char *>(head), 4))
                    break;
                QByteArray request((head[1] << 16) | (head[2] << 8) | head[3], '\0');
                if (!readAll(fd, request.data(), size_t(request.size())))
                    break;
                {
                    QMutexLocker lock(&m_mutex);
                    m_requests << request;
                }
                const QByteArray answer = m_script(request);
                if (answer.isEmpty())
                    break;
                const quint32 n = quint32(answer.size());
                const QByteArray framed = QByteArray(1, '\0') + char(n >> 16) + char(n >> 8) + char(n) + answer;
                if (::write(fd, framed.constData(), size_t(framed.size())) != framed.size())
                    break;
            }
            ::close(fd);
        }
    }

    Script m_script;
    int m_listen = -1;
    quint16 m_port = 0;
    std::thread m_thread;
    mutable QMutex m_mutex;
    QList<QByteArray> m_requests;
};

} // namespace wb::test
