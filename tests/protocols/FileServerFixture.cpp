#include "FileServerFixture.h"

#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>

#include <pwd.h>
#include <sys/types.h>
#include <unistd.h>

namespace wb::test {

namespace {

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

/// Pids of all descendants of root, read from /proc (children first found, then theirs).
QList<qint64> descendants(qint64 root)
{
    QList<qint64> found{root};
    bool grew = true;
    QList<qint64> result;
    while (grew) {
        grew = false;
        const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &e : entries) {
            bool ok = false;
            const qint64 pid = e.toLongLong(&ok);
            if (!ok || found.contains(pid))
                continue;
            QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray line = stat.readAll();
            const int close = line.lastIndexOf(')');
            const QList<QByteArray> fields = line.mid(close + 2).split(' ');
            if (fields.size() > 2 && found.contains(fields.at(1).toLongLong())) {
                found << pid;
                result << pid;
                grew = true;
            }
        }
    }
    return result;
}

/// Users left behind by a test process that was killed before its destructor ran (name: wbt<pid>x<n>).
void removeStaleUsers()
{
    QFile passwd(QStringLiteral("/etc/passwd"));
    if (!passwd.open(QIODevice::ReadOnly))
        return;
    static const QRegularExpression name(QStringLiteral("^wbt(\\d+)x\\d+$"));
    for (const QByteArray &line : passwd.readAll().split('\n')) {
        const QString user = QString::fromUtf8(line.left(line.indexOf(':')));
        const QRegularExpressionMatch m = name.match(user);
        if (m.hasMatch() && !QFile::exists(QStringLiteral("/proc/") + m.captured(1)))
            QProcess::execute(QStringLiteral("userdel"), {QStringLiteral("-f"), user});
    }
}

} // namespace

FileServerFixture::FileServerFixture() = default;

FileServerFixture::~FileServerFixture()
{
    stopAll();
    if (m_userCreated)
        run(QStringLiteral("userdel"), {QStringLiteral("-f"), m_user}, {}, nullptr);
}

bool FileServerFixture::run(const QString &program, const QStringList &args, const QByteArray &input, QString *output)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return false;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(30000);
    if (output)
        *output = QString::fromLocal8Bit(p.readAll()).trimmed();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

quint16 FileServerFixture::freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

bool FileServerFixture::prepare(QString *why)
{
    if (geteuid() != 0) {
        *why = QStringLiteral("needs root: the test creates a Unix user for vsftpd and smbd");
        return false;
    }
    for (const char *tool : {"/usr/sbin/vsftpd", "/usr/sbin/smbd", "/usr/bin/smbpasswd", "/usr/sbin/useradd"}) {
        if (!QFile::exists(QLatin1String(tool))) {
            *why = QStringLiteral("%1 is not installed (apt-get install vsftpd samba)").arg(QLatin1String(tool));
            return false;
        }
    }
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/wbfs-XXXXXX"));
    if (!m_dir->isValid()) {
        *why = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    // The servers drop to the test user, who must be able to walk into the folder.
    QFile::setPermissions(m_dir->path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                              | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                              | QFileDevice::ExeOther);
    QDir d(m_dir->path());
    for (const char *sub : {"home", "share", "scratch", "empty", "smb/private", "smb/lock", "smb/state", "smb/cache",
                            "smb/pid", "smb/ncalrpc", "smb/log"})
        d.mkpath(QLatin1String(sub));
    removeStaleUsers();
    m_user = QStringLiteral("wbt%1x%2").arg(getpid()).arg(QRandomGenerator::global()->bounded(1000));
    m_password = QStringLiteral("Pw-%1").arg(QRandomGenerator::global()->generate(), 0, 16);
    QString out;
    if (!run(QStringLiteral("useradd"),
             {QStringLiteral("-M"), QStringLiteral("-d"), ftpRoot(), QStringLiteral("-s"), QStringLiteral("/bin/sh"),
              m_user},
             {}, &out)) {
        *why = QStringLiteral("useradd %1 failed: %2").arg(m_user, out);
        return false;
    }
    m_userCreated = true;
    if (!run(QStringLiteral("chpasswd"), {}, (m_user + QLatin1Char(':') + m_password + QLatin1Char('\n')).toUtf8(),
             &out)) {
        *why = QStringLiteral("chpasswd failed: %1").arg(out);
        return false;
    }
    for (const QString &dir : {ftpRoot(), smbRoot()}) {
        if (!run(QStringLiteral("chown"), {m_user, dir}, {}, &out)) {
            *why = QStringLiteral("chown failed: %1").arg(out);
            return false;
        }
    }
    return true;
}

bool FileServerFixture::waitForPort(quint16 port, QProcess &process, QString *why)
{
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        if (process.state() != QProcess::Running) {
            *why = QStringLiteral("%1 exited: %2")
                       .arg(process.program(), QString::fromLocal8Bit(process.readAll()).trimmed());
            return false;
        }
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, port);
        if (s.waitForConnected(500)) {
            s.disconnectFromHost();
            return true;
        }
        QThread::msleep(100);
    }
    *why = QStringLiteral("%1 did not listen on 127.0.0.1:%2 within 20 s").arg(process.program()).arg(port);
    return false;
}

bool FileServerFixture::startFtp(QString *why)
{
    m_ftpPort = freePort();
    return startVsftpd(m_ftp, m_ftpPort, QStringLiteral("vsftpd.conf"), {}, why);
}

bool FileServerFixture::startFtps(QString *why)
{
    if (!makeCertificates(why))
        return false;
    m_ftpsPort = freePort();
    const QString tls = m_dir->path() + QStringLiteral("/tls");
    // vsftpd's defaults otherwise: TLS 1.2 and later, require_ssl_reuse=YES (the data connection must resume
    // the control connection's TLS session), as a stock vsftpd with ssl_enable=YES has them.
    const QByteArray extra = QStringLiteral("ssl_enable=YES\nallow_anon_ssl=NO\nforce_local_logins_ssl=YES\n"
                                            "force_local_data_ssl=YES\nrsa_cert_file=%1/server.pem\n"
                                            "rsa_private_key_file=%1/server.key\n")
                                 .arg(tls)
                                 .toUtf8();
    return startVsftpd(m_ftps, m_ftpsPort, QStringLiteral("vsftpd-tls.conf"), extra, why);
}

bool FileServerFixture::makeCertificates(QString *why)
{
    if (!QFile::exists(QStringLiteral("/usr/bin/openssl"))) {
        *why = QStringLiteral("/usr/bin/openssl is not installed (apt-get install openssl)");
        return false;
    }
    const QString tls = m_dir->path() + QStringLiteral("/tls");
    QDir().mkpath(tls);
    if (!writeFile(tls + QStringLiteral("/server.ext"),
                   "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                   "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n")) {
        *why = QStringLiteral("cannot write %1/server.ext").arg(tls);
        return false;
    }
    const QString openssl = QStringLiteral("/usr/bin/openssl");
    const QList<QStringList> steps = {
        {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
         QStringLiteral("-nodes"), QStringLiteral("-keyout"), tls + QStringLiteral("/ca.key"), QStringLiteral("-out"),
         caFile(), QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
         QStringLiteral("/CN=Wirebench test CA")},
        {QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
         QStringLiteral("-keyout"), tls + QStringLiteral("/server.key"), QStringLiteral("-out"),
         tls + QStringLiteral("/server.csr"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")},
        {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), tls + QStringLiteral("/server.csr"),
         QStringLiteral("-CA"), caFile(), QStringLiteral("-CAkey"), tls + QStringLiteral("/ca.key"),
         QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), tls + QStringLiteral("/server.pem"),
         QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"), tls + QStringLiteral("/server.ext")},
    };
    for (const QStringList &args : steps) {
        QString out;
        if (!run(openssl, args, {}, &out)) {
            *why = QStringLiteral("openssl %1 failed: %2").arg(args.first(), out);
            return false;
        }
    }
    return true;
}

bool FileServerFixture::startVsftpd(QProcess &process, quint16 port, const QString &confName, const QByteArray &extra,
                                    QString *why)
{
    const QString conf = m_dir->path() + QLatin1Char('/') + confName;
    const QByteArray text
        = QStringLiteral(
              "listen=YES\nlisten_ipv6=NO\nlisten_address=127.0.0.1\nlisten_port=%1\nbackground=NO\n"
              "seccomp_sandbox=NO\nanonymous_enable=NO\nlocal_enable=YES\nwrite_enable=YES\nlocal_umask=022\n"
              "pasv_enable=YES\npasv_address=127.0.0.1\nport_enable=YES\nconnect_from_port_20=NO\n"
              "pam_service_name=vsftpd\nsecure_chroot_dir=%2/empty\nxferlog_enable=NO\n"
              "vsftpd_log_file=%2/vsftpd.log\nmax_clients=50\n")
              .arg(port)
              .arg(m_dir->path())
              .toUtf8()
        + extra;
    if (!writeFile(conf, text)) {
        *why = QStringLiteral("cannot write %1").arg(conf);
        return false;
    }
    process.setProcessChannelMode(QProcess::MergedChannels);
    startServer(process, QStringLiteral("/usr/sbin/vsftpd"), {conf}, true);
    if (!process.waitForStarted(10000)) {
        *why = QStringLiteral("vsftpd did not start: %1").arg(process.errorString());
        return false;
    }
    return waitForPort(port, process, why);
}

bool FileServerFixture::useSmallDisk(qint64 bytes, QString *why)
{
    if (!m_dir || !m_userCreated) {
        *why = QStringLiteral("call prepare() first");
        return false;
    }
    if (!QFile::exists(QStringLiteral("/usr/bin/unshare"))) {
        *why = QStringLiteral("/usr/bin/unshare is missing (apt-get install util-linux)");
        return false;
    }
    // Try it once, so that a system without mount namespaces says so here rather than as a dead server.
    const QString probe = m_dir->path() + QStringLiteral("/empty");
    QString out;
    if (!run(QStringLiteral("/usr/bin/unshare"),
             {QStringLiteral("-m"), QStringLiteral("--propagation"), QStringLiteral("private"), QStringLiteral("mount"),
              QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), QStringLiteral("size=1m"),
              QStringLiteral("wbtest-probe"), probe},
             {}, &out)) {
        *why = QStringLiteral("cannot mount a tmpfs in a private mount namespace (needs root with CAP_SYS_ADMIN): %1")
                   .arg(out);
        return false;
    }
    for (bool ftp : {true, false}) {
        QDir().mkpath(smallDisk(ftp));
        if (!run(QStringLiteral("chown"), {m_user, smallDisk(ftp)}, {}, &out)) {
            *why = QStringLiteral("chown failed: %1").arg(out);
            return false;
        }
    }
    m_smallDiskBytes = bytes;
    return true;
}

void FileServerFixture::startServer(QProcess &process, const QString &program, const QStringList &args, bool ftp)
{
    if (m_smallDiskBytes <= 0) {
        process.start(program, args);
        return;
    }
    const passwd *pw = ::getpwnam(m_user.toLocal8Bit().constData());
    const QString options = QStringLiteral("size=%1,mode=0755,uid=%2,gid=%3")
                                .arg(m_smallDiskBytes)
                                .arg(pw ? pw->pw_uid : 0)
                                .arg(pw ? pw->pw_gid : 0);
    // unshare and sh both exec: the server keeps the pid that QProcess knows (killSessions, stopAll).
    // The namespace, and with it the tmpfs, ends with the server.
    process.start(
        QStringLiteral("/usr/bin/unshare"),
        QStringList{QStringLiteral("-m"), QStringLiteral("--propagation"), QStringLiteral("private"),
                    QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("mount -t tmpfs -o %1 wbtest-full \"$1\" && shift && exec \"$@\"").arg(options),
                    QStringLiteral("sh"), smallDisk(ftp), program}
            + args);
}

bool FileServerFixture::startSmb(QString *why)
{
    m_smbPort = freePort();
    const QString dir = m_dir->path();
    const QString conf = dir + QStringLiteral("/smb.conf");
    const QByteArray text
        = QStringLiteral(
              "[global]\n  server role = standalone server\n  workgroup = WBTEST\n  netbios name = WBTEST\n"
              "  server string = Wirebench test Samba\n  interfaces = 127.0.0.1\n  bind interfaces only = yes\n"
              "  smb ports = %1\n  disable netbios = yes\n  private dir = %2/smb/private\n  lock directory = "
              "%2/smb/lock\n"
              "  state directory = %2/smb/state\n  cache directory = %2/smb/cache\n  pid directory = %2/smb/pid\n"
              "  ncalrpc dir = %2/smb/ncalrpc\n  log file = %2/smb/log/log.%m\n"
              "  passdb backend = tdbsam:%2/smb/private/passdb.tdb\n  server min protocol = SMB2_02\n"
              "  load printers = no\n  printing = bsd\n  printcap name = /dev/null\n  disable spoolss = yes\n"
              "  map to guest = never\n  server services = -s3fs\n%3"
              "[wbshare]\n  path = %2/share\n  read only = no\n  guest ok = no\n")
              .arg(m_smbPort)
              .arg(dir)
              .arg(m_extraSmbConf.isEmpty()
                       ? QString()
                       : QStringLiteral("  ") + m_extraSmbConf.join(QStringLiteral("\n  ")) + QLatin1Char('\n'))
              .toUtf8();
    if (!writeFile(conf, text)) {
        *why = QStringLiteral("cannot write %1").arg(conf);
        return false;
    }
    QString out;
    const QByteArray pw = (m_password + QLatin1Char('\n') + m_password + QLatin1Char('\n')).toUtf8();
    if (!run(QStringLiteral("smbpasswd"),
             {QStringLiteral("-c"), conf, QStringLiteral("-s"), QStringLiteral("-a"), m_user}, pw, &out)) {
        *why = QStringLiteral("smbpasswd -a failed: %1").arg(out);
        return false;
    }
    m_smb.setProcessChannelMode(QProcess::MergedChannels);
    // smbd signals its whole process group when it shuts down: give it a group of its own, not ours.
    m_smb.setChildProcessModifier([] { ::setpgid(0, 0); });
    startServer(
        m_smb, QStringLiteral("/usr/sbin/smbd"),
        {QStringLiteral("--foreground"), QStringLiteral("--no-process-group"), QStringLiteral("--configfile=") + conf},
        false);
    if (!m_smb.waitForStarted(10000)) {
        *why = QStringLiteral("smbd did not start: %1").arg(m_smb.errorString());
        return false;
    }
    return waitForPort(m_smbPort, m_smb, why);
}

int FileServerFixture::killSessions(bool ftp)
{
    QProcess &p = ftp ? m_ftp : m_smb;
    if (p.state() != QProcess::Running)
        return 0;
    const QList<qint64> pids = descendants(p.processId());
    for (qint64 pid : pids)
        ::kill(pid_t(pid), SIGKILL);
    return int(pids.size());
}

namespace {

/// smbd starts samba-dcerpcd on demand for RPC (a share list asks srvsvc), and that daemon detaches from smbd,
/// so stopping smbd leaves it behind. Kills the processes whose command line names the fixture's folder.
void killSambaLeftovers(const QString &folder)
{
    const QByteArray needle = folder.toLocal8Bit();
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok || pid == QCoreApplication::applicationPid())
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray args = cmdline.readAll();
        const bool samba = args.startsWith("/usr/libexec/samba/") || args.contains("samba-dcerpcd");
        if (samba && args.contains(needle))
            ::kill(pid_t(pid), SIGKILL);
    }
}

} // namespace

void FileServerFixture::stopAll()
{
    for (QProcess *p : {&m_ftp, &m_ftps, &m_smb}) {
        if (p->state() == QProcess::NotRunning)
            continue;
        const QList<qint64> children = descendants(p->processId());
        p->terminate();
        if (!p->waitForFinished(5000)) {
            p->kill();
            p->waitForFinished(5000);
        }
        for (qint64 pid : children)
            ::kill(pid_t(pid), SIGKILL);
    }
    if (m_dir && m_dir->isValid())
        killSambaLeftovers(m_dir->path());
}

Host FileServerFixture::ftpHost() const
{
    Host h;
    h.name = QStringLiteral("test-vsftpd");
    h.address = QStringLiteral("127.0.0.1");
    h.options.insert(QStringLiteral("ftp.user"), m_user);
    h.options.insert(QStringLiteral("ftp.password"), m_password);
    h.options.insert(QStringLiteral("ftp.port"), m_ftpPort);
    return h;
}

Host FileServerFixture::ftpsHost() const
{
    Host h = ftpHost();
    h.name = QStringLiteral("test-vsftpd-tls");
    h.options.insert(QStringLiteral("ftp.port"), m_ftpsPort);
    h.options.insert(QStringLiteral("ftp.tls"), true);
    return h;
}

Host FileServerFixture::smbHost() const
{
    Host h;
    h.name = QStringLiteral("test-samba");
    h.address = QStringLiteral("127.0.0.1");
    h.options.insert(QStringLiteral("smb.share"), QStringLiteral("wbshare"));
    h.options.insert(QStringLiteral("smb.user"), m_user);
    h.options.insert(QStringLiteral("smb.password"), m_password);
    h.options.insert(QStringLiteral("smb.domain"), QStringLiteral("WBTEST"));
    h.options.insert(QStringLiteral("smb.port"), m_smbPort);
    return h;
}

QString faultProblem(const RunResult &r, const QString &fault, const QString &prefix, const QString &phrase,
                     qint64 fileBytes)
{
    qInfo("%s (%lld B counted, %lld samples)", qPrintable(r.error), r.bytes, qint64(r.samples.size()));
    if (r.status != RunStatus::Failed)
        return QStringLiteral("the run did not fail");
    if (r.extra.value(QStringLiteral("fault")).toString() != fault)
        return QStringLiteral("fault %1, expected %2").arg(r.extra.value(QStringLiteral("fault")).toString(), fault);
    if (!r.error.startsWith(prefix) || !r.error.contains(phrase) || r.error.contains(QLatin1Char('\n')))
        return QStringLiteral("the error line does not start with \"%1\" or lacks \"%2\": %3")
            .arg(prefix, phrase, r.error);
    if (r.bytes <= 0 || r.bytes >= fileBytes || r.samples.isEmpty() || r.seconds <= 0)
        return QStringLiteral("what was measured before the fault is lost (%1 B, %2 samples)")
            .arg(r.bytes)
            .arg(r.samples.size());
    return {};
}

void sinkToFile(RunSpec &spec, const QString &path)
{
    spec.params.options.insert(QLatin1String(TransferSettings::SinkKey), QStringLiteral("file"));
    spec.params.options.insert(QLatin1String(TransferSettings::LocalPathKey), path);
}

namespace {

QByteArray writeOwned(const QString &path, const QByteArray &content, const QString &owner)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(content) != content.size())
        return {};
    f.close();
    if (!owner.isEmpty() && QProcess::execute(QStringLiteral("chown"), {owner, path}) != 0)
        return {};
    return QCryptographicHash::hash(content, QCryptographicHash::Sha256);
}

} // namespace

QByteArray makeForeignFile(const QString &path, qint64 bytes, const QString &owner)
{
    QByteArray content(bytes, Qt::Uninitialized);
    QRandomGenerator generator(0x5eed);
    for (char &c : content)
        c = char(generator.bounded(256));
    return writeOwned(path, content, owner);
}

QByteArray makeTestPatternFile(const QString &path, qint64 bytes, const QString &owner)
{
    QByteArray content(bytes, Qt::Uninitialized);
    TestPattern::fill(content.data(), 0, bytes);
    return writeOwned(path, content, owner);
}

QByteArray fileDigest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return hash.result();
}

bool makeReadOnlyFolder(const QString &path)
{
    return QDir().mkpath(path) && ::chown(QFile::encodeName(path).constData(), 0, 0) == 0
        && QFile::setPermissions(path,
                                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                     | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                     | QFileDevice::ExeOther);
}

} // namespace wb::test
