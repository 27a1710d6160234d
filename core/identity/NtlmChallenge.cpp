#include "NtlmChallenge.h"

#include "WireBytes.h"

#include <QStringList>

namespace wb {

namespace {

using wire::u16;
using wire::u32;

constexpr char kSignature[] = "NTLMSSP"; // with its terminating NUL: 8 bytes
constexpr int kSignatureBytes = 8;
constexpr int kChallengeHeaderBytes = 48; // up to and including TargetInfoFields
constexpr int kVersionOffset = 48;
constexpr int kVersionBytes = 8;

QString utf16le(const QByteArray &bytes)
{
    QString s(bytes.size() / 2, Qt::Uninitialized);
    for (qsizetype i = 0; i < s.size(); ++i)
        s[i] = QChar(u16(bytes, i * 2));
    return s;
}

/// A DER length (short form below 128, else 0x81/0x82 with one or two bytes).
QByteArray derLength(qsizetype n)
{
    QByteArray b;
    if (n < 0x80)
        b.append(char(n));
    else if (n <= 0xff)
        b.append(char(0x81)).append(char(n));
    else
        b.append(char(0x82)).append(char((n >> 8) & 0xff)).append(char(n & 0xff));
    return b;
}

QByteArray der(quint8 tag, const QByteArray &content)
{
    return QByteArray(1, char(tag)) + derLength(content.size()) + content;
}

} // namespace

QByteArray NtlmChallenge::negotiateMessage()
{
    QByteArray m(kSignature, kSignatureBytes);
    wire::putLe<quint32>(m, 1); // NEGOTIATE
    wire::putLe<quint32>(m,
                         kNegotiateUnicode | kRequestTarget | kNegotiateNtlm | kAlwaysSign | kExtendedSessionSecurity
                             | kTargetInfo | kNegotiateVersion | kNegotiate128 | kNegotiate56);
    m.append(8, '\0'); // DomainNameFields: none
    m.append(8, '\0'); // WorkstationFields: none
    // Our Version: the field must be there with NTLMSSP_NEGOTIATE_VERSION; only the revision means anything.
    m.append(7, '\0');
    m.append(char(15)); // NTLMSSP_REVISION_W2K3
    return m;
}

QByteArray NtlmChallenge::spnegoNegTokenInit(const QByteArray &ntlmToken)
{
    static const QByteArray spnegoOid = QByteArray::fromHex("2b0601050502");       // 1.3.6.1.5.5.2
    static const QByteArray ntlmOid = QByteArray::fromHex("2b06010401823702020a"); // 1.3.6.1.4.1.311.2.2.10
    const QByteArray mechTypes = der(0xa0, der(0x30, der(0x06, ntlmOid)));
    const QByteArray mechToken = der(0xa2, der(0x04, ntlmToken));
    const QByteArray negTokenInit = der(0xa0, der(0x30, mechTypes + mechToken));
    return der(0x60, der(0x06, spnegoOid) + negTokenInit);
}

bool NtlmChallenge::find(const QByteArray &blob, NtlmChallenge *out, QString *error)
{
    const QByteArray signature(kSignature, kSignatureBytes);
    for (qsizetype at = blob.indexOf(signature); at >= 0; at = blob.indexOf(signature, at + 1)) {
        if (blob.size() - at >= 12 && u32(blob, at + 8) == 2)
            return parse(blob.mid(at), out, error);
    }
    if (error)
        *error = QStringLiteral("the reply holds no NTLMSSP CHALLENGE message");
    return false;
}

bool NtlmChallenge::parse(const QByteArray &message, NtlmChallenge *out, QString *error)
{
    auto fail = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    if (message.size() < kChallengeHeaderBytes || !message.startsWith(QByteArray(kSignature, kSignatureBytes)))
        return fail(
            QStringLiteral("the NTLMSSP CHALLENGE is shorter than its %1-byte header").arg(kChallengeHeaderBytes));
    if (u32(message, 8) != 2)
        return fail(QStringLiteral("NTLMSSP message type %1 where a CHALLENGE (2) was expected").arg(u32(message, 8)));
    NtlmChallenge c;
    c.flags = u32(message, 20);
    const bool unicode = c.flags & kNegotiateUnicode;
    // A payload field: length, maximum length, offset from the start of the message.
    auto field = [&](qsizetype at, QByteArray *bytes) {
        const quint16 len = u16(message, at);
        const quint32 offset = u32(message, at + 4);
        if (len == 0)
            return true;
        if (offset > quint32(message.size()) || len > message.size() - qsizetype(offset))
            return false;
        *bytes = message.mid(offset, len);
        return true;
    };
    QByteArray target;
    QByteArray info;
    if (!field(12, &target))
        return fail(QStringLiteral("the NTLMSSP target name lies outside the message"));
    if (!field(40, &info))
        return fail(QStringLiteral("the NTLMSSP target information lies outside the message"));
    c.targetName = unicode ? utf16le(target) : QString::fromLatin1(target);
    // Version sits between the fixed header and the payload; an old server's payload may start at 48.
    const quint32 targetOffset = u16(message, 12) ? u32(message, 16) : quint32(message.size());
    const quint32 infoOffset = u16(message, 40) ? u32(message, 44) : quint32(message.size());
    if ((c.flags & kNegotiateVersion) && message.size() >= kVersionOffset + kVersionBytes
        && qMin(targetOffset, infoOffset) >= quint32(kVersionOffset + kVersionBytes)) {
        c.hasVersion = true;
        c.major = quint8(message.at(kVersionOffset));
        c.minor = quint8(message.at(kVersionOffset + 1));
        c.build = u16(message, kVersionOffset + 2);
        c.revision = quint8(message.at(kVersionOffset + 7));
    }
    // AV pairs: id, length, value (UTF-16LE names) until MsvAvEOL.
    for (qsizetype at = 0; at + 4 <= info.size();) {
        const quint16 id = u16(info, at);
        const quint16 len = u16(info, at + 2);
        if (id == 0)
            break;
        if (at + 4 + len > info.size())
            return fail(QStringLiteral("an NTLMSSP target information entry runs past its end"));
        const QString value = utf16le(info.mid(at + 4, len));
        switch (id) {
        case 1:
            c.netbiosComputer = value;
            break;
        case 2:
            c.netbiosDomain = value;
            break;
        case 3:
            c.dnsComputer = value;
            break;
        case 4:
            c.dnsDomain = value;
            break;
        default:
            break;
        }
        at += 4 + len;
    }
    *out = c;
    return true;
}

QString NtlmChallenge::versionText() const
{
    return QStringLiteral("%1.%2 build %3").arg(major).arg(minor).arg(build);
}

QString NtlmChallenge::describe() const
{
    QStringList parts;
    parts << (hasVersion ? QStringLiteral("NTLMSSP %1 (revision %2)").arg(versionText()).arg(revision)
                         : QStringLiteral("NTLMSSP without a version"));
    if (!targetName.isEmpty())
        parts << QStringLiteral("target %1").arg(targetName);
    if (!netbiosComputer.isEmpty() || !netbiosDomain.isEmpty())
        parts << QStringLiteral("NetBIOS computer %1, domain %2").arg(netbiosComputer, netbiosDomain);
    if (!dnsComputer.isEmpty())
        parts << QStringLiteral("DNS computer %1").arg(dnsComputer);
    if (!dnsDomain.isEmpty() && dnsDomain != dnsComputer)
        parts << QStringLiteral("DNS domain %1").arg(dnsDomain);
    return parts.join(QStringLiteral("; "));
}

QString NtlmChallenge::labelForVersion(int major, int minor, int build)
{
    // Samba fills in its own NTLMSSP version with build 0; Windows sends its real build number.
    if (build == 0)
        return QStringLiteral("Samba (Linux/Unix)");
    struct Release
    {
        int major;
        int minor;
        int build;
        const char *label;
    };
    static constexpr Release releases[] = {
        {5, 0, 2195, "Windows 2000"},
        {5, 1, 2600, "Windows XP"},
        {5, 2, 3790, "Windows Server 2003"},
        {6, 0, 6001, "Windows Server 2008 / Vista"},
        {6, 0, 6002, "Windows Server 2008 / Vista"},
        {6, 1, 7600, "Windows Server 2008 R2 / 7"},
        {6, 1, 7601, "Windows Server 2008 R2 / 7"},
        {6, 2, 9200, "Windows Server 2012 / 8"},
        {6, 3, 9600, "Windows Server 2012 R2 / 8.1"},
        {10, 0, 14393, "Windows Server 2016"},
        {10, 0, 17763, "Windows Server 2019"},
        {10, 0, 20348, "Windows Server 2022"},
        {10, 0, 26100, "Windows Server 2025"},
    };
    if (build < 0 && major == 10 && minor == 0)
        return QStringLiteral("Windows 10/11 or Server"); // the builds tell these apart, 10.0 does not
    for (const Release &r : releases) {
        if (r.major == major && r.minor == minor && (r.build == build || build < 0))
            return QLatin1String(r.label);
    }
    if (build < 0)
        return QStringLiteral("Windows %1.%2").arg(major).arg(minor);
    if (major == 10 && minor == 0)
        return QStringLiteral("Windows 10/11 or Server (build %1)").arg(build);
    return QStringLiteral("Windows (NTLMSSP %1.%2 build %3)").arg(major).arg(minor).arg(build);
}

} // namespace wb
