#pragma once

#include <QByteArray>
#include <QString>

namespace wb {

/// The NTLMSSP messages the SMB identity probe needs ([MS-NLMP] 2.2.1): the NEGOTIATE we send and the
/// CHALLENGE the server answers, which carries its version and names before any credential is asked.
struct NtlmChallenge
{
    quint32 flags = 0;
    bool hasVersion = false; ///< the server filled the Version field (NTLMSSP_NEGOTIATE_VERSION)
    int major = 0;
    int minor = 0;
    int build = 0;
    int revision = 0; ///< NTLMSSP revision (15 = W2K3)
    QString targetName;
    QString netbiosComputer; ///< AV pair MsvAvNbComputerName
    QString netbiosDomain;   ///< MsvAvNbDomainName
    QString dnsComputer;     ///< MsvAvDnsComputerName
    QString dnsDomain;       ///< MsvAvDnsDomainName

    /// The NEGOTIATE flags ([MS-NLMP] 2.2.2.5) the probe asks for or reads, as one set of bits.
    enum : quint32 {
        kNegotiateUnicode = 0x00000001,
        kRequestTarget = 0x00000004,
        kNegotiateNtlm = 0x00000200,
        kAlwaysSign = 0x00008000,
        kExtendedSessionSecurity = 0x00080000,
        kTargetInfo = 0x00800000,
        kNegotiateVersion = 0x02000000,
        kNegotiate128 = 0x20000000,
        kNegotiate56 = 0x80000000,
    };

    /// A NEGOTIATE (type 1) message asking for the server's version and target information.
    static QByteArray negotiateMessage();
    /// The same token inside a SPNEGO NegTokenInit (RFC 4178) offering only NTLMSSP.
    static QByteArray spnegoNegTokenInit(const QByteArray &ntlmToken);
    /// Finds "NTLMSSP\0" with message type 2 in blob (raw or inside a SPNEGO reply) and parses it.
    /// False with a one-line *error when there is none or it is malformed.
    static bool find(const QByteArray &blob, NtlmChallenge *out, QString *error);
    /// Parses a CHALLENGE message that starts at message[0].
    static bool parse(const QByteArray &message, NtlmChallenge *out, QString *error);

    /// "6.1 build 0"
    QString versionText() const;
    /// "NTLMSSP 6.1 build 0 (revision 15); target WBTEST; NetBIOS computer WBTEST, domain WBTEST; DNS computer wbtest"
    QString describe() const;
    /// The OS an NTLMSSP version stands for: build 0 is Samba, the others are Windows releases. A negative build
    /// (unknown, as in SMB1's NativeOS "Windows 5.1") gives the first release of that major.minor.
    static QString labelForVersion(int major, int minor, int build);
};

} // namespace wb
