#pragma once

#include <QByteArray>
#include <QString>

namespace wb {

/// Names the service that answered on a port from the first bytes it sent, for the line that tells a user that the
/// port holds another service than the one the host's settings expect: "an FTP banner \"220 (vsFTPd 3.0.5)\"",
/// "an SSH banner \"SSH-2.0-OpenSSH_9.2p1\"", "wirebenchd's hello (wirebenchd 0.1.0)", "an SMB answer", else the
/// text or the first bytes in hex. What is quoted is one line of at most 80 printable characters.
class ServiceBanner
{
public:
    enum class Kind { Smb, Ftp, Ssh, Http, Wirebenchd, Text, Binary };

    /// Ftp for any reply-shaped start ("220 ", "220-", "421 "), so SMTP's greeting is Ftp too (describe() tells it).
    static Kind kindOf(const QByteArray &bytes);
    static QString describe(const QByteArray &bytes);
    /// SMB over TCP: a zero byte, a 24-bit length and then the SMB2 (0xFE) or SMB1 (0xFF) protocol id.
    static bool isSmb(const QByteArray &bytes);
    /// The first line of bytes, control characters as '?', cut at 80 characters.
    static QString quotedLine(const QByteArray &bytes);
};

} // namespace wb
