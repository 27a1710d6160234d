#include "FtpIdentityProbe.h"

#include "IdentityProbeSocket.h"

#include <QStringList>

namespace wb {

namespace {
const QString GreetingSource = QStringLiteral("FTP greeting (220)");
const QString SystSource = QStringLiteral("FTP SYST (215)");
} // namespace

QString FtpIdentityProbe::labelFor(const QString &text)
{
    struct Mark
    {
        const char *contains;
        const char *label;
    };
    // Windows marks first: IIS answers "215 Windows_NT" and greets with "Microsoft FTP Service".
    static constexpr Mark marks[] = {
        {"Microsoft FTP Service", "Windows (IIS FTP)"},
        {"Windows_NT", "Windows (IIS FTP)"},
        {"vsFTPd", "Linux/Unix (vsftpd)"},
        {"ProFTPD", "Linux/Unix (ProFTPD)"},
        {"Pure-FTPd", "Linux/Unix (Pure-FTPd)"},
        {"UNIX Type", "Linux/Unix"},
    };
    for (const Mark &m : marks) {
        if (text.contains(QLatin1String(m.contains), Qt::CaseInsensitive))
            return QLatin1String(m.label);
    }
    return {};
}

QString FtpIdentityProbe::takeReply(const QByteArray &buffer, int *code, qsizetype *consumed)
{
    // RFC 959 4.2: "123-first line" ... "123 last line"; a single-line reply is "123 text".
    QStringList lines;
    qsizetype start = 0;
    QByteArray first;
    while (start < buffer.size()) {
        const qsizetype end = buffer.indexOf('\n', start);
        if (end < 0)
            return {};
        QByteArray line = buffer.mid(start, end - start);
        if (line.endsWith('\r'))
            line.chop(1);
        start = end + 1;
        if (first.isEmpty())
            first = line.left(3);
        lines << QString::fromUtf8(line);
        const bool last = line.size() >= 3 && line.left(3) == first && (line.size() == 3 || line.at(3) == ' ');
        if (last) {
            bool ok = false;
            *code = first.toInt(&ok);
            if (!ok)
                *code = 0;
            *consumed = start;
            return lines.join(QLatin1Char('\n'));
        }
    }
    return {};
}

ServerEvidenceList FtpIdentityProbe::probe(const Host &host, int timeoutMs)
{
    int port = host.options.value(QStringLiteral("ftp.port"), 21).toInt();
    if (port <= 0 || port > 65535)
        port = 21;
    IdentityProbeSocket socket(host, quint16(port), QStringLiteral("FTP"), timeoutMs);
    if (!socket.connect())
        return {ServerEvidence::failure(GreetingSource, socket.error())};

    QByteArray buffer;
    auto readReply = [&](const QString &waitingFor, int *code) -> QString {
        for (;;) {
            qsizetype used = 0;
            const QString reply = takeReply(buffer, code, &used);
            if (!reply.isEmpty()) {
                buffer.remove(0, used);
                return reply;
            }
            if (buffer.size() > 64 * 1024 || !socket.readMore(&buffer, waitingFor))
                return {};
        }
    };

    ServerEvidenceList out;
    int code = 0;
    const QString greeting = readReply(QStringLiteral("220 greeting"), &code);
    if (greeting.isEmpty())
        return {ServerEvidence::failure(GreetingSource, socket.error())};
    if (code != 220) {
        return {ServerEvidence::failure(
            GreetingSource,
            socket.failureLine(
                QStringLiteral("greeted with \"%1\" instead of 220: is this an FTP server?").arg(greeting.left(80))))};
    }
    out << ServerEvidence{GreetingSource, greeting, labelFor(greeting), {}, 30};

    // vsftpd answers SYST only after login (530 before): log in when the host has an FTP user, but never send
    // a password in the clear to a host set up for FTPS.
    int systCode = 0;
    auto askSyst = [&](QString *reply) {
        if (!socket.write("SYST\r\n"))
            return false;
        *reply = readReply(QStringLiteral("answer to SYST"), &systCode);
        return !reply->isEmpty();
    };
    QString syst;
    if (!askSyst(&syst)) {
        out << ServerEvidence::failure(SystSource, socket.error());
        return out;
    }
    const QString user = host.options.value(QStringLiteral("ftp.user")).toString();
    const bool tls = host.options.value(QStringLiteral("ftp.tls"), false).toBool();
    if (systCode == 530 && !user.isEmpty() && !tls) {
        QString reply;
        if (socket.write("USER " + user.toUtf8() + "\r\n")
            && !(reply = readReply(QStringLiteral("answer to USER"), &code)).isEmpty() && code == 331
            && socket.write("PASS " + host.options.value(QStringLiteral("ftp.password")).toString().toUtf8() + "\r\n")
            && !(reply = readReply(QStringLiteral("answer to PASS"), &code)).isEmpty() && code == 230) {
            if (!askSyst(&syst)) {
                out << ServerEvidence::failure(SystSource, socket.error());
                return out;
            }
        } else if (reply.isEmpty() && !socket.error().isEmpty()) {
            out << ServerEvidence::failure(SystSource, socket.error());
            return out;
        }
        // A refused login leaves the first answer to SYST (530) as what the server said.
    }
    if (systCode == 215)
        out << ServerEvidence{SystSource, syst, labelFor(syst), {}, 20};
    else
        out << ServerEvidence{SystSource, syst, {}, {}, 0}; // a refusal is an answer, but says nothing
    socket.write("QUIT\r\n");
    return out;
}

} // namespace wb
