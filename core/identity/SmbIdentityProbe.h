#pragma once

#include "NtlmChallenge.h"
#include "Smb1SessionSetup.h"
#include "ServerEvidence.h"
#include "model/Host.h"

namespace wb {

/// Asks an SMB server who it is, two ways:
/// - NTLMSSP version: raw SMB2 over TCP (NEGOTIATE, then SESSION_SETUP with an NTLMSSP NEGOTIATE, raw and, if
///   refused, inside SPNEGO); the CHALLENGE answer carries the server's version (Samba: build 0) and names.
///   A server without SMB2 (it closes, refuses the SMB2 NEGOTIATE or answers in SMB1: Windows Server 2003, Samba
///   with "server max protocol = NT1") is asked the same over SMB1 (NT LM 0.12, SESSION_SETUP_ANDX), whose answer
///   adds its NativeOS and NativeLanMan strings. No credential is sent: the connection closes after the challenge.
/// - Server string: libsmbclient lists the shares (with the host's SMB credentials, else anonymously) and reads
///   the comment of IPC$: Samba says "IPC Service (<server string>)", Windows "Remote IPC".
/// Blocking: call it off the GUI thread.
class SmbIdentityProbe
{
public:
    static constexpr int kTimeoutMs = 3000;

    struct Result
    {
        ServerEvidenceList evidence;
        QString serverOs; ///< "Samba 4.17.12-Debian (NTLMSSP 6.1 build 0)"; empty when neither way answered
        QString source;   ///< which evidence serverOs comes from
    };

    /// Both ways; the port is the host's "smb.port", else 445. Evidence: NTLMSSP, SMB1 NativeOS / NativeLanMan
    /// (only when SMB1 answered), server string.
    static Result probe(const Host &host, int timeoutMs = kTimeoutMs);
    /// How the NTLMSSP NEGOTIATE travels: raw first (SPNEGO when the server refuses it), or SPNEGO only.
    enum class Framing { RawThenSpnego, Spnego };
    /// Which SMB carries it: SMB2, and SMB1 when the server has no SMB2; or SMB1 only.
    enum class Dialect { Smb2ThenSmb1, Smb1 };

    /// What the session setup said.
    struct Handshake
    {
        ServerEvidence ntlm;     ///< "SMB NTLMSSP version"
        ServerEvidence native;   ///< "SMB1 NativeOS / NativeLanMan"; empty source unless SMB1 answered
        NtlmChallenge challenge; ///< valid when ntlm did not fail
        Smb1SessionSetup smb1;   ///< the SMB1 answer, when there was one
        bool viaSmb1 = false;    ///< SMB1 was used (asked for, or the server has no SMB2)
    };
    static Handshake handshake(const Host &host, int timeoutMs = kTimeoutMs, Framing framing = Framing::RawThenSpnego,
                               Dialect dialect = Dialect::Smb2ThenSmb1);
    /// handshake()'s NTLMSSP evidence.
    static ServerEvidence ntlmssp(const Host &host, int timeoutMs = kTimeoutMs, NtlmChallenge *challenge = nullptr,
                                  Framing framing = Framing::RawThenSpnego);
    static ServerEvidence serverString(const Host &host, int timeoutMs = kTimeoutMs);

    /// "IPC Service (Samba 4.17.12-Debian)" -> "Samba 4.17.12-Debian"; other comments unchanged.
    static QString serverStringOf(const QString &ipcComment);
    /// The label an IPC$ comment suggests (Samba's version, "Samba (Linux/Unix)", "Windows") and its rank.
    static QString labelForIpcComment(const QString &ipcComment, int *rank = nullptr);
    /// Which SMB a port answers, from NEGOTIATE alone (SMB2 2.0.2-3.0.2 first, then SMB1 NT LM 0.12): the SMB driver's
    /// check before libsmbclient connects, whose 20 s timeout and "connection broke" would hide a port that holds
    /// another service or a server that speaks only SMB1. *said: with NotSmb what answered instead ("an FTP banner
    /// \"220 (vsFTPd 3.0.5)\"", ServiceBanner), with Smb1Only how SMB2 was refused, with Unknown the probe's
    /// one-line reason (refused, no answer within timeoutMs, neither dialect).
    enum class Speaks { Smb2, Smb1Only, NotSmb, Unknown };
    static Speaks speaks(const Host &host, int timeoutMs, QString *said);
    static int portOf(const Host &host);
    /// The host's "smb.allow_smb1" ("Allow SMB1 (NT1)"), off by default.
    static bool allowsSmb1(const Host &host);
};

} // namespace wb
