#pragma once

#include "model/Host.h"

#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace wb {

struct TestPlan;

/// Which settings are secrets: the one test that the settings file, the result store, plan files, the CLI
/// and the keychain all ask. A key is a secret when a registered protocol declares it
/// OptionSpec::Type::Secret (the FTP and SMB passwords, the wirebenchd key); secrets live in the keychain
/// or in memory, never in a file Wirebench writes.
class Secrets
{
public:
    /// The system keychain's service under which the window saves every secret (QtKeychain's service name).
    static constexpr const char *kKeychainService = "wirebench";
    /// The keychain entry of one secret: "wirebench/<owner>/<key>", the owner a host's display name (its name,
    /// else its address) or another owner (the result store's server). The window writes it, the CLI reads it.
    static QString keychainEntry(const QString &owner, const QString &key);

    /// Every secret option key, in registration order.
    static QStringList keys();
    /// The secret keys that the given protocols read (a host of a plan running them may need each).
    static QStringList keysOf(const QStringList &protocols);
    static bool isSecret(const QString &key);
    /// options without the secret keys.
    static QVariantMap without(QVariantMap options);
    /// host with no secret in its options.
    static Host without(Host host);
    /// One line per secret the plan's hosts (or its parameters) hold, which a plan file never does, naming
    /// how to give it back when the plan runs (--key-file FILE, --set KEY=@FILE). secretsRemoved (a plan
    /// from the result store): name the secrets the plan's protocols may need instead.
    static QStringList notes(const TestPlan &plan, bool secretsRemoved = false);
};

} // namespace wb
