#pragma once

#include "model/Host.h"
#include "plan/TestPlan.h"
#include "storage/StoreLocation.h"
#include "stats/Units.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

class QSettings;

namespace wb {

/// A host as the host list keeps it: the host and whether the next plan runs against it.
struct HostEntry
{
    Host host;
    bool selected = true;
    bool operator==(const HostEntry &) const = default;
};

/// Typed settings behind one facade (KeePassXC's Config style): every key has a type and a default,
/// and the file carries a schema version so later releases can migrate it. Secrets never go here.
class Config
{
public:
    static constexpr int kSchemaVersion = 1;

    /// Empty fileName: the platform's settings for "Wirebench"/"wirebench". Otherwise an INI file (tests).
    explicit Config(const QString &fileName = {});
    ~Config();
    Config(const Config &) = delete;
    Config &operator=(const Config &) = delete;

    QString fileName() const;
    int schemaVersion() const;

    /// The default list: "This computer (loopback)", served by the embedded responder.
    static Host loopbackHost();
    QList<HostEntry> hosts() const;
    void setHosts(const QList<HostEntry> &hosts);

    /// The last plan's parameters (protocols, frame sizes, repetitions, TestParams). Hosts are not kept here.
    TestPlan lastPlan() const;
    void setLastPlan(const TestPlan &plan);

    RateUnit rateUnit() const;
    void setRateUnit(RateUnit unit);

    /// Where the window keeps results: this computer's store (the default) or a PostgreSQL server; never the
    /// password (the keychain keeps it).
    StoreLocation resultStore() const;
    void setResultStore(const StoreLocation &store);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);
    QByteArray splitterState(const QString &name) const;
    void setSplitterState(const QString &name, const QByteArray &state);

    void sync();

    /// JSON form of a host list (secret options removed), as stored under "hosts/list".
    static QByteArray hostsToJson(const QList<HostEntry> &hosts);
    /// Reads hostsToJson()'s output; entries without an address (and not embedded) are dropped.
    static QList<HostEntry> hostsFromJson(const QByteArray &json, bool *ok = nullptr);

private:
    void migrate();

    std::unique_ptr<QSettings> m_settings;
};

} // namespace wb
