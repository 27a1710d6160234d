#include "SmbIdentityProbe.h"

#include "IdentityProbeSocket.h"
#include "WireBytes.h"

#include <QRandomGenerator>
#include <QRegularExpression>

#include <libsmbclient.h>

#include <cstring>
#include <cerrno>

namespace wb {

namespace {

using wire::u16;
using wire::u32;

const QString NtlmSource = QStringLiteral("SMB NTLMSSP version");
const QString CommentSource = QStringLiteral("SMB server string (IPC$ comment)");

constexpr quint16 kNegotiate = 0;
constexpr quint16 kSessionSetup = 1;
constexpr quint32 kStatusOk = 0;
constexpr quint32 kStatusMoreProcessing = 0xC0000016;
constexpr int kHeaderBytes = 64;
// SMB 3.1.1 needs negotiate contexts; the challenge carries the same version with 3.0.2.
constexpr quint16 kDialects[] = {0x0202, 0x0210, 0x0300, 0x0302};

/// The 64-byte SMB2 header ([MS-SMB2] 2.2.1.2) of a request.
QByteArray header(quint16 command, quint64 messageId)
{
    QByteArray h("\xfeSMB", 4);
    wire::putLe<quint16>(h, kHeaderBytes);
    wire::putLe<quint16>(h, messageId == 0 ? 0 : 1); // CreditCharge
    wire::putLe<quint32>(h, 0);                      // Status
    wire::putLe<quint16>(h, command);
    wire::putLe<quint16>(h, 31); // CreditRequest
    wire::putLe<quint32>(h, 0);  // Flags
    wire::putLe<quint32>(h, 0);  // NextCommand
    wire::putLe<quint64>(h, messageId);
    wire::putLe<quint32>(h, 0xfeff); // Reserved (ProcessId)
    wire::putLe<quint32>(h, 0);      // TreeId
    wire::putLe<quint64>(h, 0);      // SessionId
    h.append(16, '\0'); // Signature
    return h;
}

/// Direct TCP transport: a zero byte and a 24-bit big-endian length before each message.
QByteArray frame(const QByteArray &message)
{
    const quint32 n = quint32(message.size());
    QByteArray f;
    f.append('\0').append(char((n >> 16) & 0xff)).append(char((n >> 8) & 0xff)).append(char(n & 0xff));
    return f + message;
}

QByteArray negotiateRequest()
{
    QByteArray m = header(kNegotiate, 0);
    wire::putLe<quint16>(m, 36);                        // StructureSize
    wire::putLe<quint16>(m, quint16(std::size(kDialects)));
    wire::putLe<quint16>(m, 1);                         // SecurityMode: signing enabled
    wire::putLe<quint16>(m, 0);
    wire::putLe<quint32>(m, 0);                         // Capabilities
    for (int i = 0; i < 4; ++i)
        wire::putLe<quint32>(m, QRandomGenerator::global()->generate()); // ClientGuid
    wire::putLe<quint64>(m, 0);                         // ClientStartTime
    for (quint16 d : kDialects)
        wire::putLe<quint16>(m, d);
    return m;
}

QByteArray sessionSetupRequest(const QByteArray &token)
{
    QByteArray m = header(kSessionSetup, 1);
    wire::putLe<quint16>(m, 25); // StructureSize
    m.append('\0');       // Flags
    m.append(char(1));    // SecurityMode: signing enabled
    wire::putLe<quint32>(m, 0);          // Capabilities
    wire::putLe<quint32>(m, 0);          // Channel
    wire::putLe<quint16>(m, kHeaderBytes + 24); // SecurityBufferOffset
    wire::putLe<quint16>(m, quint16(token.size()));
    wire::putLe<quint64>(m, 0);          // PreviousSessionId
    return m + token;
}

QString ntStatusText(quint32 status)
{
    switch (status) {
    case 0xC0000022: return QStringLiteral("STATUS_ACCESS_DENIED");
    case 0xC000000D: return QStringLiteral("STATUS_INVALID_PARAMETER");
    case 0xC00000BB: return QStringLiteral("STATUS_NOT_SUPPORTED");
    case 0xC000006D: return QStringLiteral("STATUS_LOGON_FAILURE");
    default: return QStringLiteral("NT status 0x%1").arg(status, 8, 16, QLatin1Char('0'));
    }
}

/// One SMB2 exchange on an open connection: the whole reply message (without the 4-byte transport header).
bool exchange(IdentityProbeSocket &socket, const QByteArray &request, const QString &what, QByteArray *reply,
              QString *error)
{
    if (!socket.write(frame(request))) {
        *error = socket.error();
        return false;
    }
    QByteArray in;
    if (!socket.readAtLeast(&in, 4, what)) {
        *error = socket.error();
        return false;
    }
    const qsizetype length = (qsizetype(quint8(in.at(1))) << 16) | (qsizetype(quint8(in.at(2))) << 8) | quint8(in.at(3));
    if (in.at(0) != 0 || length > 1024 * 1024) {
        *error = socket.failureLine(QStringLiteral("answer is not SMB over TCP: is this port an SMB server?"));
        return false;
    }
    if (!socket.readAtLeast(&in, 4 + length, what)) {
        *error = socket.error();
        return false;
    }
    *reply = in.mid(4, length);
    if (reply->startsWith(QByteArray("\xffSMB", 4))) {
        *error = socket.failureLine(QStringLiteral("server answered with SMB1 only (no SMB2): the NTLMSSP version cannot be read "
                                                   "this way; the server string below may still tell"));
        return false;
    }
    if (reply->size() < kHeaderBytes + 8 || !reply->startsWith(QByteArray("\xfeSMB", 4))) {
        *error = socket.failureLine(QStringLiteral("sent a malformed SMB2 message as its %1").arg(what));
        return false;
    }
    return true;
}

/// NEGOTIATE then SESSION_SETUP with token on a fresh connection; the security blob of the answer.
bool askChallenge(const Host &host, int port, int timeoutMs, const QByteArray &token, QByteArray *blob, QString *error,
                  bool *refused)
{
    *refused = false;
    IdentityProbeSocket socket(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
    if (!socket.connect()) {
        *error = socket.error();
        return false;
    }
    QByteArray reply;
    if (!exchange(socket, negotiateRequest(), QStringLiteral("NEGOTIATE answer"), &reply, error))
        return false;
    if (const quint32 status = u32(reply, 8); status != kStatusOk) {
        *error = socket.failureLine(QStringLiteral("server refused SMB 2.0.2-3.0.2 (%1): it may allow only SMB 3.1.1 or SMB1")
                                        .arg(ntStatusText(status)));
        return false;
    }
    if (!exchange(socket, sessionSetupRequest(token), QStringLiteral("SESSION_SETUP answer"), &reply, error))
        return false;
    const quint32 status = u32(reply, 8);
    if (status != kStatusMoreProcessing && status != kStatusOk) {
        *refused = true;
        *error = socket.failureLine(QStringLiteral("server refused the NTLMSSP NEGOTIATE (%1)").arg(ntStatusText(status)));
        return false;
    }
    const quint16 offset = u16(reply, kHeaderBytes + 4);
    const quint16 length = u16(reply, kHeaderBytes + 6);
    if (offset + length > reply.size()) {
        *error = socket.failureLine(QStringLiteral("SESSION_SETUP answer's security buffer lies outside the message"));
        return false;
    }
    *blob = reply.mid(offset, length);
    socket.close(); // no authentication: the challenge is all we came for
    return true;
}

/// libsmbclient asks for credentials through a callback; the context carries them as user data.
struct Credentials
{
    QByteArray user;
    QByteArray password;
    QByteArray domain;
};

void copyField(char *dst, int len, const QByteArray &value)
{
    if (len <= 0)
        return;
    const int n = qMin(len - 1, int(value.size()));
    std::memcpy(dst, value.constData(), size_t(n));
    dst[n] = 0;
}

void authCallback(SMBCCTX *ctx, const char *, const char *, char *wg, int wglen, char *un, int unlen, char *pw, int pwlen)
{
    const auto *c = static_cast<const Credentials *>(smbc_getOptionUserData(ctx));
    if (!c)
        return;
    if (!c->domain.isEmpty())
        copyField(wg, wglen, c->domain);
    copyField(un, unlen, c->user);
    copyField(pw, pwlen, c->password);
}

} // namespace

int SmbIdentityProbe::portOf(const Host &host)
{
    const int port = host.options.value(QStringLiteral("smb.port"), 445).toInt();
    return port > 0 && port <= 65535 ? port : 445;
}

ServerEvidence SmbIdentityProbe::ntlmssp(const Host &host, int timeoutMs, NtlmChallenge *challenge, Framing framing)
{
    const int port = portOf(host);
    const QByteArray raw = NtlmChallenge::negotiateMessage();
    QByteArray blob;
    QString error;
    bool refused = framing == Framing::Spnego;
    QString used = QStringLiteral("raw NTLMSSP");
    if (framing == Framing::Spnego || !askChallenge(host, port, timeoutMs, raw, &blob, &error, &refused)) {
        if (!refused)
            return ServerEvidence::failure(NtlmSource, error);
        used = QStringLiteral("NTLMSSP in SPNEGO");
        if (!askChallenge(host, port, timeoutMs, NtlmChallenge::spnegoNegTokenInit(raw), &blob, &error, &refused))
            return ServerEvidence::failure(NtlmSource, error);
    }
    NtlmChallenge c;
    if (!NtlmChallenge::find(blob, &c, &error)) {
        IdentityProbeSocket where(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
        return ServerEvidence::failure(NtlmSource, where.failureLine(error + QStringLiteral(": the server may not offer NTLM")));
    }
    if (challenge)
        *challenge = c;
    ServerEvidence e;
    e.source = NtlmSource;
    e.said = c.describe() + QStringLiteral(" [%1]").arg(used);
    if (c.hasVersion) {
        e.suggests = NtlmChallenge::labelForVersion(c.major, c.minor, c.build);
        e.rank = c.build == 0 ? 60 : 80; // a Windows build names the release; build 0 only says "Samba"
    }
    return e;
}

QString SmbIdentityProbe::serverStringOf(const QString &ipcComment)
{
    static const QRegularExpression ipc(QStringLiteral("^IPC Service \\((.*)\\)$"));
    const QRegularExpressionMatch m = ipc.match(ipcComment.trimmed());
    return m.hasMatch() ? m.captured(1).trimmed() : ipcComment.trimmed();
}

QString SmbIdentityProbe::labelForIpcComment(const QString &ipcComment, int *rank)
{
    int dummy = 0;
    int &r = rank ? *rank : dummy;
    const QString text = serverStringOf(ipcComment);
    static const QRegularExpression sambaVersion(QStringLiteral("Samba \\d[\\w.+~-]*"));
    if (const QRegularExpressionMatch m = sambaVersion.match(text); m.hasMatch()) {
        r = 70;
        return m.captured(0); // "Samba 4.17.12-Debian": the default "server string = Samba %v"
    }
    if (text.contains(QLatin1String("Samba"), Qt::CaseInsensitive)) {
        r = 50;
        return QStringLiteral("Samba (Linux/Unix)");
    }
    if (text.compare(QLatin1String("Remote IPC"), Qt::CaseInsensitive) == 0) {
        r = 10;
        return QStringLiteral("Windows");
    }
    r = 0;
    return {};
}

ServerEvidence SmbIdentityProbe::serverString(const Host &host, int timeoutMs)
{
    const int port = portOf(host);
    IdentityProbeSocket where(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
    Credentials credentials;
    credentials.user = host.options.value(QStringLiteral("smb.user")).toString().toUtf8();
    credentials.password = host.options.value(QStringLiteral("smb.password")).toString().toUtf8();
    credentials.domain = host.options.value(QStringLiteral("smb.domain")).toString().toUtf8();
    const QString who = credentials.user.isEmpty() ? QStringLiteral("anonymously")
                                                   : QStringLiteral("as \"%1\"").arg(QString::fromUtf8(credentials.user));

    SMBCCTX *ctx = smbc_new_context();
    if (!ctx)
        return ServerEvidence::failure(CommentSource, where.failureLine(QStringLiteral("client could not start (libsmbclient)")));
    smbc_setDebug(ctx, 0);
    smbc_setOptionDebugToStderr(ctx, true);
    smbc_setOptionUserData(ctx, &credentials);
    smbc_setFunctionAuthDataWithContext(ctx, authCallback);
    smbc_setOptionUseKerberos(ctx, false);
    smbc_setOptionFallbackAfterKerberos(ctx, true);
    smbc_setOptionNoAutoAnonymousLogin(ctx, !credentials.user.isEmpty()); // with a user: no silent guest fallback
    smbc_setTimeout(ctx, timeoutMs);
    smbc_setPort(ctx, uint16_t(port));
    // As the SMB driver: SMB1 only when the host allows it (Windows 2003 and older speak nothing else).
    smbc_setOptionProtocols(ctx, host.options.value(QStringLiteral("smb.allow_smb1"), false).toBool() ? "NT1" : "SMB2_02",
                            "SMB3");
    if (!smbc_init_context(ctx)) {
        smbc_free_context(ctx, 1);
        return ServerEvidence::failure(CommentSource, where.failureLine(QStringLiteral("client could not start (libsmbclient)")));
    }
    QString address = host.address.trimmed();
    if (address.contains(QLatin1Char(':')) && !address.startsWith(QLatin1Char('[')))
        address = QLatin1Char('[') + address + QLatin1Char(']');
    const QByteArray url = "smb://" + address.toUtf8() + '/';

    ServerEvidence e;
    e.source = CommentSource;
    errno = 0;
    SMBCFILE *dir = smbc_getFunctionOpendir(ctx)(ctx, url.constData());
    if (!dir) {
        const int err = errno;
        const QString why = QString::fromLocal8Bit(std::strerror(err));
        if (err == ECONNREFUSED)
            e.error = where.failureLine(QStringLiteral("connection refused: is the server running and listening on port %1?").arg(port));
        else if (err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH)
            e.error = where.failureLine(QStringLiteral("no answer (%1): check the address and the firewall (TCP port %2)").arg(why).arg(port));
        else if (err == EACCES || err == EPERM)
            e.error = where.failureLine(QStringLiteral("share list refused %1 (%2): give the host an SMB user and password").arg(who, why));
        else
            e.error = where.failureLine(QStringLiteral("could not list the shares %1 (%2): check the SMB user and password").arg(who, why));
    } else {
        bool found = false;
        while (const smbc_dirent *d = smbc_getFunctionReaddir(ctx)(ctx, dir)) {
            if (d->smbc_type == SMBC_IPC_SHARE || qstrcmp(d->name, "IPC$") == 0) {
                e.said = QString::fromUtf8(d->comment ? d->comment : "");
                e.suggests = labelForIpcComment(e.said, &e.rank);
                found = true;
                break;
            }
        }
        smbc_getFunctionClosedir(ctx)(ctx, dir);
        if (!found)
            e.error = where.failureLine(QStringLiteral("share list %1 has no IPC$ share, so no server string").arg(who));
    }
    smbc_free_context(ctx, 1);
    return e;
}

SmbIdentityProbe::Result SmbIdentityProbe::probe(const Host &host, int timeoutMs)
{
    Result r;
    NtlmChallenge challenge;
    const ServerEvidence ntlm = ntlmssp(host, timeoutMs, &challenge);
    const ServerEvidence comment = serverString(host, timeoutMs);
    r.evidence = {ntlm, comment};
    QString name;
    QStringList sources;
    if (!comment.failed() && !comment.said.isEmpty() && comment.rank >= 50) {
        name = serverStringOf(comment.said); // Samba's own words
        sources << comment.source;
    } else if (!ntlm.suggests.isEmpty()) {
        name = ntlm.suggests;
    } else if (!comment.suggests.isEmpty()) {
        name = comment.suggests;
        sources << comment.source;
    }
    if (!ntlm.failed() && challenge.hasVersion) {
        name += (name.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("(NTLMSSP %1)").arg(challenge.versionText());
        sources << ntlm.source;
    }
    r.serverOs = name;
    r.source = sources.join(QStringLiteral(" and "));
    return r;
}

} // namespace wb
