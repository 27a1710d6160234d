#pragma once

#include "model/RunResult.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace wb {

/// One row per run, RFC 4180 quoting, a header row whose throughput columns name their unit
/// (throughput_MBps = 10^6 bytes/s, throughput_Mbps = 10^6 bits/s). Column names match the JSON keys.
class CsvExport
{
public:
    /// The fixed columns, in order; the keys of RunResult::extra found in the results follow, sorted.
    static const QStringList &columns();
    /// After the fixed columns when a run went both ways at once (tcp-bidir, iperf3-bidir): the second figure,
    /// server -> client (the fixed bytes ... throughput_Mbps are then client -> server); empty for other runs.
    static const QStringList &reverseColumns();
    static QString toCsv(const RunResultList &results);
    /// Writes atomically (QSaveFile). On failure returns false with a one-line reason in *error.
    static bool write(const QString &path, const RunResultList &results, QString *error = nullptr);
    /// Parses CSV text (quoted fields, doubled quotes, embedded newlines) into rows of fields.
    static QList<QStringList> parse(const QString &text);
    static QString quote(const QString &field);
};

} // namespace wb
