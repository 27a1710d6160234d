#include "Secrets.h"

#include "plan/TestPlan.h"
#include "protocols/DriverRegistry.h"
#include "protocols/tcp/TcpDriver.h"

#include <QMap>

namespace wb {

QString Secrets::keychainEntry(const QString &owner, const QString &key)
{
    return QStringLiteral("wirebench/") + owner + QLatin1Char('/') + key;
}

QStringList Secrets::keysOf(const QStringList &protocols)
{
    QStringList keys;
    for (const QString &id : protocols) {
        const ProtocolInfo *info = DriverRegistry::find(id);
        for (const OptionSpec &option : info ? info->hostOptions : QList<OptionSpec>()) {
            if (option.type == OptionSpec::Type::Secret && !keys.contains(option.key))
                keys << option.key;
        }
    }
    return keys;
}

QStringList Secrets::keys()
{
    QStringList keys;
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        for (const OptionSpec &option : info.hostOptions) {
            if (option.type == OptionSpec::Type::Secret && !keys.contains(option.key))
                keys << option.key;
        }
    }
    return keys;
}

bool Secrets::isSecret(const QString &key)
{
    static const QStringList all = keys(); // the registry is fixed at build time
    return all.contains(key);
}

QVariantMap Secrets::without(QVariantMap options)
{
    for (auto it = options.begin(); it != options.end();) {
        if (isSecret(it.key()))
            it = options.erase(it);
        else
            ++it;
    }
    return options;
}

Host Secrets::without(Host host)
{
    host.options = without(host.options);
    return host;
}

QStringList Secrets::notes(const TestPlan &plan, bool secretsRemoved)
{
    // key -> the hosts that hold it ("the plan" for the plan-wide transfer settings)
    QMap<QString, QStringList> holders;
    for (const Host &h : plan.hosts) {
        for (auto it = h.options.cbegin(); it != h.options.cend(); ++it) {
            if (isSecret(it.key()) && !it.value().toString().isEmpty())
                holders[it.key()] << (h.name.isEmpty() && h.port
                                          ? QStringLiteral("%1 port %2").arg(h.address).arg(h.port)
                                          : h.displayName());
        }
    }
    for (auto it = plan.params.options.cbegin(); it != plan.params.options.cend(); ++it) {
        if (isSecret(it.key()) && !it.value().toString().isEmpty())
            holders[it.key()] << QStringLiteral("the plan");
    }
    // A plan of several hosts, each with its own password, gives them host by host (HostSecrets).
    const bool severalHosts = plan.hosts.size() > 1;
    auto howToGive = [severalHosts](const QString &key) {
        if (key == QLatin1String(TcpDriver::kKeyOption))
            return QStringLiteral("--key-file FILE");
        return severalHosts
            ? QStringLiteral("--set %1=@FILE (every host), --set HOST:%1=@FILE (one host) or --secrets FILE (one line "
                             "per host and key)")
                  .arg(key)
            : QStringLiteral("--set %1=@FILE or --secrets FILE").arg(key);
    };
    QStringList lines;
    for (auto it = holders.cbegin(); it != holders.cend(); ++it) {
        lines << QStringLiteral("note: the plan file leaves out %1 (%2): plan files never hold passwords or keys; "
                                "give it when running the plan with %3")
                     .arg(it.key(), it.value().join(QStringLiteral(", ")), howToGive(it.key()));
    }
    if (!secretsRemoved)
        return lines;
    // A stored plan lost its secrets long ago: name those the plan's protocols ask for.
    QStringList seen;
    for (const QString &id : plan.protocols) {
        const ProtocolInfo *info = DriverRegistry::find(id);
        if (!info)
            continue;
        for (const OptionSpec &spec : info->hostOptions) {
            if (spec.type != OptionSpec::Type::Secret || seen.contains(spec.key) || holders.contains(spec.key))
                continue;
            seen << spec.key;
            if (spec.key == QLatin1String(TcpDriver::kKeyOption))
                lines << QStringLiteral(
                    "note: if the plan's wirebenchd asks for its key, give it when running the plan "
                    "with --key-file FILE (plan files never hold keys)");
            else
                lines << QStringLiteral("note: %1 may need %2 (%3), which plan files never hold: give it when running "
                                        "the plan with %4")
                             .arg(id, spec.key, spec.label, howToGive(spec.key));
        }
    }
    return lines;
}

} // namespace wb
