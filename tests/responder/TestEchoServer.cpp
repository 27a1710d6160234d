// wirebenchd's latency echo (EchoServer, the "echo" answer of WirebenchdServer's handshake): a token only after the
// key's proof, answers only to datagrams with a valid token from the address it was given to, within the rate
// limit, and nothing for a wirebenchd with the echo off (as an older one).
#include "RawClient.h"

#include "responder/Responder.h"
#include "wire/Base64.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/EchoWire.h"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace wb;
using namespace wb::test;

namespace {

const QString kKey = QStringLiteral("echo-test-key");

/// A UDP socket bound to `from` (any 127/8 address is this machine's), sending to 127.0.0.1:port.
class Udp
{
public:
    Udp(const char *from, quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in self{};
        self.sin_family = AF_INET;
        ::inet_pton(AF_INET, from, &self.sin_addr);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&self), sizeof(self));
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
        ::connect(m_fd, reinterpret_cast<sockaddr *>(&to), sizeof(to));
    }
    ~Udp() { ::close(m_fd); }
    void send(const std::string &d) { QCOMPARE(::send(m_fd, d.data(), d.size(), 0), ssize_t(d.size())); }
    /// The answers that arrive within waitMs of the last one.
    QList<std::string> answers(int waitMs = 500)
    {
        QList<std::string> out;
        char buf[512];
        pollfd p{m_fd, POLLIN, 0};
        while (::poll(&p, 1, waitMs) > 0) {
            const ssize_t n = ::recv(m_fd, buf, sizeof(buf), 0);
            if (n > 0)
                out.append(std::string(buf, std::size_t(n)));
        }
        return out;
    }

private:
    int m_fd = -1;
};

std::unique_ptr<Responder> responder(const QString &key, bool echoOn = true)
{
    ResponderConfig c;
    c.address = QHostAddress::LocalHost;
    c.port = 0;
    c.key = key;
    c.echo = echoOn;
    auto r = std::make_unique<Responder>(c);
    return r;
}

/// The handshake of a client that wants the echo; key empty: no proof. The server's answer.
RawMessage askForEcho(quint16 port, const QString &key, std::string *serverNonce, std::string *clientNonce)
{
    RawClient c;
    if (!c.connectTo(port))
        return {};
    Hello theirs;
    std::string err;
    if (!Hello::fromJson(c.next(), &theirs, &err))
        return {};
    Hello mine = Hello::local("wirebench test");
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.want = echo::kWantEcho;
    if (!key.isEmpty())
        mine.mac = auth::clientProof(key.toStdString(), theirs.nonce, mine.nonce);
    c.send(mine.toJson());
    *serverNonce = theirs.nonce;
    *clientNonce = mine.nonce;
    return c.next();
}

echo::Grant grantOf(const RawMessage &m)
{
    echo::Grant g;
    std::string err;
    if (!echo::grantFromJson(m, &g, &err))
        qWarning("no grant: %s", err.c_str());
    return g;
}

} // namespace

class TestEchoServer : public QObject
{
    Q_OBJECT
private slots:
    void tokenAfterTheKeysProof();
    void answersOnlyValidTokens();
    void noTokenWithoutTheKey();
    void rateLimited();
    void echoOffIsAnOlderWirebenchd();
};

void TestEchoServer::tokenAfterTheKeysProof()
{
    auto r = responder(kKey);
    QVERIFY(r->start());
    std::string sn, cn;
    const RawMessage m = askForEcho(r->port(), kKey, &sn, &cn);
    QCOMPARE(typeOf(m), QStringLiteral("echo"));
    const echo::Grant g = grantOf(m);
    QCOMPARE(g.port, int(r->port())); // the control port's number, on UDP
    QCOMPARE(int(g.token.size()), echo::kTokenBytes);
    // The server proves the key as in welcome.
    QVERIFY(auth::sameBytes(g.mac, auth::serverProof(kKey.toStdString(), sn, cn)));
}

void TestEchoServer::answersOnlyValidTokens()
{
    auto r = responder(QString()); // open mode: a token for anyone the allow-list lets in
    QVERIFY(r->start());
    std::string sn, cn;
    const echo::Grant g = grantOf(askForEcho(r->port(), QString(), &sn, &cn));
    QVERIFY(g.port > 0);

    Udp right("127.0.0.1", quint16(g.port));
    right.send(echo::request(g, 7));
    const QList<std::string> a = right.answers();
    QCOMPARE(a.size(), 1);
    QCOMPARE(echo::parseAnswer(a.first()).value_or(0), quint64(7));
    QCOMPARE(a.first().size(), echo::request(g, 7).size()); // never larger than the request

    echo::Grant forged = g;
    forged.token[0] = char(forged.token[0] ^ 1);
    right.send(echo::request(forged, 8));
    echo::Grant later = g;
    later.expirySeconds += 1; // the expiry is under the HMAC: extending it breaks the token
    right.send(echo::request(later, 9));
    right.send(echo::answerTo(echo::request(g, 10))); // an answer is no request: two servers cannot bounce
    right.send("WBE1 short");
    QVERIFY(right.answers().isEmpty());

    Udp elsewhere("127.0.0.2", quint16(g.port)); // the token is bound to the address it was given to
    elsewhere.send(echo::request(g, 11));
    QVERIFY(elsewhere.answers().isEmpty());
}

void TestEchoServer::noTokenWithoutTheKey()
{
    auto r = responder(kKey);
    QVERIFY(r->start());
    std::string sn, cn;
    const RawMessage none = askForEcho(r->port(), QString(), &sn, &cn);
    QCOMPARE(typeOf(none), QStringLiteral("error"));
    QCOMPARE(none.value(QStringLiteral("code")).toString(), QStringLiteral("auth"));
    const RawMessage wrong = askForEcho(r->port(), QStringLiteral("not the key"), &sn, &cn);
    QCOMPARE(typeOf(wrong), QStringLiteral("error"));
}

void TestEchoServer::rateLimited()
{
    auto r = responder(QString());
    QVERIFY(r->start());
    std::string sn, cn;
    const echo::Grant g = grantOf(askForEcho(r->port(), QString(), &sn, &cn));
    Udp u("127.0.0.1", quint16(g.port));
    // 300 at once: a second's worth (50) at first, then what refills while they come and are read (the bound
    // follows the time this took, so a slow machine does not fail it).
    QElapsedTimer took;
    took.start();
    for (int i = 0; i < 300; ++i)
        u.send(echo::request(g, quint64(i)));
    const qsizetype answered = u.answers(300).size();
    const double allowed = echo::kMaxPerSecondPerClient * (1 + took.elapsed() / 1000.0) + 1;
    QVERIFY2(answered >= echo::kMaxPerSecondPerClient && answered <= allowed,
             qPrintable(QStringLiteral("%1 answered, %2 allowed").arg(answered).arg(allowed)));
}

void TestEchoServer::echoOffIsAnOlderWirebenchd()
{
    auto r = responder(QString(), false);
    QVERIFY(r->start());
    std::string sn, cn;
    // An older wirebenchd ignores "want" and welcomes the client to a test.
    QCOMPARE(typeOf(askForEcho(r->port(), QString(), &sn, &cn)), QStringLiteral("welcome"));
}

QTEST_GUILESS_MAIN(TestEchoServer)
#include "TestEchoServer.moc"
