// wirebenchd: the far end of a Wirebench test. A thin main around wb::WirebenchdServer and wb::Iperf3Server, in
// standard C++ on the platform layer: it links no Qt (wirebench_responder), so it stays small on a server.
#include "DaemonOptions.h"
#include "DaemonSystem.h"

#include "net/Address.h"
#include "probe/ProbeProcess.h"
#include "probe/ProbeServer.h"
#include "responder/Iperf3Server.h"
#include "responder/WirebenchdServer.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"
#include "wire/wirebenchd/Auth.h"

#include <cstdio>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>

namespace {

using wb::wire::Arg;

std::mutex g_printMutex;

/// One log line with the local time in front. The servers' lines come escaped and capped already
/// (wire::safeLogLine); ours too pass through it, which leaves an escaped line as it is.
void printLine(const std::string &line)
{
    const std::tm local = wb::DaemonSystem::localTime(std::time(nullptr));
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &local);
    const std::string text = std::string(stamp) + " " + wb::wire::safeLogLine(line);
    std::lock_guard lk(g_printMutex);
    std::fprintf(stdout, "%s\n", text.c_str());
    std::fflush(stdout);
}

/// The key, or open mode: the line that says which goes in *mode. False with a message on stderr.
bool readKey(const wb::DaemonOptions &options, wb::ServerConfig *config, std::string *mode)
{
    // The key: asked for unless --open, or unless only this computer can reach us (as the GUI's embedded responder).
    if (options.open) {
        *mode = "open mode: no key asked (--open)";
        return true;
    }
    if (wb::net::isLoopback(config->address) && options.keyFile.empty()) {
        *mode = "open mode: loopback only";
        return true;
    }
    const std::string path = options.keyFile.empty() ? wb::auth::defaultKeyFilePath() : options.keyFile;
    bool created = false;
    std::string error;
    if (!wb::auth::loadOrCreateKeyFile(path, &config->key, &created, &error)) {
        std::fprintf(stderr, "wirebenchd: %s\n", error.c_str());
        return false;
    }
    if (created && options.service) {
        // A service's log is read by others than the administrator: the key stays in its file alone.
        std::fprintf(stdout, "wirebenchd: new key made: an administrator reads it from %s\n", path.c_str());
        std::fflush(stdout);
    } else if (created) {
        std::fprintf(stdout,
                     "wirebenchd: new key (shown once; enter it in the host's settings in Wirebench, or give "
                     "wirebench-cli --key):\n\n    %s\n\nIt is kept in %s (readable by this user only).\n",
                     config->key.c_str(), path.c_str());
        std::fflush(stdout);
    }
    *mode = "clients must prove the key in " + path;
    return true;
}

/// "0.0.0.0:5301", "[::]:5301".
std::string endpoint(const wb::platform::IpAddress &address, std::uint16_t port)
{
    const std::string host = wb::net::addressText(address);
    return address.family == wb::platform::IpAddress::Family::V6 ? Arg("[%1]:%2").arg(host).arg(port)
                                                                 : Arg("%1:%2").arg(host).arg(port);
}

std::string listeningLine(const wb::ServerConfig &config, std::uint16_t port, const std::string &mode)
{
    return Arg("wirebenchd %1 listening on %2 (max test %3 s, %4 at a time, queue %5%6%7; %8)")
        .arg(WIREBENCH_VERSION, endpoint(config.address, port))
        .arg(config.maxDurationMs / 1000.0)
        .arg(config.maxConcurrent)
        .arg(config.maxQueued)
        .arg(config.maxRateBytesPerSec > 0
                 ? Arg(", sends at most %1 MB/s").arg(double(config.maxRateBytesPerSec) / 1e6).str()
                 : std::string())
        .arg(config.allow.empty() ? std::string() : Arg(", %1 allowed networks").arg(config.allow.size()).str())
        .arg(mode);
}

/// The probe endpoint when --probe-listen asks for it (nullptr when not; *failed with the reason on stderr).
std::unique_ptr<wb::probe::ProbeServer> startProbes(const wb::probe::ProbeConfig *config, bool *failed)
{
    *failed = false;
    if (!config)
        return nullptr;
    auto server = std::make_unique<wb::probe::ProbeServer>(*config, printLine);
    std::string error;
    if (!server->start(&error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        *failed = true;
        return nullptr;
    }
    printLine(
        Arg("wirebenchd answers probes (GET /probe?target=HOST&plan=NAME) on %1: plans from %2, at most %3 s each, one "
            "at a time, run by %4%5")
            .arg(endpoint(config->address, server->port()), config->planDirectory)
            .arg(config->maxDurationMs / 1000.0)
            .arg(config->cliPath)
            .arg(config->allow.empty() ? "; consider --allow" : "; --allow applies"));
    return server;
}

/// Serves until a stop is asked for (SIGINT, SIGTERM, Ctrl-C: DaemonSystem): the control port, and the iperf3 port
/// and the probe endpoint when asked for. Returns the exit code.
int serve(const wb::ServerConfig &config, std::uint16_t iperf3Port, const wb::probe::ProbeConfig *probes,
          const std::string &mode)
{
    wb::WirebenchdServer server(config, printLine);
    std::string error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    printLine(listeningLine(config, server.port(), mode));
    // The iperf3 port: the same address and limits, its own port; off unless asked for.
    std::unique_ptr<wb::Iperf3Server> iperf3;
    if (iperf3Port != 0) {
        wb::ServerConfig iperf3Config = config;
        iperf3Config.port = iperf3Port;
        iperf3 = std::make_unique<wb::Iperf3Server>(iperf3Config, printLine);
        if (!iperf3->start(&error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            server.stop();
            return 1;
        }
        printLine(
            Arg("wirebenchd answers iperf3 clients (TCP and UDP) on %1 (one test at a time, no key: iperf3 clients "
                "cannot prove it%2)")
                .arg(endpoint(config.address, iperf3->port()))
                .arg(config.allow.empty() ? "; consider --allow" : "; --allow applies"));
    }
    bool probesFailed = false;
    std::unique_ptr<wb::probe::ProbeServer> probeServer = startProbes(probes, &probesFailed);
    if (probesFailed) {
        if (iperf3)
            iperf3->stop();
        server.stop();
        return 1;
    }
    wb::DaemonSystem::waitForStop();
    if (probeServer)
        probeServer->stop();
    if (iperf3)
        iperf3->stop();
    server.stop();
    printLine("wirebenchd stopped");
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    wb::DaemonOptions options;
    if (const int rc = options.parse(argc, argv); rc >= 0)
        return rc; // --help, --version, or a bad command line (said on stderr)
    wb::ServerConfig config;
    std::uint16_t iperf3Port = 0;
    if (!options.toConfig(&config, &iperf3Port))
        return 2;
    wb::probe::ProbeConfig probeConfig;
    bool probes = false;
    if (!options.toProbeConfig(config, &probeConfig, &probes))
        return 2;
    if (probes && !wb::probe::ProbeProcess::supported()) {
        std::fprintf(stderr,
                     "wirebenchd: --probe-listen: probes are Linux-only for now (they run wirebench-cli, which "
                     "this build does not have); run the probes from a Linux wirebenchd\n");
        return 2;
    }
    std::string error;
    if (probes && !wb::probe::ProbeServer::checkPlanDirectory(probeConfig.planDirectory, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    if (!wb::DaemonSystem::prepare(options.service, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    std::string mode;
    if (!readKey(options, &config, &mode))
        return 1;
    return wb::DaemonSystem::run(options.service,
                                 [&] { return serve(config, iperf3Port, probes ? &probeConfig : nullptr, mode); });
}
