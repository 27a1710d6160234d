#include "Smb1SessionSetup.h"

#include "NtStatus.h"
#include "NtlmChallenge.h"
#include "WireBytes.h"

#include <QRegularExpression>
#include <QStringList>

namespace wb {

namespace {

using wire::u16;
using wire::u32;

constexpr quint8 kFlagsCaseless = 0x18; // CASE_INSENSITIVE | CANONICALIZED_PATHS, as every client sends
constexpr quint16 kFlags2 = Smb1SessionSetup::kFlags2Unicode | Smb1SessionSetup::kFlags2NtStatus
    | Smb1SessionSetup::kFlags2ExtendedSecurity | Smb1SessionSetup::kFlags2LongNames;
constexpr quint32 kCapUnicode = 0x04;
constexpr quint32 kCapNtSmbs = 0x10;
constexpr quint32 kCapStatus32 = 0x40;
constexpr int kNegotiateWords = 17; // NT LM 0.12 answer ([MS-SMB] 2.2.4.5.2)
constexpr int kSetupRequestWords = 12;
constexpr int kSetupAnswerWords = 4; // extended security: AndX (4 bytes), Action, SecurityBlobLength

/// The 32-byte SMB1 header ([MS-CIFS] 2.2.3.1) of a request.
QByteArray header(quint8 command, quint16 mid)
{
    QByteArray h("\xffSMB", 4);
    h.append(char(command));
    wire::putLe<quint32>(h, 0); // Status
    h.append(char(kFlagsCaseless));
    wire::putLe<quint16>(h, kFlags2);
    wire::putLe<quint16>(h, 0);      // PIDHigh
    h.append(8, '\0');               // SecurityFeatures
    wire::putLe<quint16>(h, 0);      // Reserved
    wire::putLe<quint16>(h, 0);      // TID
    wire::putLe<quint16>(h, 0xfeff); // PIDLow
    wire::putLe<quint16>(h, 0);      // UID
    wire::putLe<quint16>(h, mid);
    return h;
}

QByteArray utf16z(const QString &s)
{
    QByteArray b;
    for (QChar c : s)
        wire::putLe<quint16>(b, c.unicode());
    wire::putLe<quint16>(b, 0);
    return b;
}

/// A NUL-terminated string at *at, not past end; a missing terminator ends the string at end. Moves *at past it.
QString takeString(const QByteArray &m, qsizetype *at, qsizetype end, bool unicode)
{
    QString s;
    if (unicode) {
        while (*at + 2 <= end) {
            const quint16 c = u16(m, *at);
            *at += 2;
            if (c == 0)
                return s;
            s.append(QChar(c));
        }
        *at = end;
        return s;
    }
    while (*at < end) {
        const char c = m.at((*at)++);
        if (c == 0)
            return s;
        s.append(QLatin1Char(c));
    }
    return s;
}

/// An SMB1 message with the expected command: the common checks of both answers.
bool checkHeader(const QByteArray &m, quint8 command, const QString &what, QString *error)
{
    if (m.size() < Smb1SessionSetup::kHeaderBytes + 1 || !m.startsWith(QByteArray("\xffSMB", 4))) {
        *error = QStringLiteral("server sent a malformed SMB1 message (%1 bytes) as its %2").arg(m.size()).arg(what);
        return false;
    }
    if (quint8(m.at(4)) != command) {
        *error = QStringLiteral("server answered SMB1 command 0x%1 where its %2 was expected")
                     .arg(quint8(m.at(4)), 2, 16, QLatin1Char('0'))
                     .arg(what);
        return false;
    }
    return true;
}

/// Status as text: NT status when Flags2 says so, else the DOS error class and code.
QString statusOf(const QByteArray &m)
{
    if (u16(m, 10) & Smb1SessionSetup::kFlags2NtStatus)
        return ntStatusText(u32(m, 5));
    return QStringLiteral("DOS error class %1 code %2").arg(quint8(m.at(5))).arg(u16(m, 7));
}

} // namespace

QByteArray Smb1SessionSetup::negotiateRequest()
{
    const QByteArray dialects = QByteArray("\x02NT LM 0.12", 11) + '\0';
    QByteArray m = header(kNegotiate, 1);
    m.append('\0'); // WordCount
    wire::putLe<quint16>(m, quint16(dialects.size()));
    return m + dialects;
}

bool Smb1SessionSetup::parseNegotiate(const QByteArray &message, Negotiated *out, QString *error)
{
    const QString what = QStringLiteral("SMB1 NEGOTIATE answer");
    if (!checkHeader(message, kNegotiate, what, error))
        return false;
    if (u32(message, 5) != 0) {
        *error = QStringLiteral("server refused the SMB1 NEGOTIATE (%1)").arg(statusOf(message));
        return false;
    }
    const int words = quint8(message.at(kHeaderBytes));
    if (message.size() < kHeaderBytes + 1 + 2 * words) {
        *error = QStringLiteral("server sent an %1 cut short (%2 bytes, %3 parameter words)")
                     .arg(what)
                     .arg(message.size())
                     .arg(words);
        return false;
    }
    const qsizetype w = kHeaderBytes + 1;
    if (words >= 1 && u16(message, w) == 0xffff) {
        *error = QStringLiteral("server refused SMB1 (dialect NT LM 0.12): it may allow only SMB2 or later");
        return false;
    }
    if (words != kNegotiateWords) {
        *error = QStringLiteral("server chose a pre-NT SMB1 dialect (%1 parameter words in its NEGOTIATE answer)")
                     .arg(words);
        return false;
    }
    Negotiated n;
    n.maxBufferSize = u32(message, w + 7);
    n.sessionKey = u32(message, w + 15);
    n.capabilities = u32(message, w + 19);
    n.extendedSecurity = (n.capabilities & kCapExtendedSecurity) != 0;
    *out = n;
    return true;
}

QByteArray Smb1SessionSetup::sessionSetupRequest(const QByteArray &token, const Negotiated &negotiated)
{
    QByteArray m = header(kSessionSetupAndX, 2);
    m.append(char(kSetupRequestWords));
    m.append(char(0xff));           // AndXCommand: none
    m.append('\0');                 // AndXReserved
    wire::putLe<quint16>(m, 0);     // AndXOffset
    wire::putLe<quint16>(m, 16644); // MaxBufferSize (what Windows clients send)
    wire::putLe<quint16>(m, 2);     // MaxMpxCount
    // VcNumber 0 would tell a Windows server to drop every other connection from this address, runs included.
    wire::putLe<quint16>(m, 1);
    wire::putLe<quint32>(m, negotiated.sessionKey);
    wire::putLe<quint16>(m, quint16(token.size()));
    wire::putLe<quint32>(m, 0); // Reserved
    wire::putLe<quint32>(m, kCapExtendedSecurity | kCapStatus32 | kCapNtSmbs | kCapUnicode);
    QByteArray bytes = token;
    // Unicode strings start on an even offset from the start of the SMB header (ByteCount's 2 bytes included).
    if ((m.size() + 2 + bytes.size()) % 2)
        bytes.append('\0');
    bytes += utf16z(QStringLiteral("Unix")) + utf16z(QStringLiteral("Wirebench"));
    wire::putLe<quint16>(m, quint16(bytes.size()));
    return m + bytes;
}

bool Smb1SessionSetup::parse(const QByteArray &message, Smb1SessionSetup *out, QString *error)
{
    const QString what = QStringLiteral("SMB1 SESSION_SETUP_ANDX answer");
    if (!checkHeader(message, kSessionSetupAndX, what, error))
        return false;
    const quint32 status = u32(message, 5);
    const quint16 flags2 = u16(message, 10);
    if (status != kStatusMoreProcessing && status != 0) {
        *error = QStringLiteral("server refused the NTLMSSP NEGOTIATE in SMB1 SESSION_SETUP_ANDX (%1)")
                     .arg(statusOf(message));
        return false;
    }
    const int words = quint8(message.at(kHeaderBytes));
    const qsizetype byteCountAt = kHeaderBytes + 1 + 2 * words;
    if (words != kSetupAnswerWords) {
        *error = QStringLiteral("server sent an %1 with %2 parameter words where 4 (extended security) were expected")
                     .arg(what)
                     .arg(words);
        return false;
    }
    if (message.size() < byteCountAt + 2) {
        *error = QStringLiteral("server sent an %1 cut short (%2 bytes, shorter than its %3 parameter words)")
                     .arg(what)
                     .arg(message.size())
                     .arg(words);
        return false;
    }
    const quint16 blobLength = u16(message, kHeaderBytes + 1 + 6);
    const quint16 byteCount = u16(message, byteCountAt);
    const qsizetype start = byteCountAt + 2;
    if (byteCount > message.size() - start) {
        *error = QStringLiteral("server sent an %1 cut short: ByteCount says %2 bytes, %3 arrived")
                     .arg(what)
                     .arg(byteCount)
                     .arg(message.size() - start);
        return false;
    }
    if (blobLength > byteCount) {
        *error = QStringLiteral("server sent an %1 whose security blob (%2 bytes) runs past its ByteCount (%3)")
                     .arg(what)
                     .arg(blobLength)
                     .arg(byteCount);
        return false;
    }
    Smb1SessionSetup r;
    r.status = status;
    r.securityBlob = message.mid(start, blobLength);
    const qsizetype end = start + byteCount;
    qsizetype at = start + blobLength;
    const bool unicode = flags2 & kFlags2Unicode;
    // The pad that aligns Unicode strings is a zero byte; a server that leaves it out starts with a character.
    if (unicode && at % 2 && at < end && message.at(at) == 0)
        ++at;
    r.nativeOs = takeString(message, &at, end, unicode);
    r.nativeLanMan = takeString(message, &at, end, unicode);
    r.primaryDomain = takeString(message, &at, end, unicode);
    *out = r;
    return true;
}

QString Smb1SessionSetup::describe() const
{
    QStringList parts{QStringLiteral("NativeOS \"%1\"").arg(nativeOs),
                      QStringLiteral("NativeLanMan \"%1\"").arg(nativeLanMan)};
    if (!primaryDomain.isEmpty())
        parts << QStringLiteral("domain %1").arg(primaryDomain);
    return parts.join(QStringLiteral("; "));
}

QString Smb1SessionSetup::labelFor(const QString &nativeOs, const QString &nativeLanMan, int *rank)
{
    int dummy = 0;
    int &r = rank ? *rank : dummy;
    const QString os = nativeOs.trimmed();
    const QString lanMan = nativeLanMan.trimmed();
    // Samba's NativeLanMan is "Samba %v" whatever its configuration; its NativeOS is "Unix" or, since 4.x,
    // "Windows 6.1".
    static const QRegularExpression sambaVersion(QStringLiteral("Samba \\d[\\w.+~-]*"));
    if (const QRegularExpressionMatch m = sambaVersion.match(lanMan); m.hasMatch()) {
        r = 70;
        return m.captured(0) + QStringLiteral(" (Linux/Unix)");
    }
    if (lanMan.contains(QLatin1String("Samba"), Qt::CaseInsensitive)
        || os.contains(QLatin1String("Samba"), Qt::CaseInsensitive)) {
        r = 50;
        return QStringLiteral("Samba (Linux/Unix)");
    }
    if (os.startsWith(QLatin1String("Windows"), Qt::CaseInsensitive)) {
        // "Windows Server 2003 3790 Service Pack 2", "Windows 2002 Service Pack 2 2600" (XP): the name, then the build
        // (last, or before the service pack); a year in the name ("2003") is not the build.
        static const QRegularExpression build(
            QStringLiteral("^(.*?)(?:\\s+Service Pack \\d+)?\\s+\\d{4,5}(?:\\s+Service Pack \\d+)?$"),
            QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression yearOwner(QStringLiteral("\\b(?:Windows|Server)$"),
                                                  QRegularExpression::CaseInsensitiveOption);
        if (const QRegularExpressionMatch m = build.match(os); m.hasMatch() && !m.captured(1).contains(yearOwner)) {
            r = 80; // as specific as the NTLMSSP build
            return m.captured(1).trimmed();
        }
        // "Windows 5.0" (Windows 2000), "Windows 5.1" (XP): only major.minor.
        static const QRegularExpression version(QStringLiteral("^Windows (\\d+)\\.(\\d+)$"),
                                                QRegularExpression::CaseInsensitiveOption);
        if (const QRegularExpressionMatch m = version.match(os); m.hasMatch()) {
            r = 70;
            return NtlmChallenge::labelForVersion(m.captured(1).toInt(), m.captured(2).toInt(), -1);
        }
        r = 50;
        return os;
    }
    if (os.compare(QLatin1String("Unix"), Qt::CaseInsensitive) == 0
        || os.startsWith(QLatin1String("Linux"), Qt::CaseInsensitive)) {
        r = 30;
        return QStringLiteral("Linux/Unix");
    }
    r = 0;
    return {};
}

} // namespace wb
