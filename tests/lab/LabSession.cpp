#include "LabSession.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

#include <utility>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

namespace wb::test {

namespace {

/// "1gbit", "2.5gbit", "100mbit", "500kbit" or bit/s in Mbit/s; 0 for "off" or what lab.sh would refuse.
double rateMbps(const QString &rate)
{
    static const std::pair<const char *, double> units[] = {{"gbit", 1e3}, {"mbit", 1.0}, {"kbit", 1e-3}};
    for (const auto &[unit, mbps] : units) {
        if (rate.endsWith(QLatin1String(unit)))
            return rate.chopped(int(qstrlen(unit))).toDouble() * mbps;
    }
    return rate.toDouble() / 1e6;
}

} // namespace

LabSession::LabSession(QString labScript, const QString &idPrefix)
    : m_script(std::move(labScript))
    , m_id(idPrefix + QString::number(::getpid() % 1000000, 36))
{
}

LabSession::~LabSession()
{
    leaveClient();
    down();
}

QString LabSession::run(const QStringList &args, bool *ok, int timeoutMs) const
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WBL_ID"), m_id);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("bash"), QStringList{m_script} + args);
    const bool finished = p.waitForFinished(timeoutMs);
    const QString out = QString::fromLocal8Bit(p.readAll()).trimmed();
    const bool good = finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (ok)
        *ok = good;
    else if (!good)
        qWarning("lab.sh %s (lab %s) failed: %s", qPrintable(args.join(QLatin1Char(' '))), qPrintable(m_id),
                 qPrintable(out));
    return out;
}

bool LabSession::up(int mtu, const QString &rate, QString *why, const QStringList &extra)
{
    bool ok = false;
    const QString out = run(
        QStringList{QStringLiteral("up"), QStringLiteral("--mtu"), QString::number(mtu), QStringLiteral("--rate"), rate}
            + extra,
        &ok);
    if (!ok) {
        *why = QStringLiteral("lab.sh up failed: ") + out;
        return false;
    }
    m_up = true;
    m_mtu = mtu;
    m_rate = rate;
    m_speedMbps = rate == QLatin1String("100mbit") ? 100 : 1000;
    return true;
}

bool LabSession::setLine(int mtu, const QString &rate, QString *why)
{
    bool ok = true;
    if (mtu != m_mtu) {
        *why = run({QStringLiteral("mtu"), QString::number(mtu)}, &ok);
        if (!ok)
            return false;
        m_mtu = mtu;
    }
    if (rate != m_rate) {
        *why = run({QStringLiteral("shape"), rate}, &ok);
        if (!ok)
            return false;
        m_rate = rate;
    }
    m_speedMbps = rateMbps(rate);
    return true;
}

bool LabSession::enterClient(QString *why)
{
    if (m_origNs < 0)
        m_origNs = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    const QByteArray nsPath = "/run/netns/wbl-cli-" + m_id.toLatin1();
    const int cli = ::open(nsPath.constData(), O_RDONLY | O_CLOEXEC);
    const bool ok = m_origNs >= 0 && cli >= 0 && ::setns(cli, CLONE_NEWNET) == 0;
    if (cli >= 0)
        ::close(cli);
    if (!ok)
        *why = QStringLiteral("setns into the lab's client namespace %1 failed").arg(QString::fromLatin1(nsPath));
    return ok;
}

void LabSession::leaveClient()
{
    if (m_origNs < 0)
        return;
    ::setns(m_origNs, CLONE_NEWNET);
    ::close(m_origNs);
    m_origNs = -1;
}

void LabSession::down()
{
    if (!m_up)
        return;
    run({QStringLiteral("down")});
    m_up = false;
}

QString LabSession::missingTool(const QStringList &tools)
{
    for (const QString &tool : tools) {
        if (QStandardPaths::findExecutable(tool).isEmpty() && !QFileInfo::exists(QStringLiteral("/usr/sbin/") + tool))
            return tool;
    }
    return {};
}

double LabSession::iperf3Ratio(bool reverse, double theoryBytesPerSecond, int seconds, int streams)
{
    QProcess p;
    QStringList args{QStringLiteral("-c"), serverAddress(), QStringLiteral("-t"), QString::number(seconds),
                     QStringLiteral("-J")};
    if (reverse)
        args << QStringLiteral("-R");
    if (streams > 1)
        args << QStringLiteral("-P") << QString::number(streams);
    p.start(QStringLiteral("iperf3"), args);
    if (!p.waitForFinished(30000 + seconds * 1000) || p.exitCode() != 0)
        return 0;
    const QJsonObject sum = QJsonDocument::fromJson(p.readAllStandardOutput())
                                .object()
                                .value(QStringLiteral("end"))
                                .toObject()
                                .value(QStringLiteral("sum_received"))
                                .toObject();
    const double secs = sum.value(QStringLiteral("seconds")).toDouble();
    return secs > 0 && theoryBytesPerSecond > 0
        ? sum.value(QStringLiteral("bytes")).toDouble() / secs / theoryBytesPerSecond
        : 0;
}

} // namespace wb::test
