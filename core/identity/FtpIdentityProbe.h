#pragma once

#include "ServerEvidence.h"
#include "model/Host.h"

namespace wb {

/// Asks an FTP server who it is without logging in: its 220 greeting, then SYST (215), then QUIT.
/// Blocking (waitFor*): call it off the GUI thread.
class FtpIdentityProbe
{
public:
    static constexpr int kTimeoutMs = 3000; ///< per step: connect, greeting, SYST

    /// Evidence from the greeting and from SYST, or one failure line. Port: the host's "ftp.port", else 21.
    static ServerEvidenceList probe(const Host &host, int timeoutMs = kTimeoutMs);
    /// The OS label a greeting or SYST text suggests ("220 (vsFTPd 3.0.3)" -> Linux/Unix); empty = none.
    static QString labelFor(const QString &text);
    /// The text of a complete FTP reply with code (multi-line "220-" ... "220 " aware), or empty while
    /// buffer does not hold a whole reply yet. *consumed: bytes of buffer the reply used.
    static QString takeReply(const QByteArray &buffer, int *code, qsizetype *consumed);
};

} // namespace wb
