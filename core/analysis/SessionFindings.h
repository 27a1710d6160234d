#pragma once

#include "model/RunResult.h"
#include "stats/Statistics.h"
#include "stats/TestSummary.h"
#include "storage/StoreTypes.h"

#include <QList>
#include <QString>

namespace wb {

/// One conclusion that only several tests of a session support together, as one plain sentence with its
/// figures (MB/s = 10^6 bytes/s) and the tests it rests on.
struct Finding
{
    enum class Kind {
        NetworkOrServer, ///< a file transfer against a bare TCP stream to the same host, same direction
        FrameSizes,      ///< one test at two frame sizes: throughput and CPU per GB on both ends
        Servers,         ///< the same test on two hosts
        LocalDisk,       ///< a transfer at the pace of this computer's disk, which the network outran
    };
    Kind kind = Kind::NetworkOrServer;
    QString host;     ///< the host it is about (the first of the two for Servers)
    QString protocol; ///< the test's protocol id
    QString sentence;
};
using FindingList = QList<Finding>;

/// What a session's tests prove together (issue 14, part 2). Pure: a function of the results alone, each
/// test summarized over its successful repetitions; a difference is "beyond the noise" only when the 95%
/// confidence intervals of the two means do not overlap, and nothing is claimed from one run each.
class SessionFindings
{
public:
    /// where: how the sentences name the runs' scope ("in this session"; the Compare view's runs may come
    /// from several sessions).
    static FindingList of(const RunResultList &results, const QString &where = QStringLiteral("in this session"));
    /// One session's findings; a transfer to a host the session sent no TCP stream to (in its direction) is
    /// judged by one of `earlier` instead: TCP streams the result store kept from the hour before the session
    /// (StoredStreams::before), and the sentence says when and which session.
    static FindingList of(const RunResultList &results, const StoredRunList &earlier);

    /// "beyond the noise", "within the noise" or "one run each, too few to tell it from noise" for two
    /// summaries of the same figure.
    static QString noise(const Summary &a, const Summary &b);

private:
    static FindingList find(const RunResultList &results, const QString &where, const StoredRunList &earlier);
    static FindingList networkOrServer(const QList<TestSummary> &tests, const RunResultList &results,
                                       const QString &where, const StoredRunList &earlier);
    /// The LocalDisk sentence for a transfer judged by a stream of networkMBps measured `where`; empty when the disk
    /// was not the limit or was not measured (TransferRun's local_disk_rate_MBps).
    static QString localDisk(const TestSummary &t, const RunResultList &results, double networkMBps,
                             const QString &where);
    static FindingList frameSizes(const QList<TestSummary> &tests, const RunResultList &results);
    static FindingList servers(const QList<TestSummary> &tests, const RunResultList &results);
};

} // namespace wb
