#include "SmbIdentityProbe.h"

#include "IdentityProbeSocket.h"
#include "NtStatus.h"
#include "ServiceBanner.h"
#include "WireBytes.h"
#include "protocols/smb/SmbClientLibrary.h"

#include <QRandomGenerator>
#include <QRegularExpression>

#include <cstring>
#include <cerrno>

namespace wb {

namespace {

using wire::u16;
using wire::u32;

const QString NtlmSource = QStringLiteral("SMB NTLMSSP version");
const QString CommentSource = QStringLiteral("SMB server string (IPC$ comment)");
const QString NativeSource = QStringLiteral("SMB1 NativeOS / NativeLanMan");

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
    h.append(16, '\0');              // Signature
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
    wire::putLe<quint16>(m, 36); // StructureSize
    wire::putLe<quint16>(m, quint16(std::size(kDialects)));
    wire::putLe<quint16>(m, 1); // SecurityMode: signing enabled
    wire::putLe<quint16>(m, 0);
    wire::putLe<quint32>(m, 0); // Capabilities
    for (int i = 0; i < 4; ++i)
        wire::putLe<quint32>(m, QRandomGenerator::global()->generate()); // ClientGuid
    wire::putLe<quint64>(m, 0);                                          // ClientStartTime
    for (quint16 d : kDialects)
        wire::putLe<quint16>(m, d);
    return m;
}

QByteArray sessionSetupRequest(const QByteArray &token)
{
    QByteArray m = header(kSessionSetup, 1);
    wire::putLe<quint16>(m, 25);                // StructureSize
    m.append('\0');                             // Flags
    m.append(char(1));                          // SecurityMode: signing enabled
    wire::putLe<quint32>(m, 0);                 // Capabilities
    wire::putLe<quint32>(m, 0);                 // Channel
    wire::putLe<quint16>(m, kHeaderBytes + 24); // SecurityBufferOffset
    wire::putLe<quint16>(m, quint16(token.size()));
    wire::putLe<quint64>(m, 0); // PreviousSessionId
    return m + token;
}

/// How one attempt at the challenge ended.
enum class Outcome {
    Ok,
    Failed,       ///< *error says why; no point trying another way
    TokenRefused, ///< the server refused this framing of the NTLMSSP NEGOTIATE: another may pass
    NoSmb2,       ///< the server closed, refused the SMB2 NEGOTIATE or answered in SMB1: try SMB1
    NotSmb,       ///< another service answered (an FTP banner, wirebenchd's hello, ...)
};

/// The failure line of an answer that is not SMB; *foreign (when asked for) gets what answered.
QString notSmb(const IdentityProbeSocket &socket, const QByteArray &answer, QString *foreign)
{
    const QString what = ServiceBanner::describe(answer);
    if (foreign)
        *foreign = what;
    return socket.failureLine(QStringLiteral("answer is not SMB: port %1 answered with %2: is this port an SMB server?")
                                  .arg(socket.port())
                                  .arg(what));
}

/// One request and its answer on an open connection: the whole answer (without the 4-byte transport header).
/// An answer that is not SMB sets *foreign (when given) to what it is (ServiceBanner) and returns false.
bool exchange(IdentityProbeSocket &socket, const QByteArray &request, const QString &what, QByteArray *reply,
              QString *error, QString *foreign = nullptr)
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
    const qsizetype length
        = (qsizetype(quint8(in.at(1))) << 16) | (qsizetype(quint8(in.at(2))) << 8) | quint8(in.at(3));
    if (in.at(0) != 0 || length > 1024 * 1024) {
        // A service that speaks first (FTP, SSH, SMTP) has sent a line: take the rest of it to name the service.
        while (!in.contains('\n') && in.size() < 256 && socket.readMore(&in, what)) {
        }
        *error = notSmb(socket, in, foreign);
        return false;
    }
    if (!socket.readAtLeast(&in, 4 + length, what)) {
        *error = socket.error();
        return false;
    }
    // Framed like SMB but another service's (wirebenchd's hello); SMB-framed garbage is the SMB parsers' to name.
    if (length >= 4 && !ServiceBanner::isSmb(in) && ServiceBanner::kindOf(in) != ServiceBanner::Kind::Binary) {
        *error = notSmb(socket, in, foreign);
        return false;
    }
    *reply = in.mid(4, length);
    return true;
}

bool isSmb1(const QByteArray &message)
{
    return message.startsWith(QByteArray("\xffSMB", 4));
}

/// An SMB2 message of at least the header and a few bytes (false, with *error, otherwise).
bool wellFormedSmb2(const IdentityProbeSocket &socket, const QByteArray &reply, const QString &what, QString *error)
{
    if (reply.size() >= kHeaderBytes + 8 && reply.startsWith(QByteArray("\xfeSMB", 4)))
        return true;
    *error = socket.failureLine(QStringLiteral("sent a malformed SMB2 message as its %1").arg(what));
    return false;
}

/// The SMB2 NEGOTIATE on an open connection: Ok (the answer in *reply), NoSmb2 (the reason, without host and port,
/// in *error), NotSmb (what answered in *foreign) or Failed.
Outcome negotiateSmb2(IdentityProbeSocket &socket, QByteArray *reply, QString *error, QString *foreign = nullptr)
{
    QString other;
    if (!exchange(socket, negotiateRequest(), QStringLiteral("NEGOTIATE answer"), reply, error, &other)) {
        if (!other.isEmpty()) {
            if (foreign)
                *foreign = other;
            return Outcome::NotSmb;
        }
        if (!socket.closedByServer())
            return Outcome::Failed;
        *error = QStringLiteral("closed the connection on an SMB2 NEGOTIATE");
        return Outcome::NoSmb2;
    }
    if (isSmb1(*reply)) {
        *error = QStringLiteral("answered an SMB2 NEGOTIATE in SMB1");
        return Outcome::NoSmb2;
    }
    if (!wellFormedSmb2(socket, *reply, QStringLiteral("NEGOTIATE answer"), error))
        return Outcome::Failed;
    if (const quint32 status = u32(*reply, 8); status != kStatusOk) {
        *error = QStringLiteral("refused SMB 2.0.2-3.0.2 (%1); SMB 3.1.1 is not tried").arg(ntStatusText(status));
        return Outcome::NoSmb2;
    }
    return Outcome::Ok;
}

/// SMB2 NEGOTIATE then SESSION_SETUP with token on a fresh connection; the security blob of the answer.
/// NoSmb2 leaves the reason, without host and port, in *error.
Outcome askSmb2(const Host &host, int port, int timeoutMs, const QByteArray &token, QByteArray *blob, QString *error)
{
    IdentityProbeSocket socket(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
    if (!socket.connect()) {
        *error = socket.error();
        return Outcome::Failed;
    }
    QByteArray reply;
    if (const Outcome negotiated = negotiateSmb2(socket, &reply, error); negotiated != Outcome::Ok)
        return negotiated == Outcome::NotSmb ? Outcome::Failed : negotiated;
    if (!exchange(socket, sessionSetupRequest(token), QStringLiteral("SESSION_SETUP answer"), &reply, error))
        return Outcome::Failed;
    if (!wellFormedSmb2(socket, reply, QStringLiteral("SESSION_SETUP answer"), error))
        return Outcome::Failed;
    const quint32 status = u32(reply, 8);
    if (status != kStatusMoreProcessing && status != kStatusOk) {
        *error
            = socket.failureLine(QStringLiteral("server refused the NTLMSSP NEGOTIATE (%1)").arg(ntStatusText(status)));
        return Outcome::TokenRefused;
    }
    const quint16 offset = u16(reply, kHeaderBytes + 4);
    const quint16 length = u16(reply, kHeaderBytes + 6);
    if (offset + length > reply.size()) {
        *error = socket.failureLine(QStringLiteral("SESSION_SETUP answer's security buffer lies outside the message"));
        return Outcome::Failed;
    }
    *blob = reply.mid(offset, length);
    socket.close(); // no authentication: the challenge is all we came for
    return Outcome::Ok;
}

/// The SMB1 NEGOTIATE (NT LM 0.12) on an open connection: Ok, NotSmb (what answered in *foreign) or Failed.
Outcome negotiateSmb1(IdentityProbeSocket &socket, Smb1SessionSetup::Negotiated *negotiated, QString *error,
                      QString *foreign = nullptr)
{
    QByteArray reply;
    QString other;
    if (!exchange(socket, Smb1SessionSetup::negotiateRequest(), QStringLiteral("SMB1 NEGOTIATE answer"), &reply, error,
                  &other)) {
        if (foreign)
            *foreign = other;
        return other.isEmpty() ? Outcome::Failed : Outcome::NotSmb;
    }
    QString why;
    if (!Smb1SessionSetup::parseNegotiate(reply, negotiated, &why)) {
        *error = socket.failureLine(why);
        return Outcome::Failed;
    }
    return Outcome::Ok;
}

/// SMB1 NEGOTIATE (NT LM 0.12) then SESSION_SETUP_ANDX with token on a fresh connection.
Outcome askSmb1(const Host &host, int port, int timeoutMs, const QByteArray &token, Smb1SessionSetup *answer,
                QString *error)
{
    IdentityProbeSocket socket(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
    if (!socket.connect()) {
        *error = socket.error();
        return Outcome::Failed;
    }
    Smb1SessionSetup::Negotiated negotiated;
    if (negotiateSmb1(socket, &negotiated, error) != Outcome::Ok)
        return Outcome::Failed;
    QByteArray reply;
    QString why;
    if (!negotiated.extendedSecurity) {
        *error = socket.failureLine(QStringLiteral("server offers SMB1 without extended security, so no NTLMSSP "
                                                   "challenge and no NativeOS before a logon"));
        return Outcome::Failed;
    }
    if (!exchange(socket, Smb1SessionSetup::sessionSetupRequest(token, negotiated),
                  QStringLiteral("SMB1 SESSION_SETUP_ANDX answer"), &reply, error))
        return Outcome::Failed;
    socket.close(); // no authentication: the challenge and the strings are all we came for
    if (!Smb1SessionSetup::parse(reply, answer, &why)) {
        *error = socket.failureLine(why);
        const bool refused = reply.size() > 8 && isSmb1(reply) && u32(reply, 5) != 0
            && u32(reply, 5) != Smb1SessionSetup::kStatusMoreProcessing;
        return refused ? Outcome::TokenRefused : Outcome::Failed;
    }
    return Outcome::Ok;
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

void authCallback(SMBCCTX *ctx, const char *, const char *, char *wg, int wglen, char *un, int unlen, char *pw,
                  int pwlen)
{
    const auto *c = static_cast<const Credentials *>(smbc().getOptionUserData(ctx));
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

SmbIdentityProbe::Handshake SmbIdentityProbe::handshake(const Host &host, int timeoutMs, Framing framing,
                                                        Dialect dialect)
{
    const int port = portOf(host);
    IdentityProbeSocket where(host, quint16(port), QStringLiteral("SMB"), timeoutMs);
    const QByteArray raw = NtlmChallenge::negotiateMessage();
    QList<QPair<QString, QByteArray>> tokens;
    if (framing == Framing::RawThenSpnego)
        tokens.append({QStringLiteral("raw NTLMSSP"), raw});
    tokens.append({QStringLiteral("NTLMSSP in SPNEGO"), NtlmChallenge::spnegoNegTokenInit(raw)});

    Handshake h;
    h.viaSmb1 = dialect == Dialect::Smb1;
    QString noSmb2; // why SMB1 was tried, for its error line
    QByteArray blob;
    QString error;
    QString used;
    Outcome outcome = Outcome::Failed;
    for (const auto &[name, token] : std::as_const(tokens)) {
        used = name;
        if (!h.viaSmb1) {
            outcome = askSmb2(host, port, timeoutMs, token, &blob, &error);
            if (outcome == Outcome::NoSmb2) {
                noSmb2 = error;
                h.viaSmb1 = true;
            }
        }
        if (h.viaSmb1) {
            outcome = askSmb1(host, port, timeoutMs, token, &h.smb1, &error);
            blob = h.smb1.securityBlob;
        }
        if (outcome != Outcome::TokenRefused)
            break;
    }
    if (outcome != Outcome::Ok) {
        if (!noSmb2.isEmpty())
            error += QStringLiteral(" (no SMB2: it %1)").arg(noSmb2);
        h.ntlm = ServerEvidence::failure(NtlmSource, error);
        return h;
    }
    if (h.viaSmb1) {
        used += QStringLiteral(" over SMB1");
        h.native.source = NativeSource;
        h.native.said = h.smb1.describe();
        h.native.suggests = Smb1SessionSetup::labelFor(h.smb1.nativeOs, h.smb1.nativeLanMan, &h.native.rank);
    }
    NtlmChallenge c;
    if (!NtlmChallenge::find(blob, &c, &error)) {
        h.ntlm = ServerEvidence::failure(NtlmSource,
                                         where.failureLine(error + QStringLiteral(": the server may not offer NTLM")));
        return h;
    }
    h.challenge = c;
    h.ntlm.source = NtlmSource;
    h.ntlm.said = c.describe() + QStringLiteral(" [%1]").arg(used);
    if (c.hasVersion) {
        h.ntlm.suggests = NtlmChallenge::labelForVersion(c.major, c.minor, c.build);
        h.ntlm.rank = c.build == 0 ? 60 : 80; // a Windows build names the release; build 0 only says "Samba"
    }
    return h;
}

ServerEvidence SmbIdentityProbe::ntlmssp(const Host &host, int timeoutMs, NtlmChallenge *challenge, Framing framing)
{
    const Handshake h = handshake(host, timeoutMs, framing);
    if (challenge && !h.ntlm.failed())
        *challenge = h.challenge;
    return h.ntlm;
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
    const QString who = credentials.user.isEmpty()
        ? QStringLiteral("anonymously")
        : QStringLiteral("as \"%1\"").arg(QString::fromUtf8(credentials.user));

    SmbContextOptions options;
    options.userData = &credentials;
    options.auth = authCallback;
    options.port = port;
    options.timeoutMs = timeoutMs;
    options.allowSmb1 = allowsSmb1(host);
    options.noAnonymousFallback = !credentials.user.isEmpty(); // with a user: no silent guest fallback
    QString why;
    SMBCCTX *ctx = SmbClientLibrary::newContext(options, &why);
    if (!ctx)
        return ServerEvidence::failure(CommentSource,
                                       where.failureLine(QStringLiteral("client could not start: %1").arg(why)));
    QString address = host.address.trimmed();
    if (address.contains(QLatin1Char(':')) && !address.startsWith(QLatin1Char('[')))
        address = QLatin1Char('[') + address + QLatin1Char(']');
    const QByteArray url = "smb://" + address.toUtf8() + '/';

    ServerEvidence e;
    e.source = CommentSource;
    errno = 0;
    SMBCFILE *dir = smbc().getFunctionOpendir(ctx)(ctx, url.constData());
    if (!dir) {
        const int err = errno;
        const QString why = QString::fromLocal8Bit(std::strerror(err));
        if (err == ECONNREFUSED)
            e.error = where.failureLine(
                QStringLiteral("connection refused: is the server running and listening on port %1?").arg(port));
        else if (err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH)
            e.error = where.failureLine(
                QStringLiteral("no answer (%1): check the address and the firewall (TCP port %2)").arg(why).arg(port));
        else if (err == EACCES || err == EPERM)
            e.error = where.failureLine(
                QStringLiteral("share list refused %1 (%2): give the host an SMB user and password").arg(who, why));
        else
            e.error = where.failureLine(
                QStringLiteral("could not list the shares %1 (%2): check the SMB user and password").arg(who, why));
    } else {
        bool found = false;
        while (const smbc_dirent *d = smbc().getFunctionReaddir(ctx)(ctx, dir)) {
            if (d->smbc_type == SMBC_IPC_SHARE || qstrcmp(d->name, "IPC$") == 0) {
                e.said = QString::fromUtf8(d->comment ? d->comment : "");
                e.suggests = labelForIpcComment(e.said, &e.rank);
                found = true;
                break;
            }
        }
        smbc().getFunctionClosedir(ctx)(ctx, dir);
        if (!found)
            e.error
                = where.failureLine(QStringLiteral("share list %1 has no IPC$ share, so no server string").arg(who));
    }
    smbc().free_context(ctx, 1);
    return e;
}

SmbIdentityProbe::Result SmbIdentityProbe::probe(const Host &host, int timeoutMs)
{
    Result r;
    const Handshake h = handshake(host, timeoutMs);
    const ServerEvidence &ntlm = h.ntlm;
    const ServerEvidence &native = h.native;
    ServerEvidence comment;
    if (!h.native.source.isEmpty() && !allowsSmb1(host)) {
        // libsmbclient would offer SMB2 only and fail with a misleading "check the user and password".
        IdentityProbeSocket where(host, quint16(portOf(host)), QStringLiteral("SMB"), timeoutMs);
        comment = ServerEvidence::failure(
            CommentSource,
            where.failureLine(QStringLiteral("server speaks only SMB1 and the host does not allow it: turn on \"Allow "
                                             "SMB1 (NT1)\" to read the server string")));
    } else {
        comment = serverString(host, timeoutMs);
    }
    r.evidence = {ntlm};
    if (!native.source.isEmpty())
        r.evidence << native;
    r.evidence << comment;
    QString name;
    QStringList sources;
    if (!comment.failed() && !comment.said.isEmpty() && comment.rank >= 50) {
        name = serverStringOf(comment.said); // Samba's own words
        sources << comment.source;
    } else if (!native.failed() && !native.suggests.isEmpty()) {
        // Samba's version from NativeLanMan, or Windows' NativeOS ("Windows Server 2003 3790 Service Pack 2").
        static const QRegularExpression samba(QStringLiteral("Samba"), QRegularExpression::CaseInsensitiveOption);
        name = h.smb1.nativeLanMan.contains(samba) ? h.smb1.nativeLanMan.trimmed() : h.smb1.nativeOs.trimmed();
        sources << native.source;
    } else if (!ntlm.suggests.isEmpty()) {
        name = ntlm.suggests;
    } else if (!comment.suggests.isEmpty()) {
        name = comment.suggests;
        sources << comment.source;
    }
    if (!ntlm.failed() && h.challenge.hasVersion) {
        // A version no release has is labelled by it already ("Windows (NTLMSSP 255.255 build 65535)"): once is enough.
        const QString version = QStringLiteral("(NTLMSSP %1)").arg(h.challenge.versionText());
        if (!name.contains(version))
            name += (name.isEmpty() ? QString() : QStringLiteral(" ")) + version;
        sources << ntlm.source;
    }
    r.serverOs = name;
    r.source = sources.join(QStringLiteral(" and "));
    return r;
}

SmbIdentityProbe::Speaks SmbIdentityProbe::speaks(const Host &host, int timeoutMs, QString *said)
{
    const auto port = quint16(portOf(host));
    QString error;
    {
        IdentityProbeSocket socket(host, port, QStringLiteral("SMB"), timeoutMs);
        if (!socket.connect()) {
            *said = socket.error();
            return Speaks::Unknown;
        }
        QByteArray reply;
        switch (negotiateSmb2(socket, &reply, &error, said)) {
        case Outcome::Ok:
            return Speaks::Smb2;
        case Outcome::NotSmb:
            return Speaks::NotSmb;
        case Outcome::NoSmb2:
            break;
        default:
            *said = error;
            return Speaks::Unknown;
        }
    }
    // No SMB2 (an SMB 3.1.1-only server refuses 2.0.2-3.0.2 too): SMB1 only if it really answers in SMB1.
    const QString noSmb2 = error;
    IdentityProbeSocket socket(host, port, QStringLiteral("SMB"), timeoutMs);
    if (!socket.connect()) {
        *said = socket.error();
        return Speaks::Unknown;
    }
    Smb1SessionSetup::Negotiated negotiated;
    switch (negotiateSmb1(socket, &negotiated, &error, said)) {
    case Outcome::Ok:
        *said = noSmb2;
        return Speaks::Smb1Only;
    case Outcome::NotSmb:
        return Speaks::NotSmb;
    default:
        *said = QStringLiteral("%1 (no SMB2: it %2)").arg(error, noSmb2);
        return Speaks::Unknown;
    }
}

bool SmbIdentityProbe::allowsSmb1(const Host &host)
{
    return host.options.value(QStringLiteral("smb.allow_smb1"), false).toBool();
}

} // namespace wb
