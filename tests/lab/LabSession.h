#pragma once

#include "support/CiRule.h"

#include <QString>
#include <QStringList>

#include <unistd.h>

/// In a test's initTestCase: skips (developer machine) or fails (CI=true) when not root, as the lab
/// creates network namespaces.
#define WB_REQUIRE_LAB_ROOT()                                                                                          \
    WB_REQUIRE(::geteuid() == 0,                                                                                       \
               QStringLiteral("the lab needs root to create network namespaces: run as root "                          \
                              "(CI runs everything as root)"))

namespace wb::test {

/// A test's own instance of the two-namespace lab (tests/lab/lab.sh): brings it up under an id of its
/// own, re-shapes it, moves the calling thread into the client namespace (threads it starts afterwards
/// inherit that namespace) and takes it all down again. Needs root.
class LabSession
{
public:
    /// labScript: the path of lab.sh; idPrefix: two letters, completed with this process's id.
    LabSession(QString labScript, const QString &idPrefix);
    ~LabSession();
    LabSession(const LabSession &) = delete;
    LabSession &operator=(const LabSession &) = delete;

    /// Runs "lab.sh ARGS" with this session's WBL_ID; the merged output, trimmed. Without ok, a failure
    /// is logged as a warning.
    QString run(const QStringList &args, bool *ok = nullptr, int timeoutMs = 60000) const;
    /// extra: more options of "lab.sh up" ("--router": a third namespace routing between client and server).
    bool up(int mtu, const QString &rate, QString *why, const QStringList &extra = {});
    /// The MTU on both ends and the emulated line rate ("1gbit", "100mbit"), changing only what differs.
    bool setLine(int mtu, const QString &rate, QString *why);
    /// After a test changed one end's MTU by hand: the next setLine() sets both again.
    void forgetMtu() { m_mtu = 0; }
    bool enterClient(QString *why);
    /// Back to the namespace the thread came from (before down(): it kills everything inside the lab).
    void leaveClient();
    void down();

    QString id() const { return m_id; }
    QString clientInterface() const { return QStringLiteral("wbc-") + m_id; }
    QString serverInterface() const { return QStringLiteral("wbs-") + m_id; }
    /// With "up --router": the router's interface towards the server.
    QString routerServerInterface() const { return QStringLiteral("wbt-") + m_id; }
    static QString serverAddress() { return QStringLiteral("10.231.0.2"); }
    double speedMbps() const { return m_speedMbps; }

    /// The first of tools (looked up in PATH and /usr/sbin) that is missing, or an empty string.
    static QString missingTool(const QStringList &tools);

    /// iperf3 -c to the lab's server (started with "serve iperf3") for `seconds`, -R when reverse, -P streams, run
    /// from the calling thread (inside the client namespace): the receiver's goodput / theory; 0 when it
    /// did not run.
    static double iperf3Ratio(bool reverse, double theoryBytesPerSecond, int seconds, int streams = 1);

private:
    QString m_script;
    QString m_id;
    bool m_up = false;
    int m_origNs = -1;
    int m_mtu = 0;
    QString m_rate;
    double m_speedMbps = 0;
};

} // namespace wb::test
