#include "Config.h"

#include "model/Frame.h"
#include "plan/PlanJson.h"
#include "plan/Secrets.h"
#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolSets.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSysInfo>

namespace wb {

namespace {

// The table of keys: one place to see what is stored.
const QString kSchema = QStringLiteral("schemaVersion");
const QString kHosts = QStringLiteral("hosts/list");
const QString kPlanProtocols = QStringLiteral("plan/protocols");
const QString kPlanFrames = QStringLiteral("plan/frameSizes");
const QString kPlanReps = QStringLiteral("plan/repetitions");
const QString kPlanDuration = QStringLiteral("plan/durationMs");
const QString kPlanMessage = QStringLiteral("plan/messageSize");
const QString kPlanSndBuf = QStringLiteral("plan/sendBufferBytes");
const QString kPlanRcvBuf = QStringLiteral("plan/recvBufferBytes");
const QString kPlanSample = QStringLiteral("plan/sampleIntervalMs");
const QString kPlanFileSize = QStringLiteral("plan/fileSizeBytes");
const QString kPlanOptions = QStringLiteral("plan/options"); // JSON object, secret keys removed
const QString kPlanWarmup = QStringLiteral("plan/warmupMs");
const QString kPlanStableTarget = QStringLiteral("plan/stableTargetPercent"); // 0 = every repetition runs
const QString kPlanMinReps = QStringLiteral("plan/minRepetitions");
const QString kPlanInterleave = QStringLiteral("plan/interleaveHosts");
const QString kPlanStopOnError = QStringLiteral("plan/stopOnError");
const QString kUnit = QStringLiteral("view/rateUnit");
const QString kStoreKind = QStringLiteral("store/kind"); // "file" or "postgresql"
const QString kStoreHost = QStringLiteral("store/host");
const QString kStorePort = QStringLiteral("store/port");
const QString kStoreDatabase = QStringLiteral("store/database");
const QString kStoreUser = QStringLiteral("store/user");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");

// The spellings of the host list before it became PlanJson's (settings written until issue 13).
const QString kLegacyServerType = QStringLiteral("serverType");
const QString kLegacyLinkSpeed = QStringLiteral("linkSpeedMbps");
const QString kSelected = QStringLiteral("selected");

// "Linux", "Windows", "macOS": the short label the comparison chart's legend shows.
QString shortOsLabel()
{
    const QString kernel = QSysInfo::kernelType();
    if (kernel == QLatin1String("linux"))
        return QStringLiteral("Linux");
    if (kernel == QLatin1String("winnt"))
        return QStringLiteral("Windows");
    if (kernel == QLatin1String("darwin"))
        return QStringLiteral("macOS");
    return QSysInfo::prettyProductName();
}

int intIn(const QVariant &value, int fallback, int min, int max)
{
    bool ok = false;
    const int v = value.toInt(&ok);
    return ok && v >= min && v <= max ? v : fallback;
}

} // namespace

Config::Config(const QString &fileName)
{
    if (fileName.isEmpty()) {
        if (QCoreApplication::organizationName().isEmpty())
            QCoreApplication::setOrganizationName(QStringLiteral("Wirebench"));
        if (QCoreApplication::applicationName().isEmpty())
            QCoreApplication::setApplicationName(QStringLiteral("wirebench"));
        m_settings = std::make_unique<QSettings>(QSettings::UserScope, QStringLiteral("Wirebench"),
                                                 QStringLiteral("wirebench"));
    } else {
        m_settings = std::make_unique<QSettings>(fileName, QSettings::IniFormat);
    }
    migrate();
}

Config::~Config()
{
    m_settings->sync();
}

QString Config::fileName() const
{
    return m_settings->fileName();
}

int Config::schemaVersion() const
{
    return m_settings->value(kSchema, 0).toInt();
}

void Config::migrate()
{
    const int version = schemaVersion();
    if (version == kSchemaVersion)
        return;
    if (version > kSchemaVersion) {
        // A newer release wrote this file: read what we understand, never rewrite its version.
        return;
    }
    // Version 0 (no file yet) -> 1: nothing to convert, defaults apply.
    m_settings->setValue(kSchema, kSchemaVersion);
}

Host Config::loopbackHost()
{
    Host host;
    host.name = QStringLiteral("This computer (loopback)");
    host.address = QStringLiteral("127.0.0.1");
    host.port = 0; // replaced by the embedded responder's port when a plan starts
    host.osLabel = shortOsLabel();
    host.serverType = QStringLiteral("wirebenchd");
    host.embedded = true;
    return host;
}

QByteArray Config::hostsToJson(const QList<HostEntry> &hosts)
{
    QJsonArray array;
    for (const HostEntry &entry : hosts) {
        QJsonObject o = PlanJson::hostToJson(entry.host);
        o.insert(kSelected, entry.selected);
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QList<HostEntry> Config::hostsFromJson(const QByteArray &json, bool *ok)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (ok)
        *ok = parseError.error == QJsonParseError::NoError && doc.isArray();
    QList<HostEntry> out;
    const QJsonArray array = doc.array();
    for (const QJsonValue &value : array) {
        const QJsonObject o = value.toObject();
        HostEntry entry{PlanJson::hostFromJson(o), o.value(kSelected).toBool(true)};
        Host &h = entry.host;
        if (o.contains(kLegacyServerType))
            h.serverType = o.value(kLegacyServerType).toString(h.serverType);
        if (o.contains(kLegacyLinkSpeed))
            h.linkSpeedMbps = qMax(0.0, o.value(kLegacyLinkSpeed).toDouble());
        if (h.address.isEmpty() && !h.embedded)
            continue;
        out.append(entry);
    }
    return out;
}

QList<HostEntry> Config::hosts() const
{
    if (!m_settings->contains(kHosts))
        return {HostEntry{loopbackHost(), true}};
    bool ok = false;
    const QList<HostEntry> list = hostsFromJson(m_settings->value(kHosts).toByteArray(), &ok);
    if (!ok)
        return {HostEntry{loopbackHost(), true}};
    return list;
}

void Config::setHosts(const QList<HostEntry> &hosts)
{
    m_settings->setValue(kHosts, QString::fromUtf8(hostsToJson(hosts)));
}

TestPlan Config::lastPlan() const
{
    TestPlan plan;
    const TestParams defaults;
    plan.protocols = ProtocolSets::firstPlan();
    plan.frameSizes = {1500, 9000};
    if (m_settings->contains(kPlanProtocols)) {
        QStringList protocols;
        for (const QString &id : m_settings->value(kPlanProtocols).toStringList()) {
            if (DriverRegistry::has(id))
                protocols << id;
        }
        plan.protocols = protocols;
    }
    if (m_settings->contains(kPlanFrames)) {
        QList<int> frames;
        for (const QString &text : m_settings->value(kPlanFrames).toStringList()) {
            const int frame = intIn(text, 0, Frame::kMinBytes, Frame::kMaxBytes);
            if (frame > 0 && !frames.contains(frame))
                frames << frame;
        }
        plan.frameSizes = frames;
    }
    plan.repetitions = intIn(m_settings->value(kPlanReps), 5, 1, 1000);
    plan.params.durationMs = intIn(m_settings->value(kPlanDuration), defaults.durationMs, 100, 24 * 3600 * 1000);
    plan.params.messageSize = intIn(m_settings->value(kPlanMessage), defaults.messageSize, 1, 16 * 1024 * 1024);
    plan.params.sendBufferBytes = intIn(m_settings->value(kPlanSndBuf), 0, 0, 1 << 30);
    plan.params.recvBufferBytes = intIn(m_settings->value(kPlanRcvBuf), 0, 0, 1 << 30);
    plan.params.sampleIntervalMs = intIn(m_settings->value(kPlanSample), defaults.sampleIntervalMs, 10, 60000);
    plan.params.warmupMs = intIn(m_settings->value(kPlanWarmup), 0, 0, 600000);
    plan.params.minRepetitions = intIn(m_settings->value(kPlanMinReps), defaults.minRepetitions, 2, 1000);
    plan.interleaveHosts = m_settings->value(kPlanInterleave, false).toBool();
    plan.params.stopOnError = m_settings->value(kPlanStopOnError, false).toBool();
    bool ok = false;
    const double target = m_settings->value(kPlanStableTarget).toDouble(&ok);
    plan.params.stableTargetPercent = ok && target > 0 && target <= 100 ? target : 0;
    const qint64 fileSize = m_settings->value(kPlanFileSize).toLongLong(&ok);
    if (ok && fileSize > 0 && fileSize <= (qint64(1) << 40))
        plan.params.fileSizeBytes = fileSize;
    const QJsonObject options = QJsonDocument::fromJson(m_settings->value(kPlanOptions).toByteArray()).object();
    for (auto it = options.constBegin(); it != options.constEnd(); ++it) {
        if (!Secrets::isSecret(it.key()))
            plan.params.options.insert(it.key(), it.value().toVariant());
    }
    return plan;
}

void Config::setLastPlan(const TestPlan &plan)
{
    QStringList frames;
    for (int frame : plan.frameSizes)
        frames << QString::number(frame);
    m_settings->setValue(kPlanProtocols, plan.protocols);
    m_settings->setValue(kPlanFrames, frames);
    m_settings->setValue(kPlanReps, plan.repetitions);
    m_settings->setValue(kPlanDuration, plan.params.durationMs);
    m_settings->setValue(kPlanMessage, plan.params.messageSize);
    m_settings->setValue(kPlanSndBuf, plan.params.sendBufferBytes);
    m_settings->setValue(kPlanRcvBuf, plan.params.recvBufferBytes);
    m_settings->setValue(kPlanSample, plan.params.sampleIntervalMs);
    m_settings->setValue(kPlanFileSize, plan.params.fileSizeBytes);
    m_settings->setValue(kPlanWarmup, plan.params.warmupMs);
    m_settings->setValue(kPlanStableTarget, plan.params.stableTargetPercent);
    m_settings->setValue(kPlanMinReps, plan.params.minRepetitions);
    m_settings->setValue(kPlanInterleave, plan.interleaveHosts);
    m_settings->setValue(kPlanStopOnError, plan.params.stopOnError);
    QJsonObject options;
    for (auto it = plan.params.options.cbegin(); it != plan.params.options.cend(); ++it) {
        if (!Secrets::isSecret(it.key()))
            options.insert(it.key(), QJsonValue::fromVariant(it.value()));
    }
    m_settings->setValue(kPlanOptions, QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact)));
}

StoreLocation Config::resultStore() const
{
    if (m_settings->value(kStoreKind).toString() != QLatin1String("postgresql"))
        return StoreLocation::file(QString());
    return StoreLocation::server(
        m_settings->value(kStoreHost).toString(), m_settings->value(kStorePort, StoreLocation::kDefaultPort).toInt(),
        m_settings->value(kStoreDatabase).toString(), m_settings->value(kStoreUser).toString());
}

void Config::setResultStore(const StoreLocation &store)
{
    m_settings->setValue(kStoreKind, store.isServer() ? QStringLiteral("postgresql") : QStringLiteral("file"));
    m_settings->setValue(kStoreHost, store.host());
    m_settings->setValue(kStorePort, store.port());
    m_settings->setValue(kStoreDatabase, store.database());
    m_settings->setValue(kStoreUser, store.user());
}

RateUnit Config::rateUnit() const
{
    // Exact ids: "MBps" and "Mbps" differ only in case, so no case-insensitive matching here.
    const QString id = m_settings->value(kUnit).toString();
    for (RateUnit u : {RateUnit::MBps, RateUnit::MiBps, RateUnit::Mbps}) {
        if (id == Units::id(u))
            return u;
    }
    return RateUnit::MBps;
}

void Config::setRateUnit(RateUnit unit)
{
    m_settings->setValue(kUnit, Units::id(unit));
}

QByteArray Config::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}

void Config::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometry, geometry);
}

QByteArray Config::windowState() const
{
    return m_settings->value(kState).toByteArray();
}

void Config::setWindowState(const QByteArray &state)
{
    m_settings->setValue(kState, state);
}

QByteArray Config::splitterState(const QString &name) const
{
    return m_settings->value(QStringLiteral("window/splitter/") + name).toByteArray();
}

void Config::setSplitterState(const QString &name, const QByteArray &state)
{
    m_settings->setValue(QStringLiteral("window/splitter/") + name, state);
}

void Config::sync()
{
    m_settings->sync();
}

} // namespace wb
