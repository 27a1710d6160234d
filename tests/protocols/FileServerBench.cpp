// wirebench-fileserver-bench: Wirebench's FTP and SMB drivers against curl and smbclient, on the same real
// vsftpd and smbd (started here, on 127.0.0.1), alternating, and the median ratios. Run by bench/fileservers.sh.
#include "FileServerFixture.h"
#include "support/PeerTools.h"

#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TestPattern.h"
#include "stats/Statistics.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>

#include <cstdio>

using namespace wb;
using namespace wb::test;

namespace {

struct Args
{
    qint64 sizeBytes = 128LL * 1024 * 1024;
    int reps = 5;
};

double runWirebench(const QString &protocol, const Host &host, const QString &path, qint64 size, QString *error)
{
    RunSpec s;
    s.protocol = protocol;
    s.host = host;
    s.host.options.insert(
        protocol.startsWith(QLatin1String("ftp")) ? QStringLiteral("ftp.path") : QStringLiteral("smb.path"), path);
    s.frameSize = 0; // loopback: leave the MSS alone, as curl and smbclient do
    s.params.fileSizeBytes = size;
    TestObserver o;
    const RunResult r = DriverRegistry::create(protocol)->run(s, o);
    if (!r.ok()) {
        *error = r.error;
        return 0;
    }
    return r.megabytesPerSecond();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Args a;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--size-mib"))
            a.sizeBytes = args[i + 1].toLongLong() * 1024 * 1024;
        else if (args[i] == QLatin1String("--reps"))
            a.reps = qMax(1, args[i + 1].toInt());
    }
    FileServerFixture servers;
    QString why;
    if (!servers.prepare(&why) || !servers.startFtp(&why) || !servers.startSmb(&why)) {
        std::fprintf(stderr, "cannot start the servers: %s\n", qPrintable(why));
        return 2;
    }
    const QString user = servers.user();
    const QString password = servers.password();
    const Host ftp = servers.ftpHost();
    const Host smb = servers.smbHost();
    const QString ftpUrl = QStringLiteral("ftp://127.0.0.1:%1/").arg(servers.ftpPort());
    const QString cred = user + QLatin1Char(':') + password;
    const QString smbCred = user + QLatin1Char('%') + password;
    const QString share = QStringLiteral("//127.0.0.1/wbshare");
    const QString port = QString::number(servers.smbPort());

    // The local file curl and smbclient upload (Wirebench uploads the same pattern from memory).
    const QString localFile = servers.scratch() + QStringLiteral("/upload.bin");
    {
        QFile f(localFile);
        if (!f.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(localFile));
            return 2;
        }
        QByteArray chunk(4 * 1024 * 1024, Qt::Uninitialized);
        for (qint64 off = 0; off < a.sizeBytes; off += chunk.size()) {
            const qint64 n = qMin<qint64>(chunk.size(), a.sizeBytes - off);
            TestPattern::fill(chunk.data(), off, n);
            f.write(chunk.constData(), n);
        }
    }
    QFile::setPermissions(localFile, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);

    std::printf("File-server shoot-out on 127.0.0.1 (vsftpd %s, smbd %s): %lld MiB file, %d alternating pairs\n",
                qPrintable(QStringLiteral("port %1").arg(servers.ftpPort())),
                qPrintable(QStringLiteral("port %1").arg(port)), a.sizeBytes / (1024 * 1024), a.reps);
    std::printf("Units: MB/s = 10^6 B/s. FTP figures: size / (total - pretransfer) for both tools; smbclient's\n"
                "KiloBytes/sec (KiB/s) converted to MB/s.\n\n");
    std::fflush(stdout);

    struct Test
    {
        Test(const QString &n, const QString &t)
            : name(n)
            , tool(t)
        {
        }
        QString name;
        QString tool;
        QList<double> wb;
        QList<double> other;
        QList<double> curlWhole;
    };
    QList<Test> tests = {{QStringLiteral("FTP GET"), QStringLiteral("curl")},
                         {QStringLiteral("FTP PUT"), QStringLiteral("curl -T")},
                         {QStringLiteral("SMB read"), QStringLiteral("smbclient get")},
                         {QStringLiteral("SMB write"), QStringLiteral("smbclient put")}};
    QString error;
    const QString getFormat = QStringLiteral("%{size_download} %{time_pretransfer} %{time_total} %{speed_download}");
    const QString putFormat = QStringLiteral("%{size_upload} %{time_pretransfer} %{time_total} %{speed_upload}");

    for (int rep = 1; rep <= a.reps; ++rep) {
        // FTP PUT: Wirebench, then curl (each writes its own file).
        double whole = 0;
        const double wbPut
            = runWirebench(QStringLiteral("ftp-put"), ftp, QStringLiteral("wb.bin"), a.sizeBytes, &error);
        const QString cp
            = PeerTools::run(QStringLiteral("curl"),
                             {QStringLiteral("-sS"), QStringLiteral("-u"), cred, QStringLiteral("-T"), localFile,
                              ftpUrl + QStringLiteral("curl.bin"), QStringLiteral("-w"), putFormat},
                             &error);
        tests[1].wb << wbPut;
        tests[1].other << PeerTools::curlMBps(cp, &whole);
        tests[1].curlWhole << whole;
        // FTP GET of the same file.
        const double wbGet
            = runWirebench(QStringLiteral("ftp-get"), ftp, QStringLiteral("wb.bin"), a.sizeBytes, &error);
        const QString cg
            = PeerTools::run(QStringLiteral("curl"),
                             {QStringLiteral("-sS"), QStringLiteral("-u"), cred, ftpUrl + QStringLiteral("wb.bin"),
                              QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"), getFormat},
                             &error);
        tests[0].wb << wbGet;
        tests[0].other << PeerTools::curlMBps(cg, &whole);
        tests[0].curlWhole << whole;
        // SMB write and read.
        const double wbWrite
            = runWirebench(QStringLiteral("smb-write"), smb, QStringLiteral("wb.bin"), a.sizeBytes, &error);
        const QString sp = PeerTools::run(QStringLiteral("smbclient"),
                                          {share, QStringLiteral("-p"), port, QStringLiteral("-U"), smbCred,
                                           QStringLiteral("-c"), QStringLiteral("put %1 smbclient.bin").arg(localFile)},
                                          &error);
        tests[3].wb << wbWrite;
        tests[3].other << PeerTools::smbclientMBps(sp);
        const double wbRead
            = runWirebench(QStringLiteral("smb-read"), smb, QStringLiteral("wb.bin"), a.sizeBytes, &error);
        const QString sg = PeerTools::run(QStringLiteral("smbclient"),
                                          {share, QStringLiteral("-p"), port, QStringLiteral("-U"), smbCred,
                                           QStringLiteral("-c"), QStringLiteral("get wb.bin /dev/null")},
                                          &error);
        tests[2].wb << wbRead;
        tests[2].other << PeerTools::smbclientMBps(sg);
        std::printf("pair %d: FTP GET %.1f vs %.1f | FTP PUT %.1f vs %.1f | SMB read %.1f vs %.1f | SMB write %.1f vs "
                    "%.1f MB/s\n",
                    rep, wbGet, tests[0].other.last(), wbPut, tests[1].other.last(), wbRead, tests[2].other.last(),
                    wbWrite, tests[3].other.last());
        if (!error.isEmpty()) {
            std::printf("  error: %s\n", qPrintable(error));
            error.clear();
        }
        std::fflush(stdout);
    }

    std::printf("\n%-10s %-14s %14s %14s %8s\n", "test", "compared with", "Wirebench MB/s", "tool MB/s", "ratio");
    bool allAtLeastOne = true;
    for (const Test &t : tests) {
        const double w = Statistics::summarize(t.wb).median;
        const double o = Statistics::summarize(t.other).median;
        const double ratio = o > 0 ? w / o : 0;
        allAtLeastOne = allAtLeastOne && ratio >= 1.0;
        std::printf("%-10s %-14s %14.1f %14.1f %8.2f\n", qPrintable(t.name), qPrintable(t.tool), w, o, ratio);
    }
    const double getWhole = Statistics::summarize(tests[0].curlWhole).median;
    const double putWhole = Statistics::summarize(tests[1].curlWhole).median;
    std::printf("(curl's own speed_download/speed_upload, which also counts login time: GET %.1f, PUT %.1f MB/s)\n",
                getWhole, putWhole);
    std::printf("target ratio >= 1.00 each: %s\n", allAtLeastOne ? "met" : "NOT met");
    return 0;
}
