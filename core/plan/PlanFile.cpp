#include "PlanFile.h"

#include "PlanJson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace wb {

namespace {

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

bool PlanFile::write(const QString &path, const TestPlan &plan, QString *error)
{
    QJsonObject o;
    o[QLatin1String("format")] = QLatin1String(kFormat);
    o[QLatin1String("version")] = kVersion;
    o[QLatin1String("plan")] = PlanJson::planToJson(plan); // PlanJson drops passwords and keys
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write the plan to %1: %2").arg(path, file.errorString()));
    file.write(QJsonDocument(o).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return fail(error, QStringLiteral("cannot write the plan to %1: %2").arg(path, file.errorString()));
    return true;
}

bool PlanFile::read(const QString &path, TestPlan *plan, QString *error)
{
    QFile file(path);
    if (!file.exists())
        return fail(error, QStringLiteral("plan file %1 does not exist").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("cannot read plan file %1: %2").arg(path, file.errorString()));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.read(16 * 1024 * 1024), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(error,
                    QStringLiteral("plan file %1 is not valid JSON (%2 at byte %3)")
                        .arg(path, parseError.errorString())
                        .arg(parseError.offset));
    if (!doc.isObject())
        return fail(error,
                    QStringLiteral("plan file %1 holds no JSON object: save a plan from Wirebench first").arg(path));
    const QJsonObject o = doc.object();
    QJsonObject planObject;
    if (o.contains(QLatin1String("format"))) {
        if (o.value(QLatin1String("format")).toString() != QLatin1String(kFormat))
            return fail(error,
                        QStringLiteral("%1 is not a Wirebench plan (format \"%2\")")
                            .arg(path, o.value(QLatin1String("format")).toString()));
        const int version = o.value(QLatin1String("version")).toInt(0);
        if (version < 1 || version > kVersion)
            return fail(error,
                        QStringLiteral("plan file %1 has version %2; this Wirebench reads version %3: update Wirebench")
                            .arg(path)
                            .arg(version)
                            .arg(kVersion));
        planObject = o.value(QLatin1String("plan")).toObject();
    } else if (o.contains(QLatin1String("protocols"))) {
        planObject = o; // a bare plan, as the result store keeps it
    } else {
        return fail(error, QStringLiteral("%1 is not a Wirebench plan (no \"format\" or \"protocols\")").arg(path));
    }
    if (!planObject.value(QLatin1String("protocols")).isArray())
        return fail(error, QStringLiteral("plan file %1 lists no protocols").arg(path));
    const qsizetype hostCount = planObject.value(QLatin1String("hosts")).toArray().size();
    if (hostCount > TestPlan::kMaxHosts)
        return fail(error,
                    QStringLiteral("plan file %1 names %2 hosts; at most %3 are allowed: split it into several plans")
                        .arg(path)
                        .arg(hostCount)
                        .arg(TestPlan::kMaxHosts));
    *plan = PlanJson::planFromJson(planObject);
    return true;
}

} // namespace wb
