#pragma once
// A plain HTTP/1.1 exchange over a QTcpSocket for the probe tests: the request's bytes as given (so that a test can
// send what no HTTP library would: POST, an oversize head), the status, headers and body back. Blocking, within
// a bound, in the test's own thread.
#include <QByteArray>
#include <QDeadlineTimer>
#include <QMap>
#include <QRegularExpression>
#include <QString>
#include <QTcpSocket>

namespace wb::test {

struct HttpAnswer
{
    int status = 0;                       ///< 0: no answer (error says why)
    QMap<QByteArray, QByteArray> headers; ///< names in lower case
    QByteArray body;
    QString error;
};

/// Sends request to 127.0.0.1:port and reads the answer to the close of the connection, within timeoutMs.
inline HttpAnswer httpExchange(quint16 port, const QByteArray &request, int timeoutMs = 60000)
{
    HttpAnswer answer;
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(10000)) {
        answer.error = QStringLiteral("cannot connect to 127.0.0.1:%1: %2").arg(port).arg(socket.errorString());
        return answer;
    }
    socket.write(request);
    QByteArray bytes;
    const QDeadlineTimer deadline(timeoutMs);
    // To the close, or to the end of a body whose length the head gives (a server may keep the connection open).
    auto whole = [&bytes] {
        const qsizetype end = bytes.indexOf("\r\n\r\n");
        static const QRegularExpression length(QStringLiteral("\r\ncontent-length:\\s*(\\d+)"),
                                               QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m
            = end < 0 ? QRegularExpressionMatch() : length.match(QString::fromLatin1(bytes.left(end + 2)));
        return m.hasMatch() && bytes.size() >= end + 4 + m.captured(1).toLongLong();
    };
    while (socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired() && !whole()) {
        socket.waitForReadyRead(int(qMin<qint64>(deadline.remainingTime(), 1000)));
        bytes += socket.readAll();
    }
    bytes += socket.readAll();
    const qsizetype headEnd = bytes.indexOf("\r\n\r\n");
    if (headEnd < 0) {
        answer.error = deadline.hasExpired()
            ? QStringLiteral("no whole answer within %1 ms").arg(timeoutMs)
            : QStringLiteral("the connection closed without an answer (%1)").arg(socket.errorString());
        return answer;
    }
    const QList<QByteArray> lines = bytes.left(headEnd).split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    answer.status = statusLine.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            answer.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    answer.body = bytes.mid(headEnd + 4);
    return answer;
}

/// GET path (with its query) from 127.0.0.1:port, with extra header lines ("Accept: ...\r\n").
inline HttpAnswer httpGet(quint16 port, const QString &path, const QByteArray &headers = {}, int timeoutMs = 60000)
{
    return httpExchange(port,
                        "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                            + "\r\nConnection: close\r\n" + headers + "\r\n",
                        timeoutMs);
}

} // namespace wb::test
