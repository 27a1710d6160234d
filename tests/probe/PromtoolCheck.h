#pragma once
// promtool check metrics (the `prometheus` package) over a text, for the probe tests: Debian 12's promtool 2.42
// reads the classic text format only.
#include <QProcess>
#include <QStandardPaths>
#include <QString>

namespace wb::test {

/// promtool's path, empty when it is not installed.
inline QString promtoolPath()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

/// Runs `promtool check metrics` on text; true when it accepts it, else false with what it said in *said.
inline bool promtoolAccepts(const QByteArray &text, QString *said)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(promtoolPath(), {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!p.waitForStarted(30000)) {
        *said = QStringLiteral("promtool did not start: %1").arg(p.errorString());
        return false;
    }
    p.write(text);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(10000);
        *said = QStringLiteral("promtool did not end within 60 s");
        return false;
    }
    *said = QString::fromUtf8(p.readAll()).trimmed();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

} // namespace wb::test
