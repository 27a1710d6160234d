#include "DaemonOptions.h"

#include "net/Address.h"
#include "wire/Text.h"
#include "wire/wirebenchd/Auth.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace wb {

namespace {

/// wirebenchd's options, in the order --help lists them: the name, the word --help shows for the value (empty for
/// a switch) and the help text, whose %1 a few fill in (the default port, the key file).
struct OptionText
{
    const char *name;
    const char *valueName;
    const char *help;
};

constexpr OptionText kOptions[] = {
    {"listen", "ADDR:PORT",
     "Address and control port to listen on: ADDR:PORT, [IPV6]:PORT or PORT (default "
     "0.0.0.0:%1; [::]:%1 listens on IPv6 and IPv4)."},
    {"iperf3-port", "PORT",
     "Also answer iperf3 clients (iperf3 -c, TCP or UDP, both directions) on this port of the "
     "--listen address (UDP tests: the same port number over UDP), e.g. 5201 (default 0: "
     "off). One iperf3 test at a time; --max-duration, --allow, --max-rate and the timeouts "
     "apply; iperf3 clients cannot prove the key, so limit them with --allow."},
    {"max-duration", "SECONDS", "Longest test accepted, in seconds (default 60)."},
    {"key-file", "PATH",
     "File with the pre-shared key; created (mode 0600) with a new key when missing (default: "
     "%1)."},
    {"open", "", "Open mode: serve clients without a key. Only on networks you trust."},
    {"max-rate", "MBPS", "Cap on what wirebenchd sends (tcp-recv tests), in MB/s (10^6 bytes/s; default: no cap)."},
    {"max-concurrent", "N", "Tests run at the same time (default 1)."},
    {"queue", "N", "Clients that wait for a free test slot (default 4); the next one gets \"busy\"."},
    {"allow", "CIDR",
     "Serve only clients in this network (CIDR, e.g. 192.168.1.0/24 or 2001:db8::/32); repeatable. "
     "Default: every client."},
    {"handshake-timeout", "SECONDS", "Seconds a new client has to send its hello and key proof (default 5)."},
    {"idle-timeout", "SECONDS", "Seconds of silence after the handshake before a client is dropped (default 15)."},
    {"max-message", "BYTES",
     "Largest control message accepted, in bytes (default 65536; before authentication at "
     "most 4096)."},
    {"max-connections", "N", "Connections handled at once, at any stage (default 32); more are closed at once."},
    {"max-unproven-per-address", "N",
     "Connections one client address may hold before they prove the key (in --open mode: before their hello), so "
     "that a flood from one address leaves room for the others (default 4); more from it are closed at once."},
    {"probe-listen", "ADDR:PORT",
     "Also answer Prometheus on this address and port (e.g. 0.0.0.0:9531): GET "
     "/probe?target=HOST&plan=NAME runs the plan NAME of --probe-plans from this host to "
     "HOST, one of the plan's hosts, with the wirebench-cli installed beside wirebenchd, and "
     "answers its figures as metrics (docs/SCALE.md). One probe at a time; --allow applies. "
     "Linux only for now (default: off)."},
    {"probe-plans", "DIR", "The folder of plan files (NAME.wbplan.json) a probe may run (default %1)."},
    {"probe-max-duration", "SECONDS",
     "Longest plan a probe runs, in seconds (default 30); a scraper's "
     "X-Prometheus-Scrape-Timeout-Seconds shortens it."},
    {"probe-key-file", "PATH",
     "The key of the targets' wirebenchd, which the probes' wirebench-cli proves (default: "
     "none, for targets in open mode)."},
    {"probe-secrets", "PATH",
     "The targets' passwords and keys, one line per host and key ('lab-srv smb.password=...'), "
     "which the probes' wirebench-cli reads (its --secrets: mode 0600 or it refuses; default: none)."},
    {"probe-cli", "PATH", "The wirebench-cli that runs the probes (default: the one beside wirebenchd)."},
    {"probe-request-timeout", "SECONDS",
     "Seconds a scraper has to send its whole request head (default 5); a slower one gets 408."},
    {"probe-max-per-address", "N",
     "Requests one address may have in flight at the probe endpoint (default 2; 8 from all addresses); more from "
     "it get 429 at once, so that slow requests from one address leave Prometheus its scrapes."},
    {"service", "",
     "Windows: run as the service wirebenchd of the service control manager (sc.exe create wirebenchd "
     "binPath= \"...\\wirebenchd.exe --service --config ...\"); the log goes to "
     "%ProgramData%\\Wirebench\\wirebenchd.log."},
    {"config", "FILE",
     "Options read from FILE, one a line as on the command line (--listen 0.0.0.0:5301; a line "
     "starting with # is a comment); an option given again after --config wins."},
};

constexpr char kDescription[]
    = "The Wirebench responder: answers throughput tests from wirebench and wirebench-cli.\n"
      "Serves one test at a time by default; clients beyond the queue get a \"busy\" reply. Data\n"
      "flows on a separate TCP connection that the client opens to a free port per test, so let the\n"
      "host accept TCP in general from the test clients, not only the control port.\n"
      "Clients prove a pre-shared key (generated on the first start, shown once, kept in the key\n"
      "file) unless --open is given; a wirebenchd listening on a loopback address only is open.\n"
      "wirebenchd needs no root and sends traffic only to the client that asked (docs/SECURITY.md); with\n"
      "--probe-listen its probes also test the hosts its probe plans name, for Prometheus (docs/SCALE.md).\n"
      "With --iperf3-port it also answers the plain iperf3 client (iperf3 -c, TCP or UDP -u, with or without -R),\n"
      "for a computer that has nothing but iperf3 (docs/IPERF3.md).\n";

constexpr char kDefaultProbePlans[] = "/etc/wirebench/plans";

const OptionText *find(const std::string &name)
{
    const auto *row
        = std::find_if(std::begin(kOptions), std::end(kOptions), [&](const OptionText &o) { return name == o.name; });
    return row == std::end(kOptions) ? nullptr : row;
}

/// The text, words wrapped at 80 columns, every line but the first indented by `indent`.
std::string wrapped(const std::string &text, std::size_t indent, std::size_t firstColumn)
{
    std::string out;
    std::size_t column = firstColumn;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        const std::string word = text.substr(at, end - at);
        if (column > indent && column + 1 + word.size() > 80) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
        } else if (column > indent) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
        at = end + 1;
    }
    return out;
}

/// "ADDR:PORT", "[V6]:PORT", "ADDR" or ":PORT" / "PORT".
bool parseListen(const std::string &input, platform::IpAddress *address, std::uint16_t *port, std::string *error)
{
    std::string host = wire::trimmed(input);
    std::string portText;
    if (!host.empty() && host.front() == '[') {
        const auto close = host.find(']');
        if (close == std::string::npos) {
            *error = wire::Arg("missing ']' in \"%1\"").arg(input);
            return false;
        }
        portText = host.substr(close + 1);
        host = host.substr(1, close - 1);
        if (!portText.empty()) {
            if (portText.front() != ':') {
                *error = wire::Arg("expected ':PORT' after ']' in \"%1\"").arg(input);
                return false;
            }
            portText = portText.substr(1);
        }
    } else if (std::count(host.begin(), host.end(), ':') == 1) {
        const auto colon = host.find(':');
        portText = host.substr(colon + 1);
        host = host.substr(0, colon);
    } else if (!host.empty() && host.find_first_not_of("0123456789") == std::string::npos && host.size() <= 5) {
        portText = host;
        host.clear();
    }
    if (host.empty()) {
        *address = *net::parseAddress("0.0.0.0");
    } else if (host == "*") {
        *address = net::anyAddress();
    } else if (const auto parsed = net::parseAddress(host)) {
        *address = *parsed;
    } else {
        *error = wire::Arg("\"%1\" is not an IPv4 or IPv6 address (use e.g. 0.0.0.0 or [::])").arg(host);
        return false;
    }
    if (!portText.empty()) {
        char *end = nullptr;
        const unsigned long p = std::strtoul(portText.c_str(), &end, 10);
        if (!end || *end != '\0' || portText.find_first_not_of("0123456789") != std::string::npos || p > 65535) {
            *error = wire::Arg("\"%1\" is not a port number (0-65535)").arg(portText);
            return false;
        }
        *port = std::uint16_t(p);
    }
    return true;
}

/// The options of a configuration file as command-line words: "--name value" (or "name value") a line, the value
/// the rest of the line (a path may hold spaces). False with a message on stderr.
bool readConfig(const std::string &path, std::vector<std::string> *words)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "wirebenchd: cannot read the configuration %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), f)) {
        std::string line = wire::trimmed(buffer);
        if (line.empty() || line.front() == '#')
            continue;
        const std::size_t space = line.find_first_of(" \t=");
        std::string name = line.substr(0, space);
        name = "--"
            + name.substr(name.find_first_not_of('-') == std::string::npos ? name.size() : name.find_first_not_of('-'));
        if (name == "--config") {
            std::fclose(f);
            std::fprintf(stderr, "wirebenchd: %s: a configuration cannot name another (--config)\n", path.c_str());
            return false;
        }
        words->push_back(name);
        if (space != std::string::npos) {
            const std::string value = wire::trimmed(line.substr(space + 1));
            if (!value.empty())
                words->push_back(value);
        }
    }
    std::fclose(f);
    return true;
}

} // namespace

void DaemonOptions::printHelp(const char *program)
{
    std::printf("Usage: %s [options]\n%s\nOptions:\n", program, kDescription);
    std::printf("  -h, --help                     Displays help on commandline options.\n");
    std::printf("  -v, --version                  Displays version information.\n");
    for (const OptionText &o : kOptions) {
        std::string left
            = std::string("  --") + o.name + (*o.valueName ? std::string(" <") + o.valueName + ">" : std::string());
        left.resize(std::max<std::size_t>(left.size() + 1, 33), ' ');
        std::string help = o.help;
        if (std::strcmp(o.name, "listen") == 0)
            help = wire::Arg(help).arg(control::kDefaultPort);
        else if (std::strcmp(o.name, "key-file") == 0)
            help = wire::Arg(help).arg(auth::defaultKeyFilePath());
        else if (std::strcmp(o.name, "probe-plans") == 0)
            help = wire::Arg(help).arg(kDefaultProbePlans);
        std::printf("%s%s\n", left.c_str(), wrapped(help, 33, left.size()).c_str());
    }
}

int DaemonOptions::parse(int argc, char *argv[])
{
    m_program = argc > 0 ? argv[0] : "wirebenchd";
    std::vector<std::string> words(argv + 1, argv + argc);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string word = words[i];
        if (word == "-h" || word == "--help" || word == "-?") {
            printHelp(argv[0]);
            return 0;
        }
        if (word == "-v" || word == "--version") {
            std::printf("wirebenchd %s\n", WIREBENCH_VERSION);
            return 0;
        }
        std::string name = word.rfind("--", 0) == 0 ? word.substr(2)
            : word.rfind('-', 0) == 0               ? word.substr(1)
                                                    : std::string();
        std::string inlineValue;
        const bool hasInline = name.find('=') != std::string::npos;
        if (hasInline) {
            inlineValue = name.substr(name.find('=') + 1);
            name = name.substr(0, name.find('='));
        }
        const OptionText *row = find(name);
        if (!row) {
            std::fprintf(stderr, "wirebenchd: %s '%s'.\n", name.empty() ? "Unexpected argument" : "Unknown option",
                         name.empty() ? word.c_str() : name.c_str());
            return 1;
        }
        if (!*row->valueName) {
            m_values[name].push_back("1");
            continue;
        }
        if (!hasInline && i + 1 >= words.size()) {
            std::fprintf(stderr, "wirebenchd: Missing value after '%s'.\n", word.c_str());
            return 1;
        }
        const std::string optionValue = hasInline ? inlineValue : words[++i];
        if (name == "config") { // the file's options stand where --config stood
            std::vector<std::string> fromFile;
            if (!readConfig(optionValue, &fromFile))
                return 1;
            words.insert(words.begin() + std::ptrdiff_t(i) + 1, fromFile.begin(), fromFile.end());
            continue;
        }
        m_values[name].push_back(optionValue);
    }
    open = has("open");
    service = has("service");
    keyFile = has("key-file") ? value("key-file") : std::string();
    return -1;
}

bool DaemonOptions::readNumber(const char *name, double minValue, double maxValue, double *out, const char *what) const
{
    if (!has(name))
        return true;
    const std::string text = wire::trimmed(value(name));
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || !end || *end != '\0' || v < minValue || v > maxValue) {
        std::fprintf(stderr, "wirebenchd: --%s: \"%s\" is not %s from %g to %g\n", name, value(name).c_str(), what,
                     minValue, maxValue);
        return false;
    }
    *out = v;
    return true;
}

bool DaemonOptions::readAddressAndDuration(ServerConfig *config, std::uint16_t *iperf3Port) const
{
    config->address = *net::parseAddress("0.0.0.0");
    if (has("listen")) {
        std::string error;
        if (!parseListen(value("listen"), &config->address, &config->port, &error)) {
            std::fprintf(stderr, "wirebenchd: --listen: %s\n", error.c_str());
            return false;
        }
    }
    double seconds = 0;
    if (!readNumber("max-duration", 1, 24 * 3600, &seconds, "a number of seconds"))
        return false;
    if (has("max-duration"))
        config->maxDurationMs = int(seconds * 1000);
    if (has("iperf3-port")) {
        const std::string text = value("iperf3-port");
        const bool digits
            = !text.empty() && text.size() <= 5 && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoul(text) > 65535) {
            std::fprintf(stderr, "wirebenchd: --iperf3-port: \"%s\" is not a port number (0-65535; 0 = off)\n",
                         text.c_str());
            return false;
        }
        *iperf3Port = std::uint16_t(std::stoul(text));
    }
    return true;
}

bool DaemonOptions::readLimits(ServerConfig *config) const
{
    config->maxQueued = 4;
    double rateMBps = 0, concurrent = config->maxConcurrent, queue = config->maxQueued,
           handshake = config->handshakeTimeoutMs / 1000.0, idle = config->idleTimeoutMs / 1000.0,
           maxMessage = config->maxControlMessageBytes, maxConnections = config->maxConnections,
           unprovenPerAddress = config->maxUnprovenPerAddress;
    if (!readNumber("max-rate", 0.001, 1e6, &rateMBps) || !readNumber("max-concurrent", 1, 64, &concurrent)
        || !readNumber("queue", 0, 1000, &queue) || !readNumber("handshake-timeout", 0.1, 600, &handshake)
        || !readNumber("idle-timeout", 1, 3600, &idle) || !readNumber("max-message", 256, 16 * 1024 * 1024, &maxMessage)
        || !readNumber("max-connections", 1, 10000, &maxConnections)
        || !readNumber("max-unproven-per-address", 1, 10000, &unprovenPerAddress))
        return false;
    config->maxRateBytesPerSec = std::int64_t(rateMBps * 1e6);
    config->maxConcurrent = int(concurrent);
    config->maxQueued = int(queue);
    config->handshakeTimeoutMs = int(handshake * 1000);
    config->idleTimeoutMs = int(idle * 1000);
    config->maxControlMessageBytes = int(maxMessage);
    config->maxConnections = int(maxConnections);
    config->maxUnprovenPerAddress = int(unprovenPerAddress);
    if (has("allow")) {
        for (const std::string &cidr : m_values.at("allow")) {
            const auto net = net::Subnet::parse(wire::trimmed(cidr));
            if (!net) {
                std::fprintf(stderr, "wirebenchd: --allow: \"%s\" is not a network (write e.g. 192.168.1.0/24)\n",
                             cidr.c_str());
                return false;
            }
            config->allow.push_back(*net);
        }
    }
    return true;
}

bool DaemonOptions::toConfig(ServerConfig *config, std::uint16_t *iperf3Port) const
{
    return readAddressAndDuration(config, iperf3Port) && readLimits(config);
}

bool DaemonOptions::toProbeConfig(const ServerConfig &server, probe::ProbeConfig *config, bool *enabled) const
{
    *enabled = has("probe-listen");
    if (!*enabled) {
        for (const char *name : {"probe-plans", "probe-max-duration", "probe-key-file", "probe-secrets", "probe-cli",
                                 "probe-request-timeout", "probe-max-per-address"})
            if (has(name)) {
                std::fprintf(stderr, "wirebenchd: --%s goes with --probe-listen ADDR:PORT\n", name);
                return false;
            }
        return true;
    }
    std::string error;
    if (!parseListen(value("probe-listen"), &config->address, &config->port, &error)) {
        std::fprintf(stderr, "wirebenchd: --probe-listen: %s\n", error.c_str());
        return false;
    }
    double seconds = config->maxDurationMs / 1000.0;
    if (!readNumber("probe-max-duration", 1, 3600, &seconds, "a number of seconds"))
        return false;
    config->maxDurationMs = int(seconds * 1000);
    double perAddress = config->maxPerAddress, requestTimeout = config->requestTimeoutMs / 1000.0;
    if (!readNumber("probe-max-per-address", 1, 1000, &perAddress)
        || !readNumber("probe-request-timeout", 0.1, 600, &requestTimeout, "a number of seconds"))
        return false;
    config->maxPerAddress = int(perAddress);
    config->requestTimeoutMs = int(requestTimeout * 1000);
    config->planDirectory = has("probe-plans") ? value("probe-plans") : kDefaultProbePlans;
    config->keyFile = has("probe-key-file") ? value("probe-key-file") : std::string();
    config->secretsFile = has("probe-secrets") ? value("probe-secrets") : std::string();
    // wirebench-cli from wirebenchd's own folder; a wirebenchd found through PATH finds it there too.
    const std::size_t slash = m_program.find_last_of('/');
    config->cliPath = has("probe-cli") ? value("probe-cli")
        : slash == std::string::npos   ? std::string("wirebench-cli")
                                       : m_program.substr(0, slash + 1) + "wirebench-cli";
    config->allow = server.allow;
    return true;
}

} // namespace wb
