#pragma once

#include "net/SocketApi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// What `iperf3 -s` prints about one test, written as it goes, for a client that asked for it with
/// `iperf3 -c --get-server-output`: the results exchange carries it as "server_output_text" and the client
/// prints it under "Server output:" (with -J it lands in the client's JSON under the same key). Lines and
/// columns are iperf 3.12's: "Accepted connection from", one "connected to" line per stream, a report per
/// second of each stream (and [SUM] with -P), "(omitted)" during -O, and the summary ("receiver", or "sender"
/// with -R). Every figure is this server's own count, taken when it happens.
/// The client does not say whether it runs with -J, and iperf3's server sends JSON only when it runs with -J
/// itself; like a plain `iperf3 -s`, this sends text.
class Iperf3ServerOutput
{
public:
    /// One stream's counts since the start of the test (cumulative), as the server sees them.
    struct Counts
    {
        std::int64_t bytes = 0;       ///< received, or sent with -R
        std::int64_t retransmits = 0; ///< TCP -R: TCP_INFO total retransmits
        std::int64_t cwndBytes = 0;   ///< TCP -R: congestion window now
        std::int64_t packets = 0;     ///< UDP: highest counter seen, or datagrams sent with -R
        std::int64_t lost = 0;        ///< UDP, receiving: gaps in the counters
        std::int64_t outOfOrder = 0;  ///< UDP, receiving
        double jitterSeconds = 0;     ///< UDP, receiving: RFC 1889 jitter now
    };

    /// enabled false: every call is a no-op and text() is empty (the client did not ask).
    Iperf3ServerOutput(bool enabled, bool sender, bool udp);

    bool enabled() const { return m_enabled; }
    /// "Accepted connection from 127.0.0.1, port 39724": the control connection.
    void accepted(const sockaddr_storage &client);
    /// "[  5] local 127.0.0.1 port 5201 connected to 127.0.0.1 port 39740": id is the stream's socket, as iperf3 shows.
    void streamConnected(int id, const sockaddr_storage &local, const sockaddr_storage &remote);
    /// The test starts now; omitting while -O seconds run.
    void start(std::int64_t nowNs, const std::vector<Counts> &counts, bool omitting);
    /// True when a report is due (a second since the last one): then call interval().
    bool due(std::int64_t nowNs) const;
    /// Reports the interval since the last report, if it is worth a line (as iperf3: at least a tenth of a
    /// second, or bytes moved).
    void interval(std::int64_t nowNs, const std::vector<Counts> &counts);
    /// The -O seconds are over: their last interval is reported "(omitted)", and times start again from 0.
    void endOmitting(std::int64_t nowNs, const std::vector<Counts> &counts);
    /// TEST_END: the last interval, then the summary of the measured time (counts less those at its start).
    void finish(std::int64_t nowNs, const std::vector<Counts> &counts, double measuredSeconds);
    /// Everything so far, lines ending in '\n', as iperf3 joins them.
    std::string text() const;

private:
    /// The header over the interval reports and over the summary.
    std::string intervalHeader() const;
    std::string summaryHeader() const;
    std::string intervalLine(int id, double from, double to, const Counts &now, const Counts &then, bool sum) const;
    std::string summaryLine(int id, double seconds, const Counts &now, const Counts &then, bool sum) const;
    static Counts sumOf(const std::vector<Counts> &counts);

    bool m_enabled;
    bool m_sender;
    bool m_udp;
    bool m_omitting = false;
    bool m_headerShown = false;
    bool m_groupShown = false;
    std::vector<int> m_ids;
    std::vector<Counts> m_last;  ///< at the start of the current interval
    std::vector<Counts> m_base;  ///< at the start of the measured time
    std::int64_t m_originNs = 0; ///< time 0.00 of the reports
    std::int64_t m_intervalStartNs = 0;
    std::vector<std::string> m_lines;
};

} // namespace wb
