#pragma once

#include "ProtocolDriver.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <memory>

namespace wb {

/// A setting a protocol reads from Host::options (or, when secret, from the credential store).
struct OptionSpec
{
    enum class Type { Text, Secret, Integer, Bool, Choice };
    QString key;   ///< "ftp.user"
    QString label; ///< "FTP user"
    Type type = Type::Text;
    QVariant defaultValue;
    QStringList choices; ///< for Type::Choice
    QString toolTip;
};

/// An option that only means something while another option of the same form holds a value (ftp.tls_trust
/// only with ftp.tls on): the form disables it otherwise.
struct OptionDependency
{
    QString key;        ///< "ftp.tls_trust"
    QString controller; ///< "ftp.tls"
    QVariant value;     ///< the controller's value that enables key (true, "CA file")
};

/// What the UI, the CLI, the plan, the engine and the analysis need to know about a protocol without creating
/// its driver, so that none of them names a protocol id.
struct ProtocolInfo
{
    /// Who tells the results which server answered, when the driver cannot see it.
    enum class ServerProbe {
        None, ///< the driver does (or nobody can)
        Smb,  ///< the engine asks the SMB server once, after its first run (libsmbclient hides it)
    };

    QString id;          ///< "tcp-send"
    QString title;       ///< "TCP send (client → server)"
    QString description; ///< one sentence for tooltips and --help
    bool timed = true;   ///< runs for TestParams::durationMs (false: moves TestParams::fileSizeBytes)
    /// The driver sets TCP_MAXSEG from the plan's frame (Frame::maxSegFor). False: the connection is another
    /// program's (libsmbclient, the OS's mount) or carries datagrams, so its frames are what the path allows.
    bool setsMss = true;
    /// Which way the data goes: what a file transfer is compared with in the session's findings.
    enum class Flow { ToServer, FromServer };
    Flow flow = Flow::ToServer;
    /// Both directions at once (tcp-bidir, iperf3-bidir): one run gives two figures, RunResult::reverse the second.
    bool bothWays = false;
    /// A bare TCP stream (tcp-send/-recv, iperf3 TCP): the network's capacity to the host, against which the
    /// session's file transfers to the same host are judged (SessionFindings).
    bool rawTcp = false;
    QString connectionOwner; ///< who opens the connection when the driver does not set the MSS ("libsmbclient")
    /// Host option with the port of that connection ("smb.port"; its OptionSpec default when unset): the analysis
    /// observes the MSS the connection got. Empty: nothing observed.
    QString observedPortOption;
    ServerProbe serverProbe = ServerProbe::None;
    /// How the engine's latency probe (core/latency) times round trips to the host while a run moves data:
    /// wirebenchd's UDP echo, the connect time to the service port, or not at all (no far host).
    enum class LatencyProbe { None, Echo, Connect };
    LatencyProbe latencyProbe = LatencyProbe::None;
    /// The service port the probe uses: this host option ("ftp.port") when set, else Host::port when the option
    /// is empty, else defaultServicePort.
    QString servicePortOption;
    quint16 defaultServicePort = 0;
    QString family;                ///< groups protocols that share host options in the UI ("tcp", "ftp", "smb")
    QString tabTitle;              ///< the host dialog's tab for the family's options ("wirebenchd", "FTP")
    QList<OptionSpec> hostOptions; ///< per-host settings this protocol reads from Host::options
    QList<OptionDependency> optionDependencies; ///< among hostOptions
    std::function<std::unique_ptr<ProtocolDriver>()> create;

    /// The host option key's spec; nullptr when this protocol has none.
    const OptionSpec *option(const QString &key) const;
};

/// The one place where protocols are registered: adding a protocol adds one line in DriverRegistry.cpp.
class DriverRegistry
{
public:
    static const QList<ProtocolInfo> &protocols();
    static const ProtocolInfo *find(const QString &id);
    static bool has(const QString &id) { return find(id) != nullptr; }
    static std::unique_ptr<ProtocolDriver> create(const QString &id);
    /// The protocol that runs test protocol against a host of serverType: "iperf3-send" for "tcp-send" on an
    /// iperf3 server (same test, other server); protocol itself otherwise.
    static QString forServerType(const QString &protocol, const QString &serverType);
    /// Every option dependency of the registered protocols, each once.
    static QList<OptionDependency> optionDependencies();
};

} // namespace wb
