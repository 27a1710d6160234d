#include "LabFileServers.h"

#include "../protocols/FileServerFixture.h"
#include "LabSession.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"
#include "support/EngineRun.h"

#include <QFile>
#include <QProcess>

#include <utility>
#include <vector>

namespace wb::test {

QVariantMap LabFileServers::ftpOptions(const QString &path) const
{
    return {{QStringLiteral("ftp.user"), m_fixture.user()},
            {QStringLiteral("ftp.password"), m_fixture.password()},
            {QStringLiteral("ftp.port"), 21},
            {QStringLiteral("ftp.path"), path}};
}

QVariantMap LabFileServers::smbOptions(const QString &path) const
{
    return {{QStringLiteral("smb.share"), share()},
            {QStringLiteral("smb.user"), m_fixture.user()},
            {QStringLiteral("smb.password"), m_fixture.password()},
            {QStringLiteral("smb.domain"), workgroup()},
            {QStringLiteral("smb.port"), 445},
            {QStringLiteral("smb.path"), path}};
}

TestPlan LabFileServers::memoryPlan(const QList<Host> &hosts, const QStringList &protocols, int frame, qint64 size)
{
    TestPlan plan;
    plan.hosts = hosts;
    plan.protocols = protocols;
    plan.frameSizes = {frame};
    plan.repetitions = 1;
    plan.params.fileSizeBytes = size;
    plan.params.options.insert(QLatin1String(TransferSettings::SourceKey), QStringLiteral("memory"));
    plan.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("memory"));
    plan.params.options.insert(QLatin1String(TransferSettings::CreateSeedKey), false);
    return plan;
}

RunResult LabFileServers::runOne(const TestPlan &plan, const QString &putFile) const
{
    QString error;
    const RunResultList results = runPlanToEnd(plan, 120000, &error);
    RunResult r;
    r.error = error;
    if (!results.isEmpty() && error.isEmpty())
        r = results.first();
    QFile::remove(m_fixture.ftpRoot() + QLatin1Char('/') + putFile);
    QFile::remove(m_fixture.smbRoot() + QLatin1Char('/') + putFile);
    return r;
}

bool LabFileServers::writeConfigs(QString *why)
{
    const QString dir = m_fixture.path();
    const QString address = LabSession::serverAddress();
    // As the protocols fixture's servers, but listening on the lab's server address (inside its namespace).
    m_ftpConf = dir + QStringLiteral("/vsftpd-lab.conf");
    const QByteArray ftp
        = QStringLiteral("listen=YES\nlisten_ipv6=NO\nlisten_address=%1\nlisten_port=21\nbackground=NO\n"
                         "seccomp_sandbox=NO\nanonymous_enable=NO\nlocal_enable=YES\nwrite_enable=YES\n"
                         "local_umask=022\npasv_enable=YES\npasv_address=%1\nport_enable=YES\n"
                         "connect_from_port_20=NO\npam_service_name=vsftpd\nsecure_chroot_dir=%2/empty\n"
                         "xferlog_enable=NO\nvsftpd_log_file=%2/vsftpd-lab.log\nmax_clients=20\n")
              .arg(address, dir)
              .toUtf8();
    m_smbConf = dir + QStringLiteral("/smb-lab.conf");
    QByteArray smb
        = QStringLiteral("[global]\n  server role = standalone server\n  workgroup = %3\n"
                         "  netbios name = WBLAB\n  interfaces = %1\n  bind interfaces only = yes\n"
                         "  smb ports = 445\n  disable netbios = yes\n  private dir = %2/smb/private\n"
                         "  lock directory = %2/smb/lock\n  state directory = %2/smb/state\n"
                         "  cache directory = %2/smb/cache\n  pid directory = %2/smb/pid\n"
                         "  ncalrpc dir = %2/smb/ncalrpc\n  log file = %2/smb/log/log.%m\n"
                         "  passdb backend = tdbsam:%2/smb/private/passdb.tdb\n  server min protocol = SMB2_02\n"
                         "  load printers = no\n  printing = bsd\n  printcap name = /dev/null\n"
                         "  disable spoolss = yes\n  map to guest = never\n  server services = -s3fs\n"
                         "[%4]\n  path = %2/share\n  read only = no\n  guest ok = no\n")
              .arg(address, dir, workgroup(), share())
              .toUtf8();
    // For a look at what smbd did: WIREBENCH_LAB_SMB_LOG="10" (a log level) puts smbd's log, which the lab sends to
    // /run/wirebench-lab/ID/smbd.log (smbd --debug-stdout), at that level while the lab is up.
    if (const QByteArray level = qgetenv("WIREBENCH_LAB_SMB_LOG"); !level.isEmpty())
        smb.insert(smb.indexOf("[" + share().toUtf8() + "]"), "  log level = " + level + "\n");
    for (const auto &[path, text] : {std::pair{m_ftpConf, ftp}, std::pair{m_smbConf, smb}}) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size()) {
            *why = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("smbpasswd"),
            {QStringLiteral("-c"), m_smbConf, QStringLiteral("-s"), QStringLiteral("-a"), m_fixture.user()});
    p.write((m_fixture.password() + QLatin1Char('\n') + m_fixture.password() + QLatin1Char('\n')).toUtf8());
    p.closeWriteChannel();
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        *why = QStringLiteral("smbpasswd -a %1 failed: %2")
                   .arg(m_fixture.user(), QString::fromLocal8Bit(p.readAll()).trimmed());
        return false;
    }
    return true;
}

bool LabFileServers::makeServerFile(const QString &path, qint64 size, QString *why) const
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *why = QStringLiteral("cannot create %1: %2").arg(path, f.errorString());
        return false;
    }
    std::vector<char> chunk(4 * 1024 * 1024);
    for (qint64 off = 0; off < size;) {
        const qint64 n = qMin<qint64>(qint64(chunk.size()), size - off);
        TestPattern::fill(chunk.data(), off, n);
        if (f.write(chunk.data(), n) != n) {
            *why = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
        off += n;
    }
    f.close();
    // The servers run as the test user; read it once more so that every page is resident before a run.
    QProcess::execute(QStringLiteral("chown"), {m_fixture.user(), path});
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read %1 back: %2").arg(path, f.errorString());
        return false;
    }
    while (f.read(chunk.data(), qint64(chunk.size())) > 0) {
    }
    return f.size() == size;
}

std::unique_ptr<FileServerFixture> LabFileServers::tmpfsFixture(bool *prepared, QString *why)
{
    // The fixture makes its folder under QDir::tempPath(), i.e. $TMPDIR.
    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", "/dev/shm");
    auto fixture = std::make_unique<FileServerFixture>();
    *prepared = fixture->prepare(why);
    if (oldTmp.isEmpty())
        qunsetenv("TMPDIR");
    else
        qputenv("TMPDIR", oldTmp);
    return fixture;
}

} // namespace wb::test
