#pragma once

#include "model/RunResult.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace wb {

struct TestSummary;

/// The documented JSON schema (docs/CLI.md): one object with `meta`, `results` (one entry per run) and
/// `summary` (per host x protocol x frame size, in MB/s). Later versions add keys and never rename them.
class JsonExport
{
public:
    static constexpr int kSchemaVersion = 1;

    struct Options
    {
        bool includeSamples = false; ///< add each run's live samples (`samples`: [end_s, interval_s, bytes])
        bool indented = true;
        QDateTime createdAt; ///< invalid = now
    };

    static QJsonObject runToJson(const RunResult &result, bool includeSamples = false);
    /// One `summary` entry; with the test's runs it also carries the bottleneck sentence and % of ceiling.
    static QJsonObject summaryToJson(const TestSummary &summary, const RunResultList &testRuns = {});
    static QJsonObject toJsonObject(const RunResultList &results, const Options &options);
    static QByteArray toJson(const RunResultList &results, const Options &options);
    static QByteArray toJson(const RunResultList &results) { return toJson(results, Options()); }
    /// Writes atomically (QSaveFile). On failure returns false with a one-line reason in *error.
    static bool write(const QString &path, const RunResultList &results, const Options &options,
                      QString *error = nullptr);
    static bool write(const QString &path, const RunResultList &results, QString *error = nullptr)
    {
        return write(path, results, Options(), error);
    }

    /// One entry of `results` back into a RunResult; keys that are not part of the schema go to `extra`.
    static RunResult runFromJson(const QJsonObject &object);
    /// Reads a document written by toJson (the `summary` is recomputed, not read). Also accepts a bare
    /// array of result entries. On failure returns false with a one-line reason in *error.
    static bool fromJson(const QByteArray &json, RunResultList *results, QString *error = nullptr);
    static bool read(const QString &path, RunResultList *results, QString *error = nullptr);

    /// The keys of a result entry that the schema defines (everything else is RunResult::extra).
    static const QStringList &resultKeys();
};

} // namespace wb
