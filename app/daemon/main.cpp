// wirebenchd: the far end of a Wirebench test. A thin main around wb::Responder.
#include "net/Responder.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>

#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalFds[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] ssize_t w = ::write(g_signalFds[0], &c, 1);
}

void printLine(const QString &line, FILE *to = stdout)
{
    const QByteArray text = (QDateTime::currentDateTime().toString(Qt::ISODate) + QLatin1Char(' ') + line).toUtf8();
    std::fprintf(to, "%s\n", text.constData());
    std::fflush(to);
}

/// "ADDR:PORT", "[V6]:PORT", "ADDR" or ":PORT" / "PORT".
bool parseListen(const QString &text, QHostAddress *address, quint16 *port, QString *error)
{
    QString host = text.trimmed();
    QString portText;
    if (host.startsWith(QLatin1Char('['))) {
        const int close = host.indexOf(QLatin1Char(']'));
        if (close < 0) {
            *error = QStringLiteral("missing ']' in \"%1\"").arg(text);
            return false;
        }
        portText = host.mid(close + 1);
        host = host.mid(1, close - 1);
        if (!portText.isEmpty()) {
            if (!portText.startsWith(QLatin1Char(':'))) {
                *error = QStringLiteral("expected ':PORT' after ']' in \"%1\"").arg(text);
                return false;
            }
            portText = portText.mid(1);
        }
    } else if (host.count(QLatin1Char(':')) == 1) {
        const int colon = host.indexOf(QLatin1Char(':'));
        portText = host.mid(colon + 1);
        host = host.left(colon);
    } else if (!host.contains(QLatin1Char(':')) && !host.contains(QLatin1Char('.')) && !host.isEmpty()) {
        bool isNumber = false;
        host.toUShort(&isNumber);
        if (isNumber) {
            portText = host;
            host.clear();
        }
    }
    if (host.isEmpty()) {
        *address = QHostAddress(QHostAddress::AnyIPv4);
    } else if (host == QLatin1String("*")) {
        *address = QHostAddress(QHostAddress::Any);
    } else if (!address->setAddress(host)) {
        *error = QStringLiteral("\"%1\" is not an IPv4 or IPv6 address (use e.g. 0.0.0.0 or [::])").arg(host);
        return false;
    }
    if (!portText.isEmpty()) {
        bool ok = false;
        const uint p = portText.toUInt(&ok);
        if (!ok || p > 65535) {
            *error = QStringLiteral("\"%1\" is not a port number (0-65535)").arg(portText);
            return false;
        }
        *port = quint16(p);
    }
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("wirebenchd"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WIREBENCH_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The Wirebench responder: answers throughput tests from wirebench and wirebench-cli.\n"
                       "Serves one test at a time; a second client gets a \"busy\" reply. Data flows on a\n"
                       "separate TCP connection on a free port per test, so let the host accept TCP in general\n"
                       "from the test clients, not only the control port."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listenOption(
        QStringLiteral("listen"),
        QStringLiteral("Address and control port to listen on: ADDR:PORT, [IPV6]:PORT or PORT (default 0.0.0.0:%1; "
                       "[::]:%1 listens on IPv6 and IPv4).")
            .arg(wb::ResponderConfig::kDefaultPort),
        QStringLiteral("ADDR:PORT"));
    const QCommandLineOption maxDurationOption(QStringLiteral("max-duration"),
                                               QStringLiteral("Longest test accepted, in seconds (default 60)."),
                                               QStringLiteral("SECONDS"));
    parser.addOption(listenOption);
    parser.addOption(maxDurationOption);
    parser.process(app);

    wb::ResponderConfig config;
    config.address = QHostAddress(QHostAddress::AnyIPv4);
    if (parser.isSet(listenOption)) {
        QString error;
        if (!parseListen(parser.value(listenOption), &config.address, &config.port, &error)) {
            std::fprintf(stderr, "wirebenchd: --listen: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (parser.isSet(maxDurationOption)) {
        bool ok = false;
        const double seconds = parser.value(maxDurationOption).toDouble(&ok);
        if (!ok || seconds < 1 || seconds > 24 * 3600) {
            std::fprintf(stderr, "wirebenchd: --max-duration: \"%s\" is not a number of seconds from 1 to 86400\n",
                         qPrintable(parser.value(maxDurationOption)));
            return 2;
        }
        config.maxDurationMs = int(seconds * 1000);
    }

    // Signals become a byte on a socket pair, so that the shutdown runs in the event loop, not in the handler.
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0) {
        std::perror("wirebenchd: socketpair");
        return 1;
    }
    QSocketNotifier notifier(g_signalFds[1], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [&app] {
        char c;
        [[maybe_unused]] ssize_t r = ::read(g_signalFds[1], &c, 1);
        app.quit();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    wb::Responder responder(config);
    QObject::connect(&responder, &wb::Responder::logLine, &app, [](const QString &line) { printLine(line); });
    QString error;
    if (!responder.start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QString shown = config.address.protocol() == QAbstractSocket::IPv6Protocol || config.address == QHostAddress(QHostAddress::Any)
                              ? QStringLiteral("[%1]:%2").arg(config.address.toString()).arg(responder.port())
                              : QStringLiteral("%1:%2").arg(config.address.toString()).arg(responder.port());
    printLine(QStringLiteral("wirebenchd %1 listening on %2 (max test %3 s)")
                  .arg(QStringLiteral(WIREBENCH_VERSION), shown)
                  .arg(config.maxDurationMs / 1000.0));
    const int rc = app.exec();
    responder.stop();
    printLine(QStringLiteral("wirebenchd stopped"));
    return rc;
}
