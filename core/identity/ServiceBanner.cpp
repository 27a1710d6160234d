#include "ServiceBanner.h"

#include "wire/wirebenchd/ControlMessage.h"

#include <cctype>

namespace wb {

namespace {

constexpr int MaxQuoted = 80;

bool looksLikeText(const QByteArray &bytes)
{
    int printable = 0;
    for (const char c : bytes) {
        const auto u = uchar(c);
        if ((u >= 0x20 && u < 0x7f) || u == '\r' || u == '\n' || u == '\t' || u >= 0x80)
            ++printable;
    }
    // A stray escape code still leaves text (quotedLine shows it as '?'); binary protocols are mostly unprintable.
    return !bytes.isEmpty() && printable * 10 >= bytes.size() * 9 && uchar(bytes.at(0)) >= 0x20;
}

/// wirebenchd's control framing: a 4-byte length, then a JSON object with a "type" (its hello, unasked).
bool wirebenchdMessage(const QByteArray &bytes, QString *software)
{
    const control::Decoded d
        = control::decode(std::string_view(bytes.constData(), std::size_t(bytes.size())), 64 * 1024);
    if (!d.ok())
        return false;
    control::Hello hello;
    std::string error;
    if (control::Hello::fromJson(d.message, &hello, &error))
        *software = QString::fromStdString(hello.software);
    return true;
}

} // namespace

bool ServiceBanner::isSmb(const QByteArray &bytes)
{
    if (bytes.size() < 8 || bytes.at(0) != 0)
        return false;
    const QByteArray id = bytes.mid(4, 4);
    return id == QByteArray("\xfeSMB", 4) || id == QByteArray("\xffSMB", 4);
}

QString ServiceBanner::quotedLine(const QByteArray &bytes)
{
    QByteArray line = bytes.left(bytes.indexOf('\n') < 0 ? bytes.size() : bytes.indexOf('\n'));
    QString text = QString::fromUtf8(line).trimmed();
    for (QChar &c : text) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = QLatin1Char('?');
    }
    if (text.size() > MaxQuoted)
        text = text.left(MaxQuoted - 3) + QStringLiteral("...");
    return QLatin1Char('"') + text + QLatin1Char('"');
}

ServiceBanner::Kind ServiceBanner::kindOf(const QByteArray &bytes)
{
    if (isSmb(bytes))
        return Kind::Smb;
    QString software;
    if (wirebenchdMessage(bytes, &software))
        return Kind::Wirebenchd;
    if (bytes.startsWith("SSH-"))
        return Kind::Ssh;
    if (bytes.startsWith("HTTP/"))
        return Kind::Http;
    // An FTP reply starts "ddd " or "ddd-" (RFC 959 4.2), also while a multi-line greeting is still arriving.
    const bool replyCode = bytes.size() >= 4 && bytes.at(0) >= '1' && bytes.at(0) <= '5'
        && std::isdigit(uchar(bytes.at(1))) && std::isdigit(uchar(bytes.at(2)))
        && (bytes.at(3) == ' ' || bytes.at(3) == '-');
    if (replyCode)
        return Kind::Ftp;
    return looksLikeText(bytes) ? Kind::Text : Kind::Binary;
}

QString ServiceBanner::describe(const QByteArray &bytes)
{
    switch (kindOf(bytes)) {
    case Kind::Smb:
        return QStringLiteral("an SMB answer");
    case Kind::Wirebenchd: {
        QString software;
        wirebenchdMessage(bytes, &software);
        return software.isEmpty() ? QStringLiteral("a wirebenchd control message")
                                  : QStringLiteral("wirebenchd's hello (%1)").arg(quotedLine(software.toUtf8()));
    }
    case Kind::Ssh:
        return QStringLiteral("an SSH banner %1").arg(quotedLine(bytes));
    case Kind::Http:
        return QStringLiteral("an HTTP answer %1").arg(quotedLine(bytes));
    case Kind::Ftp:
        // SMTP greets with 220 too, and says so.
        if (bytes.contains("SMTP"))
            return QStringLiteral("an SMTP banner %1").arg(quotedLine(bytes));
        return bytes.startsWith("220") ? QStringLiteral("an FTP banner %1").arg(quotedLine(bytes))
                                       : QStringLiteral("an FTP-style reply %1").arg(quotedLine(bytes));
    case Kind::Text:
        return QStringLiteral("the text %1").arg(quotedLine(bytes));
    case Kind::Binary:
        break;
    }
    return QStringLiteral("%1 bytes that are not SMB (%2%3)")
        .arg(bytes.size())
        .arg(QString::fromLatin1(bytes.left(16).toHex(' ')), bytes.size() > 16 ? QStringLiteral(" ...") : QString());
}

} // namespace wb
