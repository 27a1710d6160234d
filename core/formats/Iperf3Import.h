#pragma once

#include "model/RunResult.h"

#include <QByteArray>
#include <QString>

namespace wb {

struct Iperf3ImportOptions
{
    int frameSize = 0; ///< 0 = infer: `-M` MSS + 40, else the path MTU iperf3 saw, else 0 (unknown)
    QString hostName;  ///< shown name; empty = the address iperf3 connected to
    QString osLabel;   ///< the server's OS label; empty = what --get-server-output said, if anything
    QString source;    ///< file name for messages; also the host name of a failed test with no address
};

/// Turns `iperf3 -J` client output into RunResults, so that existing iperf3 measurements stand next to
/// Wirebench's. Protocols: "iperf3-send" (client to server), "iperf3-recv" (-R, server to client), and for UDP
/// "iperf3-udp-send"/"iperf3-udp-recv"; a --bidir test gives one run of each direction. The figure is the
/// receiver's bytes over the receiver's seconds (end.sum_received); samples come from intervals[].sum (which
/// iperf3 counts on the client: the sender's side for "send" runs, see extra `iperf3_samples_side`).
class Iperf3Import
{
public:
    using Options = Iperf3ImportOptions;

    /// One document, or several concatenated (`for i in 1 2 3; do iperf3 -J ...; done >> all.json`); each test
    /// becomes one run (two for --bidir), repetitions counted per host and protocol in file order. A test that
    /// iperf3 reported as failed becomes a failed run carrying iperf3's error. Returns false with a one-line reason
    /// when the text holds no iperf3 result at all.
    static bool fromJson(const QByteArray &json, RunResultList *runs, QString *error = nullptr,
                         const Options &options = Options());
    static bool fromFile(const QString &path, RunResultList *runs, QString *error = nullptr,
                         const Options &options = Options());

    /// Splits concatenated JSON values at the top level (strings and escapes respected).
    static QList<QByteArray> splitDocuments(const QByteArray &text);
};

} // namespace wb
