#include "Auth.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace wb::auth {

QByteArray randomBytes(int n)
{
    QByteArray out(n, Qt::Uninitialized);
    auto *words = reinterpret_cast<quint32 *>(out.data());
    const int whole = n / 4;
    QRandomGenerator::system()->fillRange(words, whole);
    for (int i = whole * 4; i < n; ++i)
        out[i] = char(QRandomGenerator::system()->generate() & 0xff);
    return out;
}

QString generateKey()
{
    return QString::fromLatin1(randomBytes(kKeyBytes).toBase64());
}

namespace {

QByteArray proof(const char *label, const QString &key, const QByteArray &serverNonce, const QByteArray &clientNonce)
{
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, key.trimmed().toUtf8());
    mac.addData(label, qsizetype(std::strlen(label)));
    mac.addData("\n", 1);
    mac.addData(serverNonce);
    mac.addData(clientNonce);
    return mac.result();
}

} // namespace

QByteArray clientProof(const QString &key, const QByteArray &serverNonce, const QByteArray &clientNonce)
{
    return proof("wirebench client v2", key, serverNonce, clientNonce);
}

QByteArray serverProof(const QString &key, const QByteArray &serverNonce, const QByteArray &clientNonce)
{
    return proof("wirebenchd server v2", key, serverNonce, clientNonce);
}

bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

ClientHelloCheck checkClientHello(const QJsonObject &message, const QString &key, const QByteArray &serverNonce,
                                  const QString &serverSoftware)
{
    ClientHelloCheck c;
    c.code = QStringLiteral("bad-message");
    if (message.value(QLatin1String("type")).toString() != QLatin1String(control::kHello)) {
        c.error = QStringLiteral("expected a \"hello\" message, got \"%1\"").arg(control::quotedType(message));
        return c;
    }
    if (!control::Hello::fromJson(message, &c.hello, &c.error))
        return c;
    if (c.hello.version != control::kProtocolVersion) {
        c.verdict = ClientHelloCheck::Verdict::Version;
        c.code = QStringLiteral("version");
        c.error = QStringLiteral("client speaks control protocol version %1, this wirebenchd (%2) speaks version %3: "
                                 "use matching Wirebench versions")
                      .arg(c.hello.version)
                      .arg(serverSoftware)
                      .arg(control::kProtocolVersion);
        return c;
    }
    c.clientNonce = c.hello.nonce;
    if (key.trimmed().isEmpty()) { // open mode
        c.verdict = ClientHelloCheck::Verdict::Ok;
        c.code.clear();
        return c;
    }
    c.code = QStringLiteral("auth");
    if (c.hello.mac.isEmpty()) {
        c.verdict = ClientHelloCheck::Verdict::NoKey;
        c.error = QStringLiteral("this wirebenchd requires a key: set it in the host's settings or use --key");
        return c;
    }
    if (c.clientNonce.size() < 16 || !sameBytes(c.hello.mac, clientProof(key, serverNonce, c.clientNonce))) {
        c.verdict = ClientHelloCheck::Verdict::WrongKey;
        c.error = QStringLiteral("authentication failed: wrong key");
        return c;
    }
    c.verdict = ClientHelloCheck::Verdict::Ok;
    c.code.clear();
    return c;
}

QString defaultKeyFilePath()
{
    const QString state = qEnvironmentVariable("STATE_DIRECTORY").section(QLatin1Char(':'), 0, 0);
    if (!state.isEmpty())
        return state + QStringLiteral("/wirebenchd.key");
    if (::geteuid() == 0)
        return QStringLiteral("/var/lib/wirebench/wirebenchd.key");
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/wirebenchd.key");
}

bool loadOrCreateKeyFile(const QString &path, QString *key, bool *created, QString *error)
{
    *created = false;
    QFile file(path);
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read the key file %1: %2").arg(path, file.errorString());
            return false;
        }
        const QString text = QString::fromUtf8(file.read(4096)).trimmed();
        if (text.isEmpty()) {
            *error = QStringLiteral("the key file %1 is empty: delete it to get a new key").arg(path);
            return false;
        }
        if (QFileInfo(path).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther)) {
            *error = QStringLiteral("the key file %1 is readable by other users: chmod 600 it").arg(path);
            return false;
        }
        *key = text;
        return true;
    }
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create the folder %1 for the key file: choose another with --key-file").arg(dir);
        return false;
    }
    const QString fresh = generateKey();
    const mode_t old = ::umask(077);
    const bool opened = file.open(QIODevice::WriteOnly | QIODevice::NewOnly);
    ::umask(old);
    if (!opened) {
        *error = QStringLiteral("cannot create the key file %1: %2").arg(path, file.errorString());
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(fresh.toUtf8() + '\n') < 0 || !file.flush()) {
        *error = QStringLiteral("cannot write the key file %1: %2").arg(path, file.errorString());
        file.remove();
        return false;
    }
    *key = fresh;
    *created = true;
    return true;
}

} // namespace wb::auth
