#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb::iperf3 {

// Facts of the iperf3 control protocol (as spoken by iperf 3.x, checked against 3.12). The numbers are
// the wire values of iperf.h and iperf_api.h; our own code speaks them, libiperf is not linked. Standard C++
// (bytes and JSON text as std::string), so that the Qt-free wirebenchd speaks it too.

constexpr std::uint16_t kDefaultPort = 5201;
constexpr int kCookieSize = 37;                ///< 36 characters and a NUL, on the control and every data connection
constexpr int kMaxStreams = 128;               ///< iperf3's MAX_STREAMS (-P)
constexpr int kMaxBlockSize = 1024 * 1024;     ///< iperf3's MAX_BLOCKSIZE for TCP (-l)
constexpr int kMaxMss = 9 * 1024;              ///< iperf3's MAX_MSS (-M)
constexpr int kMaxJsonBytes = 4 * 1024 * 1024; ///< a longer results message is treated as garbage

/// The one-byte states the two ends exchange on the control connection.
enum State : signed char {
    TestStart = 1,
    TestRunning = 2,
    TestEnd = 4,
    ParamExchange = 9,
    CreateStreams = 10,
    ServerTerminate = 11,
    ClientTerminate = 12,
    ExchangeResults = 13,
    DisplayResults = 14,
    IperfStart = 15,
    IperfDone = 16,
    AccessDenied = -1,
    ServerError = -2,
};

/// A few of iperf3's i_errno values that a server sends after SERVER_ERROR.
enum ErrorCode {
    ErrDuration = 5,       ///< IEDURATION: the client prints "test duration valid values are 0 to 86400 seconds"
    ErrNumStreams = 6,     ///< IENUMSTREAMS
    ErrBlockSize = 7,      ///< IEBLOCKSIZE
    ErrMss = 10,           ///< IEMSS
    ErrUnimplemented = 13, ///< IEUNIMP: "an option you are trying to set is not implemented yet"
    ErrNoSctp = 18,        ///< IENOSCTP: "no SCTP support available"
    ErrListen = 102,       ///< IELISTEN: the client appends our errno ("...: Protocol not supported")
    ErrRecvParams = 114,   ///< IERECVPARAMS
    ErrRecvResults = 117,  ///< IERECVRESULTS
    ErrAccessDenied = 121,
    ErrSetMss = 123,
    ErrSetBuf = 124,
    ErrAuthTest = 142,
};

/// "TEST_RUNNING" for 2, "state 77" for anything unknown.
std::string stateName(int state);
/// True for the state bytes an iperf3 server may send.
bool isKnownState(int state);
/// Plain words for an i_errno value sent by a server, e.g. "the server could not set the MSS".
std::string serverErrorText(int code);

/// A fresh cookie: 36 characters of iperf3's alphabet followed by a NUL (37 bytes).
std::string makeCookie();

/// The id iperf3 gives the n-th stream (0-based): 1, 3, 4, 5, ... (an iperf3 quirk both ends share).
int streamId(int index);

/// What a server sends to refuse or abort a test: SERVER_ERROR, then iperf3's error number and the
/// errno, each as a 4-byte big-endian integer (the client prints iperf3's text for the number and, for
/// some numbers, strerror of the errno).
std::string serverErrorMessage(int code, int sysErrno = 0);

/// A JSON control message: 4-byte big-endian length, then the JSON text.
std::string frameJson(const std::string &json);
/// Decodes the 4-byte length prefix; -1 when it is negative or above kMaxJsonBytes.
std::int64_t decodeJsonLength(const std::string &prefix);

/// What the client asks for in PARAM_EXCHANGE.
struct TestParameters
{
    bool reverse = false;
    bool bidirectional = false; ///< --bidir: `parallel` streams each way, the client's sending ones opened first
    int omitSeconds = 0;
    int timeSeconds = 10;
    int parallel = 1;
    int blockSize = 128 * 1024; ///< "len"
    int window = 0;             ///< socket buffer, 0 = not sent
    int mss = 0;                ///< 0 = not sent
    std::string clientVersion = "3.12";
    bool udp = false;           ///< "udp" instead of "tcp" (-u); blockSize is then the datagram payload
    std::int64_t bandwidth = 0; ///< -b in bit/s per stream, 0 = not sent

    std::string toJson() const;
};

/// CPU time the calling thread has used (user and system, seconds), for the cpu_util_* figures of the
/// results exchange: the peer's I/O all runs on one thread.
struct ThreadCpuTimes
{
    double user = 0;
    double system = 0;
    static ThreadCpuTimes now();
};

/// What a server reads in PARAM_EXCHANGE: the TCP test and the requests it may have to refuse.
struct ClientParameters
{
    TestParameters test;          ///< blockSize 0 = not sent (iperf3's default then is 128 KiB)
    std::string protocol = "tcp"; ///< "tcp", "udp" or "sctp"
    bool bidirectional = false;   ///< --bidir
    std::int64_t bytes = 0;       ///< -n, 0 = the test ends by time
    std::int64_t blocks = 0;      ///< -k
    std::int64_t bitrate = 0;     ///< -b, bit/s per stream, 0 = unlimited
    bool noDelay = false;         ///< -N
    std::string congestion;       ///< -C
    bool hasAuthToken = false;    ///< the client sent --username credentials
    bool udpCounters64 = false;   ///< --udp-counters-64bit: UDP headers carry a 64-bit counter (16 bytes)
    bool getServerOutput = false; ///< --get-server-output: the server's results carry what it printed

    /// Parses a client's parameters; on malformed input returns false with a reason in *error.
    static bool fromJson(const std::string &json, ClientParameters *out, std::string *error);
};

/// One stream's figures in the results exchange.
struct StreamResult
{
    int id = 0;
    std::int64_t bytes = 0;
    int retransmits = -1; ///< -1 = not known (the receiver's side)
    double jitter = 0;
    std::int64_t errors = 0;
    std::int64_t packets = 0;
    double startTime = 0; ///< seconds, relative to the stream's own start
    double endTime = 0;
    std::int64_t omittedErrors = 0;  ///< UDP: errors counted before the omit timer fired
    std::int64_t omittedPackets = 0; ///< UDP: packets counted before the omit timer fired
};

/// The results JSON each side sends in EXCHANGE_RESULTS.
struct Results
{
    double cpuTotal = 0; ///< percent of one CPU
    double cpuUser = 0;
    double cpuSystem = 0;
    int senderHasRetransmits = -1; ///< 1 when the sender counts retransmits, -1 from a receiver
    std::vector<StreamResult> streams;
    std::string serverOutputText; ///< "server_output_text": what the server printed (--get-server-output); empty = none

    std::string toJson() const;
    /// Parses a peer's results; on malformed input returns false with a reason in *error.
    static bool fromJson(const std::string &json, Results *out, std::string *error);

    std::int64_t totalBytes() const;
    double longestSeconds() const; ///< the longest end - start over the streams
    int totalRetransmits() const;  ///< -1 when no stream counted any
};

// UDP (-u), as iperf3 3.12 puts it on the wire.

constexpr int kMinUdpBlockSize = 16;       ///< room for the header with a 64-bit counter
constexpr int kMaxUdpBlockSize = 65507;    ///< iperf3's MAX_UDP_BLOCKSIZE: 65535 - 20 (IPv4) - 8 (UDP)
constexpr int kDefaultUdpBlockSize = 1460; ///< iperf3's DEFAULT_UDP_BLKSIZE
constexpr int kUdpHeaderSize = 12;         ///< sec, usec, 32-bit counter (16 with udp_counters_64bit)

/// The datagram a client sends to open a UDP stream. iperf3 writes the 32-bit UDP_CONNECT_MSG
/// (0x36373839) in host order, so a little-endian client puts the bytes "9876" on the wire.
std::string udpConnectMessage();
/// The server's answer to udpConnectMessage(): UDP_CONNECT_REPLY (0x39383736) in host order, as
/// iperf3 3.12's server writes it.
std::string udpConnectReply();
/// True for the server's answer to udpConnectMessage(): UDP_CONNECT_REPLY (0x39383736) or the legacy
/// 987654321, written in either byte order (the server writes them in its own host order).
bool isUdpConnectReply(const std::string &datagram);

/// The header iperf3 puts at the start of every UDP datagram, all in network order: the sender's clock
/// (seconds, microseconds) and the datagram's counter, which starts at 1.
struct UdpHeader
{
    std::uint32_t sec = 0;
    std::uint32_t usec = 0;
    std::uint64_t counter = 0;

    /// Writes the header into the first 12 (or 16 with 64-bit counters) bytes of a datagram.
    void write(char *datagram, bool counters64 = false) const;
    /// Reads it back; false when the datagram is too short to hold it.
    static bool read(const char *datagram, std::int64_t size, bool counters64, UdpHeader *out);
};

/// The receiver's bookkeeping of one UDP stream, as iperf3's iperf_udp_recv keeps it: a counter
/// ahead of the next expected one counts the gap as lost; one behind it is out of order and takes one
/// back from the lost count; jitter is RFC 1889's running estimate J += (|D| - J) / 16 of the change
/// in transit time. Unlike iperf3 the first datagram only sets the reference transit time, so a clock
/// offset between the hosts does not leak into the first estimate.
struct UdpReceiveStats
{
    std::int64_t packets = 0; ///< the highest counter seen (iperf3's packet_count)
    std::int64_t lost = 0;    ///< iperf3's cnt_error
    std::int64_t outOfOrder = 0;
    double jitter = 0; ///< seconds
    double previousTransit = 0;
    bool hasTransit = false;

    /// One datagram: its counter, when it was sent (sender's clock) and when it arrived (ours), seconds.
    void add(std::uint64_t counter, double sentSeconds, double arrivalSeconds);
};

} // namespace wb::iperf3
