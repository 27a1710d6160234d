// wirebenchd: the far end of a Wirebench test. A thin main around wb::Responder.
#include "wire/wirebenchd/Auth.h"
#include "responder/Iperf3Responder.h"
#include "wire/PrintableText.h"
#include "responder/Responder.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QSocketNotifier>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalFds[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] ssize_t w = ::write(g_signalFds[0], &c, 1);
}

/// One log line. The responders' lines come escaped and capped already (wire::safeLogLine); ours too pass
/// through it, which leaves an escaped line as it is.
void printLine(const QString &line, FILE *to = stdout)
{
    const QByteArray text = (QDateTime::currentDateTime().toString(Qt::ISODate) + QLatin1Char(' ') + wb::wire::safeLogLine(line)).toUtf8();
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

/// A positive number option within [minValue, maxValue]; false with a message on stderr that calls it `what`.
bool readNumber(const QCommandLineParser &parser, const QCommandLineOption &option, double minValue, double maxValue, double *out,
                const char *what = "a number")
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    const double v = parser.value(option).toDouble(&ok);
    if (!ok || v < minValue || v > maxValue) {
        std::fprintf(stderr, "wirebenchd: --%s: \"%s\" is not %s from %g to %g\n", qPrintable(option.names().constFirst()),
                     qPrintable(parser.value(option)), what, minValue, maxValue);
        return false;
    }
    *out = v;
    return true;
}

bool isLoopback(const QHostAddress &a)
{
    return a.isLoopback();
}

/// wirebenchd's options, in the order --help lists them: the name, the word --help shows for the value (empty for
/// a switch) and the help text, whose %1 a few fill in (the default port, the key file).
struct OptionText
{
    const char *name;
    const char *valueName;
    const char *help;
};

constexpr OptionText kOptions[] = {
    {"listen", "ADDR:PORT", "Address and control port to listen on: ADDR:PORT, [IPV6]:PORT or PORT (default "
                            "0.0.0.0:%1; [::]:%1 listens on IPv6 and IPv4)."},
    {"max-duration", "SECONDS", "Longest test accepted, in seconds (default 60)."},
    {"key-file", "PATH", "File with the pre-shared key; created (mode 0600) with a new key when missing (default: "
                         "%1)."},
    {"open", "", "Open mode: serve clients without a key. Only on networks you trust."},
    {"max-rate", "MBPS", "Cap on what wirebenchd sends (tcp-recv tests), in MB/s (10^6 bytes/s; default: no cap)."},
    {"max-concurrent", "N", "Tests run at the same time (default 1)."},
    {"queue", "N", "Clients that wait for a free test slot (default 4); the next one gets \"busy\"."},
    {"allow", "CIDR", "Serve only clients in this network (CIDR, e.g. 192.168.1.0/24 or 2001:db8::/32); repeatable. "
                      "Default: every client."},
    {"handshake-timeout", "SECONDS", "Seconds a new client has to send its hello and key proof (default 5)."},
    {"idle-timeout", "SECONDS", "Seconds of silence after the handshake before a client is dropped (default 15)."},
    {"max-message", "BYTES", "Largest control message accepted, in bytes (default 65536; before authentication at "
                             "most 4096)."},
    {"max-connections", "N", "Connections handled at once, at any stage (default 32); more are closed at once."},
    {"iperf3-port", "PORT", "Also answer iperf3 clients (iperf3 -c, TCP or UDP, both directions) on this port of the "
                            "--listen address (UDP tests: the same port number over UDP), e.g. 5201 (default 0: "
                            "off). One iperf3 test at a time; --max-duration, --allow, --max-rate and the timeouts "
                            "apply; iperf3 clients cannot prove the key, so limit them with --allow."},
};

/// The option `name` of the table above, its %1 filled with `fill` where given.
QCommandLineOption option(const char *name, const std::optional<QString> &fill = std::nullopt)
{
    const auto *row = std::find_if(std::begin(kOptions), std::end(kOptions),
                                   [&](const OptionText &o) { return std::strcmp(o.name, name) == 0; });
    if (row == std::end(kOptions))
        qFatal("wirebenchd: the option table has no --%s", name);
    const QString help = QString::fromUtf8(row->help);
    QCommandLineOption made(QString::fromUtf8(name), fill ? help.arg(*fill) : help);
    made.setValueName(QString::fromUtf8(row->valueName));
    return made;
}

/// wirebenchd's command line, one option of the table each.
struct Options
{
    void addTo(QCommandLineParser &parser) const;

    QCommandLineOption listenOption = option("listen", QString::number(wb::control::kDefaultPort));
    QCommandLineOption maxDurationOption = option("max-duration");
    QCommandLineOption keyFileOption = option("key-file", wb::auth::defaultKeyFilePath());
    QCommandLineOption openOption = option("open");
    QCommandLineOption maxRateOption = option("max-rate");
    QCommandLineOption maxConcurrentOption = option("max-concurrent");
    QCommandLineOption queueOption = option("queue");
    QCommandLineOption allowOption = option("allow");
    QCommandLineOption handshakeTimeoutOption = option("handshake-timeout");
    QCommandLineOption idleTimeoutOption = option("idle-timeout");
    QCommandLineOption maxMessageOption = option("max-message");
    QCommandLineOption maxConnectionsOption = option("max-connections");
    QCommandLineOption iperf3PortOption = option("iperf3-port");
};

void Options::addTo(QCommandLineParser &parser) const
{
    parser.addOption(listenOption);
    parser.addOption(iperf3PortOption);
    parser.addOption(maxDurationOption);
    for (const auto *o : {&keyFileOption, &openOption, &maxRateOption, &maxConcurrentOption, &queueOption, &allowOption,
                          &handshakeTimeoutOption, &idleTimeoutOption, &maxMessageOption, &maxConnectionsOption})
        parser.addOption(*o);
}

/// --listen, --max-duration and --iperf3-port into the config; false with a message on stderr.
bool readAddressAndDuration(const QCommandLineParser &parser, const Options &o, wb::ResponderConfig *config, quint16 *iperf3Port)
{
    config->address = QHostAddress(QHostAddress::AnyIPv4);
    if (parser.isSet(o.listenOption)) {
        QString error;
        if (!parseListen(parser.value(o.listenOption), &config->address, &config->port, &error)) {
            std::fprintf(stderr, "wirebenchd: --listen: %s\n", qPrintable(error));
            return false;
        }
    }
    double seconds = 0;
    if (!readNumber(parser, o.maxDurationOption, 1, 24 * 3600, &seconds, "a number of seconds"))
        return false;
    if (parser.isSet(o.maxDurationOption))
        config->maxDurationMs = int(seconds * 1000);

    if (parser.isSet(o.iperf3PortOption)) {
        bool ok = false;
        const uint p = parser.value(o.iperf3PortOption).toUInt(&ok);
        if (!ok || p > 65535) {
            std::fprintf(stderr, "wirebenchd: --iperf3-port: \"%s\" is not a port number (0-65535; 0 = off)\n",
                         qPrintable(parser.value(o.iperf3PortOption)));
            return false;
        }
        *iperf3Port = quint16(p);
    }

    return true;
}

/// The limits and the allow-list into the config; false with a message on stderr.
bool readLimits(const QCommandLineParser &parser, const Options &o, wb::ResponderConfig *config)
{
    config->maxQueued = 4;
    double rateMBps = 0, concurrent = config->maxConcurrent, queue = config->maxQueued, handshake = config->handshakeTimeoutMs / 1000.0,
           idle = config->idleTimeoutMs / 1000.0, maxMessage = config->maxControlMessageBytes, maxConnections = config->maxConnections;
    if (!readNumber(parser, o.maxRateOption, 0.001, 1e6, &rateMBps) || !readNumber(parser, o.maxConcurrentOption, 1, 64, &concurrent)
        || !readNumber(parser, o.queueOption, 0, 1000, &queue) || !readNumber(parser, o.handshakeTimeoutOption, 0.1, 600, &handshake)
        || !readNumber(parser, o.idleTimeoutOption, 1, 3600, &idle) || !readNumber(parser, o.maxMessageOption, 256, 16 * 1024 * 1024, &maxMessage)
        || !readNumber(parser, o.maxConnectionsOption, 1, 10000, &maxConnections))
        return false;
    config->maxRateBytesPerSec = qint64(rateMBps * 1e6);
    config->maxConcurrent = int(concurrent);
    config->maxQueued = int(queue);
    config->handshakeTimeoutMs = int(handshake * 1000);
    config->idleTimeoutMs = int(idle * 1000);
    config->maxControlMessageBytes = int(maxMessage);
    config->maxConnections = int(maxConnections);
    for (const QString &cidr : parser.values(o.allowOption)) {
        const auto net = QHostAddress::parseSubnet(cidr.trimmed());
        if (net.first.isNull()) {
            std::fprintf(stderr, "wirebenchd: --allow: \"%s\" is not a network (write e.g. 192.168.1.0/24)\n", qPrintable(cidr));
            return false;
        }
        config->allow << net;
    }

    return true;
}

/// The key, or open mode: the line that says which goes in *mode. False with a message on stderr.
bool readKey(const QCommandLineParser &parser, const Options &o, wb::ResponderConfig *config, QString *mode)
{
    // The key: asked for unless --open, or unless only this computer can reach us (as the GUI's embedded responder).
    if (parser.isSet(o.openOption)) {
        *mode = QStringLiteral("open mode: no key asked (--open)");
    } else if (isLoopback(config->address) && !parser.isSet(o.keyFileOption)) {
        *mode = QStringLiteral("open mode: loopback only");
    } else {
        const QString path = parser.isSet(o.keyFileOption) ? parser.value(o.keyFileOption) : wb::auth::defaultKeyFilePath();
        bool created = false;
        QString error;
        if (!wb::auth::loadOrCreateKeyFile(path, &config->key, &created, &error)) {
            std::fprintf(stderr, "wirebenchd: %s\n", qPrintable(error));
            return false;
        }
        if (created) {
            std::fprintf(stdout,
                         "wirebenchd: new key (shown once; enter it in the host's settings in Wirebench, or give "
                         "wirebench-cli --key):\n\n    %s\n\nIt is kept in %s (readable by this user only).\n",
                         qPrintable(config->key), qPrintable(path));
            std::fflush(stdout);
        }
        *mode = QStringLiteral("clients must prove the key in %1").arg(path);
    }

    return true;
}

/// SIGINT and SIGTERM quit the event loop; SIGPIPE is ignored. False when the socket pair cannot be made.
bool quitOnSignals(QCoreApplication &app)
{
    // Signals become a byte on a socket pair, so that the shutdown runs in the event loop, not in the handler.
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0) {
        std::perror("wirebenchd: socketpair");
        return false;
    }
    auto *notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [&app] {
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

    return true;
}

/// Serves until a signal: the control port, and the iperf3 port when asked for. Returns the exit code.
int serve(QCoreApplication &app, const wb::ResponderConfig &config, quint16 iperf3Port, const QString &mode)
{
    wb::Responder responder(config);
    QObject::connect(&responder, &wb::Responder::logLine, &app, [](const QString &line) { printLine(line); });
    QString error;
    if (!responder.start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const auto endpoint = [&config](quint16 port) {
        return config.address.protocol() == QAbstractSocket::IPv6Protocol || config.address == QHostAddress(QHostAddress::Any)
                   ? QStringLiteral("[%1]:%2").arg(config.address.toString()).arg(port)
                   : QStringLiteral("%1:%2").arg(config.address.toString()).arg(port);
    };
    const QString shown = endpoint(responder.port());
    printLine(QStringLiteral("wirebenchd %1 listening on %2 (max test %3 s, %4 at a time, queue %5%6%7; %8)")
                  .arg(QStringLiteral(WIREBENCH_VERSION), shown)
                  .arg(config.maxDurationMs / 1000.0)
                  .arg(config.maxConcurrent)
                  .arg(config.maxQueued)
                  .arg(config.maxRateBytesPerSec > 0 ? QStringLiteral(", sends at most %1 MB/s").arg(config.maxRateBytesPerSec / 1e6)
                                                     : QString())
                  .arg(config.allow.isEmpty() ? QString() : QStringLiteral(", %1 allowed networks").arg(config.allow.size()))
                  .arg(mode));
    // The iperf3 port: the same address and limits, its own port; off unless asked for.
    std::unique_ptr<wb::Iperf3Responder> iperf3;
    if (iperf3Port != 0) {
        wb::ResponderConfig iperf3Config = config;
        iperf3Config.port = iperf3Port;
        iperf3 = std::make_unique<wb::Iperf3Responder>(iperf3Config);
        // Direct: printed from the responder's thread, so that the line of a test ended by the shutdown
        // itself is not left in an event queue nobody reads any more.
        QObject::connect(iperf3.get(), &wb::Iperf3Responder::logLine, &app, [](const QString &line) { printLine(line); },
                         Qt::DirectConnection);
        if (!iperf3->start(&error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            responder.stop();
            return 1;
        }
        printLine(QStringLiteral("wirebenchd answers iperf3 clients (TCP and UDP) on %1 (one test at a time, no key: iperf3 clients cannot prove it%2)")
                      .arg(endpoint(iperf3->port()))
                      .arg(config.allow.isEmpty() ? QStringLiteral("; consider --allow") : QStringLiteral("; --allow applies")));
    }
    const int rc = app.exec();
    if (iperf3)
        iperf3->stop();
    responder.stop();
    printLine(QStringLiteral("wirebenchd stopped"));
    return rc;
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
                       "Serves one test at a time by default; clients beyond the queue get a \"busy\" reply. Data\n"
                       "flows on a separate TCP connection that the client opens to a free port per test, so let the\n"
                       "host accept TCP in general from the test clients, not only the control port.\n"
                       "Clients prove a pre-shared key (generated on the first start, shown once, kept in the key\n"
                       "file) unless --open is given; a wirebenchd listening on a loopback address only is open.\n"
                       "wirebenchd needs no root and sends traffic only to the client that asked (docs/SECURITY.md).\n"
                       "With --iperf3-port it also answers the plain iperf3 client (iperf3 -c, TCP or UDP -u, with or without -R),\n"
                       "for a computer that has nothing but iperf3 (docs/IPERF3.md)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const Options options;
    options.addTo(parser);
    parser.process(app);

    wb::ResponderConfig config;
    quint16 iperf3Port = 0;
    if (!readAddressAndDuration(parser, options, &config, &iperf3Port) || !readLimits(parser, options, &config))
        return 2;
    QString mode;
    if (!readKey(parser, options, &config, &mode) || !quitOnSignals(app))
        return 1;
    return serve(app, config, iperf3Port, mode);
}
