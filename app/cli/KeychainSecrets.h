#pragma once

#include "plan/TestPlan.h"

#include <QString>
#include <QStringList>

namespace wb::cli {

/// The passwords and keys the window saved in the system keychain (QtKeychain, the entries Secrets::keychainEntry
/// names), read for the hosts of a plan that --set, --secrets and --key-file left without them. It never waits
/// longer than its timeout: with no D-Bus session (ssh, cron, a system service), no Secret Service or KWallet, or
/// a locked keychain that asks for its password, it says so and the plan runs with what it has.
/// WIREBENCH_NO_KEYCHAIN=1 switches it off, as it does the window's.
class KeychainSecrets
{
public:
    static constexpr int kTimeoutMs = 5000;

    /// Fills the plan's hosts; returns the lines to print: what was read (names, never values), or why the
    /// keychain could not be asked and how to give the passwords instead.
    static QStringList fill(TestPlan *plan, int timeoutMs = kTimeoutMs);

private:
    struct Wanted
    {
        int host = 0;
        QString owner; ///< the host's display name, as the window names its entries
        QString key;
        enum class Outcome { Pending, Found, NotFound, Failed } outcome = Outcome::Pending;
        QString value;
    };
    /// Why no keychain can be asked here, or empty.
    static QString unreachable();
    /// Reads every wanted entry at once, until all answered or timeoutMs passed; *problem says why the keychain
    /// failed (empty when it answered).
    static void read(QList<Wanted> &wanted, int timeoutMs, QString *problem);
    static QStringList lines(const TestPlan &plan, const QList<Wanted> &wanted, const QString &problem);
};

} // namespace wb::cli
