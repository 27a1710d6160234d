#pragma once

#include "NtlmChallenge.h"
#include "ServerEvidence.h"
#include "model/Host.h"

namespace wb {

/// Asks an SMB server who it is, two ways:
/// - NTLMSSP version: raw SMB2 over TCP (NEGOTIATE, then SESSION_SETUP with an NTLMSSP NEGOTIATE, raw and, if
///   refused, inside SPNEGO); the CHALLENGE answer carries the server's version (Samba: build 0) and names.
///   No credential is sent: the connection closes after the challenge.
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

    /// Both ways; the port is the host's "smb.port", else 445.
    static Result probe(const Host &host, int timeoutMs = kTimeoutMs);
    /// How the NTLMSSP NEGOTIATE travels: raw first (SPNEGO when the server refuses it), or SPNEGO only.
    enum class Framing { RawThenSpnego, Spnego };
    static ServerEvidence ntlmssp(const Host &host, int timeoutMs = kTimeoutMs, NtlmChallenge *challenge = nullptr,
                                  Framing framing = Framing::RawThenSpnego);
    static ServerEvidence serverString(const Host &host, int timeoutMs = kTimeoutMs);

    /// "IPC Service (Samba 4.17.12-Debian)" -> "Samba 4.17.12-Debian"; other comments unchanged.
    static QString serverStringOf(const QString &ipcComment);
    /// The label an IPC$ comment suggests (Samba's version, "Samba (Linux/Unix)", "Windows") and its rank.
    static QString labelForIpcComment(const QString &ipcComment, int *rank = nullptr);
    static int portOf(const Host &host);
};

} // namespace wb
