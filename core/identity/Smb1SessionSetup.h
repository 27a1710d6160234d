#pragma once

#include <QByteArray>
#include <QString>

namespace wb {

/// The SMB1 messages the identity probe needs for servers without SMB2 (Windows Server 2003 and older, Samba with
/// "server max protocol = NT1"): NEGOTIATE for "NT LM 0.12" with extended security ([MS-SMB] 2.2.4.5), then
/// SESSION_SETUP_ANDX carrying an NTLMSSP NEGOTIATE ([MS-SMB] 2.2.4.6). The answer (STATUS_MORE_PROCESSING_REQUIRED)
/// holds the NTLMSSP CHALLENGE and the server's NativeOS and NativeLanMan strings; no credential is ever sent.
/// Messages are without the 4-byte direct-TCP header.
struct Smb1SessionSetup
{
    /// What the NEGOTIATE answer says that the SESSION_SETUP_ANDX needs.
    struct Negotiated
    {
        quint32 sessionKey = 0; ///< echoed in SESSION_SETUP_ANDX ([MS-CIFS] 2.2.4.53.1)
        quint32 capabilities = 0;
        quint32 maxBufferSize = 0;
        bool extendedSecurity = false; ///< CAP_EXTENDED_SECURITY: the session setup carries a security blob
    };

    quint32 status = 0; ///< NT status of the SESSION_SETUP_ANDX answer
    QByteArray securityBlob;
    QString nativeOs;      ///< "Windows Server 2003 3790 Service Pack 2"; Samba 4.17: "Windows 6.1"
    QString nativeLanMan;  ///< "Windows Server 2003 5.2"; Samba: "Samba 4.17.12-Debian"
    QString primaryDomain; ///< sent by Samba and some Windows releases; often empty

    static constexpr quint8 kNegotiate = 0x72;
    static constexpr quint8 kSessionSetupAndX = 0x73;
    /// The header's Flags2 bits ([MS-CIFS] 2.2.3.1) the probe sets or reads.
    enum : quint16 {
        kFlags2Unicode = 0x8000,
        kFlags2NtStatus = 0x4000,
        kFlags2ExtendedSecurity = 0x0800,
        kFlags2LongNames = 0x0001,
    };
    static constexpr quint32 kCapExtendedSecurity = 0x80000000;
    static constexpr quint32 kStatusMoreProcessing = 0xC0000016;
    static constexpr int kHeaderBytes = 32;

    /// NEGOTIATE offering only "NT LM 0.12", with Flags2 EXTENDED_SECURITY, UNICODE and NT_STATUS.
    static QByteArray negotiateRequest();
    /// Checks a NEGOTIATE answer (NT LM 0.12 chosen, 17 parameter words); false with a one-line *error otherwise.
    static bool parseNegotiate(const QByteArray &message, Negotiated *out, QString *error);
    /// SESSION_SETUP_ANDX (WordCount 12, extended security) carrying token as its security blob.
    static QByteArray sessionSetupRequest(const QByteArray &token, const Negotiated &negotiated);
    /// Reads a SESSION_SETUP_ANDX answer: blob, then the strings (Unicode after an alignment pad when Flags2 says
    /// UNICODE, else ASCII). False with a one-line *error when it is not one, was refused or runs past its end.
    static bool parse(const QByteArray &message, Smb1SessionSetup *out, QString *error);

    /// "NativeOS \"Unix\"; NativeLanMan \"Samba 4.17.12-Debian\"; domain WBTEST"
    QString describe() const;
    /// The OS the two strings stand for, and how much that says (ServerEvidence::rank): a Samba NativeLanMan wins
    /// over NativeOS (Samba 4 says "Windows 6.1" there); a Windows NativeOS with a build names the release.
    static QString labelFor(const QString &nativeOs, const QString &nativeLanMan, int *rank = nullptr);
};

} // namespace wb
