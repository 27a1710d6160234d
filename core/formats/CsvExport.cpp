#include "CsvExport.h"

#include <QSaveFile>
#include <QSet>

#include <algorithm>

namespace wb {

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

QString variantText(const QVariant &v)
{
    if (v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Float)
        return number(v.toDouble());
    if (v.canConvert<QStringList>() && v.typeId() != QMetaType::QString)
        return v.toStringList().join(QStringLiteral("; "));
    return v.toString();
}

} // namespace

const QStringList &CsvExport::columns()
{
    static const QStringList cols{QStringLiteral("run_index"),
                                  QStringLiteral("host"),
                                  QStringLiteral("address"),
                                  QStringLiteral("port"),
                                  QStringLiteral("os"),
                                  QStringLiteral("protocol"),
                                  QStringLiteral("frame_size"),
                                  QStringLiteral("mss"),
                                  QStringLiteral("repetition"),
                                  QStringLiteral("bytes"),
                                  QStringLiteral("seconds"),
                                  QStringLiteral("throughput_MBps"),
                                  QStringLiteral("throughput_Mbps"),
                                  QStringLiteral("status"),
                                  QStringLiteral("error"),
                                  QStringLiteral("warnings"),
                                  QStringLiteral("started_at"),
                                  QStringLiteral("sender_bytes"),
                                  QStringLiteral("duration_s"),
                                  QStringLiteral("message_size"),
                                  QStringLiteral("send_buffer"),
                                  QStringLiteral("recv_buffer"),
                                  QStringLiteral("server_os")};
    return cols;
}

const QStringList &CsvExport::reverseColumns()
{
    static const QStringList cols{QStringLiteral("reverse_bytes"), QStringLiteral("reverse_seconds"),
                                  QStringLiteral("reverse_throughput_MBps"), QStringLiteral("reverse_throughput_Mbps"),
                                  QStringLiteral("reverse_sender_bytes")};
    return cols;
}

QString CsvExport::quote(const QString &field)
{
    static const QString special = QStringLiteral(",\"\r\n");
    bool needs = false;
    for (QChar c : field) {
        if (special.contains(c)) {
            needs = true;
            break;
        }
    }
    if (!needs)
        return field;
    QString q = field;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString CsvExport::toCsv(const RunResultList &results)
{
    QSet<QString> extraSet;
    for (const RunResult &r : results) {
        for (auto it = r.extra.cbegin(); it != r.extra.cend(); ++it) {
            if (!columns().contains(it.key()))
                extraSet.insert(it.key());
        }
    }
    QStringList extraKeys(extraSet.cbegin(), extraSet.cend());
    std::sort(extraKeys.begin(), extraKeys.end());

    // Both directions at once: the first figure (bytes ... throughput_Mbps) is client -> server, these the second.
    const bool anyBothWays
        = std::any_of(results.cbegin(), results.cend(), [](const RunResult &r) { return r.bothWays(); });
    const QStringList reverseColumns = anyBothWays ? CsvExport::reverseColumns() : QStringList();

    QString out;
    QStringList header = columns() + reverseColumns + extraKeys;
    for (QString &h : header)
        h = quote(h);
    out += header.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (const RunResult &r : results) {
        const QString os = r.spec.host.osLabel.isEmpty() ? r.serverOs : r.spec.host.osLabel;
        QStringList row{QString::number(r.spec.index),
                        r.spec.host.displayName(),
                        r.spec.host.address,
                        QString::number(r.spec.host.port),
                        os,
                        r.spec.protocol,
                        QString::number(r.spec.frameSize),
                        QString::number(r.mss),
                        QString::number(r.spec.repetition),
                        QString::number(r.bytes),
                        number(r.seconds),
                        number(r.megabytesPerSecond()),
                        number(r.megabitsPerSecond()),
                        runStatusName(r.status),
                        r.error,
                        r.warnings.join(QStringLiteral("; ")),
                        r.startedAt.isValid() ? r.startedAt.toUTC().toString(Qt::ISODateWithMs) : QString(),
                        QString::number(r.senderBytes),
                        number(r.spec.params.durationMs / 1000.0),
                        QString::number(r.spec.params.messageSize),
                        QString::number(r.spec.params.sendBufferBytes),
                        QString::number(r.spec.params.recvBufferBytes),
                        r.serverOs};
        if (anyBothWays && r.reverse) {
            row << QString::number(r.reverse->bytes) << number(r.reverse->seconds)
                << number(r.reverse->megabytesPerSecond()) << number(r.reverse->megabytesPerSecond() * 8)
                << QString::number(r.reverse->senderBytes);
        } else if (anyBothWays) {
            row << QString() << QString() << QString() << QString() << QString();
        }
        for (const QString &key : extraKeys)
            row.append(r.extra.contains(key) ? variantText(r.extra.value(key)) : QString());
        for (QString &f : row)
            f = quote(f);
        out += row.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

bool CsvExport::write(const QString &path, const RunResultList &results, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("cannot write the CSV file %1: %2; check the folder and its permissions")
                         .arg(path, file.errorString());
        return false;
    }
    file.write(toCsv(results).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write the CSV file %1: %2; check the free space and permissions")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

QList<QStringList> CsvExport::parse(const QString &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
            fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            row.append(field);
            field.clear();
            fieldStarted = true;
        } else if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            row.append(field);
            rows.append(row);
            row.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (fieldStarted || !row.isEmpty()) {
        row.append(field);
        rows.append(row);
    }
    return rows;
}

} // namespace wb
