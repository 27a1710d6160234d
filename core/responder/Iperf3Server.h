#pragma once

#include "ServerConfig.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {

/// One iperf3 test as the iperf3 server saw it: the figures of its log line (long long: what Qt's qint64 is).
struct Iperf3TestRecord
{
    std::string client;         ///< the control connection's peer, "127.0.0.1:40512"
    bool reverse = false;       ///< -R: this responder sent
    bool udp = false;           ///< -u: datagrams rather than TCP streams
    int streams = 0;            ///< -P
    int timeSeconds = 0;        ///< -t as asked (0 with -n or -k)
    int omitSeconds = 0;        ///< -O
    int blockSize = 0;          ///< -l, bytes (with -u one datagram's payload)
    int mss = 0;                ///< TCP_INFO snd_mss of the first data stream, bytes
    long long bytes = 0;        ///< our count after the omitted seconds: received, or sent with -R
    double seconds = 0;         ///< our stream time: end of the omitted seconds to TEST_END
    long long clientBytes = -1; ///< the client's own count from its results (sent, or received with -R); -1 = none
    double clientSeconds = 0;   ///< the client's stream time from its results
    long long retransmits = -1; ///< with -R: our TCP retransmits (segments); -1 when we received
    /// --bidir (TCP): `streams` each way; bytes/seconds above are what we received, these what we sent and what the
    /// client counted of each direction (from its results; -1 = none).
    bool bidir = false;
    long long sentBytes = 0;
    long long clientSentBytes = -1;
    long long clientReceivedBytes = -1;
    // UDP (-u) only, over the measured time and all streams, as iperf3's receiver counts them:
    long long udpTargetBitsPerSec = 0; ///< -b per stream, bit/s; 0 = unlimited
    long long udpPackets = 0;          ///< datagrams: the highest counters we saw, or the ones we sent with -R
    long long udpLost = -1;            ///< gaps in the counters we saw, or with -R the client's count; -1 = not known
    long long udpOutOfOrder = 0;       ///< datagrams that came behind a later one (we received)
    double udpJitterMs = 0;       ///< RFC 1889 jitter averaged over the streams, ms (ours, or the client's with -R)
    double cpuPercent = 0;        ///< CPU time of the responder's thread over the measured time, % of one CPU
    bool completed = false;       ///< results exchanged: the client printed its summary
    bool stoppedByClient = false; ///< CLIENT_TERMINATE (Ctrl-C on iperf3 -c, Stop in Wirebench)
    std::string problem;          ///< why the test ended early; empty when it did not
};

/// An iperf3 server for TCP and UDP tests (wirebenchd --iperf3-port), so that a host running wirebenchd can
/// be tested with nothing but `iperf3 -c` on the other computer (and by Wirebench's own iperf3 drivers).
/// Speaks iperf3's control protocol (as 3.x does, checked with the Debian 3.12 client): both directions
/// (-R), -P, -O, -t/-n/-k, -l, -w, -M, -N, -C, and -b with -R; with -u the datagram streams on the same
/// port number over UDP (loss, out of order and jitter counted as iperf3's receiver does; -b paced when we
/// send; --udp-counters-64bit), and --get-server-output (Iperf3ServerOutput). Like iperf3 it serves one client
/// at a time and answers any other ACCESS_DENIED ("the server is busy running a test"); SCTP and --bidir are
/// refused with SERVER_ERROR and an iperf3 error number that the client prints in words.
/// wirebenchd's limits apply as in WirebenchdServer: --max-duration (longer requests refused; tests by byte or
/// block count ended with SERVER_TERMINATE past it), --allow, the handshake and idle timeouts, --max-rate
/// on what we send, --max-message (but never below the 64 KiB that 128 streams of results need).
/// iperf3 clients cannot prove wirebenchd's key: the iperf3 port is open to every allowed client.
/// One thread and poll(), standard C++ (Iperf3Responder is its Qt face); the log sink is called from that thread.
class Iperf3Server
{
public:
    /// config.address and config.port say where to listen (port 0 = any free port); the rest are the limits.
    Iperf3Server(const ServerConfig &config, LogSink log);
    ~Iperf3Server();
    Iperf3Server(const Iperf3Server &) = delete;
    Iperf3Server &operator=(const Iperf3Server &) = delete;

    /// Binds and starts serving. On failure returns false with a one-line reason in *error.
    bool start(std::string *error = nullptr);
    /// Ends a running test with SERVER_TERMINATE (the client prints its summary) and stops listening.
    void stop();
    bool isRunning() const;
    std::uint16_t port() const; ///< the bound port (useful with port 0)
    /// True while a client holds the server, from its control connection to the end of its test.
    bool isBusy() const;
    /// The tests served so far (the last 100), oldest first. Safe from any thread.
    std::vector<Iperf3TestRecord> tests() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace wb
