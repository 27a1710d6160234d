#include "KeychainSecrets.h"

#include "plan/Secrets.h"
#include "protocols/tcp/TcpDriver.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#ifdef WIREBENCH_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace wb::cli {

namespace {

/// "ftp.password of linux-server, smb.password of windows-server"
QString listOf(const TestPlan &plan, const QList<std::pair<int, QString>> &items)
{
    QStringList parts;
    for (const auto &[host, key] : items)
        parts << QStringLiteral("%1 of %2").arg(key, plan.hosts.at(host).displayName());
    return parts.join(QStringLiteral(", "));
}

/// The command-line way to give one host's secret instead.
QString howToGive(const TestPlan &plan)
{
    const QString host = plan.hosts.size() > 1 ? QStringLiteral("HOST:") : QString();
    return QStringLiteral("give it with --set %1KEY=@FILE or --secrets FILE (one line per host and key, chmod 600)")
        .arg(host);
}

/// A password whose user is empty is asked for by no login: "ftp.password" with no "ftp.user" logs in as anonymous,
/// "smb.password" with no "smb.user" as a guest.
bool loginWithout(const Host &host, const QString &key)
{
    static const QLatin1String suffix(".password");
    if (!key.endsWith(suffix))
        return false;
    const QString user = key.left(key.size() - suffix.size()) + QStringLiteral(".user");
    return host.options.value(user).toString().isEmpty();
}

} // namespace

QString KeychainSecrets::unreachable()
{
    if (qEnvironmentVariableIntValue("WIREBENCH_NO_KEYCHAIN") != 0)
        return QStringLiteral("the keychain is switched off (WIREBENCH_NO_KEYCHAIN=1)");
#ifndef WIREBENCH_HAVE_QTKEYCHAIN
    return QStringLiteral("this build has no keychain support (QtKeychain)");
#elif defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    // The Secret Service and KWallet answer on the session bus. Without one, the keychain libraries would try
    // to start a bus of their own (X11 autolaunch): say so at once instead.
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
        if (runtime.isEmpty() || !QFileInfo::exists(runtime + QStringLiteral("/bus")))
            return QStringLiteral("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, as under ssh, cron or "
                                  "a system service, so no Secret Service or KWallet can be asked");
    }
    return {};
#else
    return {};
#endif
}

QStringList KeychainSecrets::fill(TestPlan *plan, int timeoutMs)
{
    QList<Wanted> wanted;
    const QStringList keys = Secrets::keysOf(plan->protocols);
    for (int i = 0; i < plan->hosts.size(); ++i) {
        for (const QString &key : keys) {
            if (!plan->hosts.at(i).options.contains(key))
                wanted << Wanted{i, plan->hosts.at(i).displayName(), key, Wanted::Outcome::Pending, {}};
        }
    }
    if (wanted.isEmpty())
        return {};
    QString problem = unreachable();
    if (problem.isEmpty())
        read(wanted, timeoutMs, &problem);
    for (const Wanted &w : wanted) {
        if (w.outcome == Wanted::Outcome::Found)
            plan->hosts[w.host].options.insert(w.key, w.value);
    }
    return lines(*plan, wanted, problem);
}

QStringList KeychainSecrets::lines(const TestPlan &plan, const QList<Wanted> &wanted, const QString &problem)
{
    // wirebenchd's key is read when the keychain has it; one that is missing is no news (a wirebenchd on
    // loopback or in --open mode asks for none, and --key-file is the way to give it).
    QList<std::pair<int, QString>> found;
    QList<std::pair<int, QString>> missing;
    for (const Wanted &w : wanted) {
        if (w.outcome == Wanted::Outcome::Found)
            found << std::pair{w.host, w.key};
        else if (w.key != QLatin1String(TcpDriver::kKeyOption) && !loginWithout(plan.hosts.at(w.host), w.key))
            missing << std::pair{w.host, w.key};
    }
    QStringList out;
    if (!found.isEmpty())
        out << QStringLiteral("note: read from the system keychain, where the window saved them: %1")
                   .arg(listOf(plan, found));
    if (missing.isEmpty())
        return out;
    if (!problem.isEmpty())
        out << QStringLiteral("note: no keychain to read passwords from (%1); the plan runs without %2: if a login "
                              "needs one, %3")
                   .arg(problem, listOf(plan, missing), howToGive(plan));
    else
        out << QStringLiteral("note: the system keychain holds no %1 (the window saves one typed in a host's "
                              "settings); the plan runs without: if a login needs one, %2")
                   .arg(listOf(plan, missing), howToGive(plan));
    return out;
}

#ifdef WIREBENCH_HAVE_QTKEYCHAIN

void KeychainSecrets::read(QList<Wanted> &wanted, int timeoutMs, QString *problem)
{
    QEventLoop loop;
    int pending = int(wanted.size());
    {
        QObject context; // declared after what the callbacks touch: its end disconnects a job that answers late
        for (Wanted &w : wanted) {
            // No parent: an unanswered job outlives this call (autoDelete ends it once it answers).
            auto *job = new QKeychain::ReadPasswordJob(QLatin1String(Secrets::kKeychainService), nullptr);
            job->setAutoDelete(true);
            job->setInsecureFallback(false); // never QtKeychain's plain-text file
            job->setKey(Secrets::keychainEntry(w.owner, w.key));
            QObject::connect(job, &QKeychain::Job::finished, &context, [&, entry = &w](QKeychain::Job *j) {
                auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
                if (read->error() == QKeychain::NoError) {
                    entry->outcome = Wanted::Outcome::Found;
                    entry->value = read->textData();
                } else if (read->error() == QKeychain::EntryNotFound) {
                    entry->outcome = Wanted::Outcome::NotFound;
                } else {
                    entry->outcome = Wanted::Outcome::Failed;
                    if (problem->isEmpty()) {
                        const QString said = read->errorString().simplified();
                        *problem = said.isEmpty() || said == QLatin1String("Unknown error")
                            ? QStringLiteral("no Secret Service (gnome-keyring, KeePassXC) or KWallet answered")
                            : said;
                    }
                }
                if (--pending == 0)
                    loop.quit();
            });
            job->start();
        }
        QTimer::singleShot(timeoutMs, &context, [&loop] { loop.quit(); });
        loop.exec();
    }
    if (pending > 0 && problem->isEmpty())
        *problem = QStringLiteral("the keychain did not answer within %1 s: is it locked, waiting for its password?")
                       .arg(timeoutMs / 1000.0);
}

#else

void KeychainSecrets::read(QList<Wanted> &, int, QString *problem)
{
    *problem = unreachable();
}

#endif

} // namespace wb::cli
