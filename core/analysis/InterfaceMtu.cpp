#include "InterfaceMtu.h"

#include "platform/Platform.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace wb {

namespace {

// The network namespace the interface names belong to: a state file written in another namespace (a
// test lab) must not rename-match interfaces here.
QString netnsId()
{
    return QString::fromStdString(platform::Platform::mtuControl().namespaceId());
}

} // namespace

InterfaceMtu::InterfaceMtu(const QString &stateFile)
    : m_stateFile(stateFile.isEmpty() ? defaultStateFile() : stateFile)
{
}

InterfaceMtu::~InterfaceMtu()
{
    if (!m_original.isEmpty())
        restore();
}

QString InterfaceMtu::defaultStateFile()
{
    const QString env = qEnvironmentVariable("WIREBENCH_MTU_STATE");
    if (!env.isEmpty())
        return env;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::tempPath();
    return dir + QStringLiteral("/Wirebench/interface-mtu.json");
}

bool InterfaceMtu::isRoot()
{
    return platform::Platform::mtuControl().privileged();
}

int InterfaceMtu::current(const QString &iface)
{
    return platform::Platform::mtuControl().mtu(iface.toStdString());
}

bool InterfaceMtu::set(const QString &iface, int mtu, QString *error)
{
    std::string e;
    if (platform::Platform::mtuControl().setMtu(iface.toStdString(), mtu, &e))
        return true;
    *error = QString::fromStdString(e);
    return false;
}

void InterfaceMtu::save() const
{
    if (m_original.isEmpty()) {
        QFile::remove(m_stateFile);
        return;
    }
    QJsonObject ifaces;
    for (auto it = m_original.cbegin(); it != m_original.cend(); ++it)
        ifaces.insert(it.key(), it.value());
    QJsonObject root{{QStringLiteral("netns"), netnsId()}, {QStringLiteral("interfaces"), ifaces}};
    QDir().mkpath(QFileInfo(m_stateFile).absolutePath());
    QSaveFile f(m_stateFile);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(root).toJson());
        f.commit();
    }
}

bool InterfaceMtu::apply(const QString &iface, int mtu, QString *error)
{
    if (!isRoot()) {
        *error = QStringLiteral("setting the MTU of %1 to %2 bytes needs root: run Wirebench as root (sudo) or set it "
                                "yourself with 'ip link set dev %1 mtu %2'")
                     .arg(iface)
                     .arg(mtu);
        return false;
    }
    const int before = current(iface);
    if (before <= 0) {
        *error = QStringLiteral("cannot read the MTU of interface %1: is it still there?").arg(iface);
        return false;
    }
    if (before == mtu)
        return true;
    if (!m_original.contains(iface)) {
        m_original.insert(iface, before);
        save(); // before the change: a crash right after it still finds the original
    }
    if (!set(iface, mtu, error)) {
        if (m_original.value(iface) == before && before == current(iface)) {
            m_original.remove(iface);
            save();
        }
        return false;
    }
    return true;
}

QStringList InterfaceMtu::restore()
{
    QStringList lines;
    for (auto it = m_original.cbegin(); it != m_original.cend(); ++it) {
        QString e;
        if (current(it.key()) == it.value() || set(it.key(), it.value(), &e))
            lines << QStringLiteral("restored the MTU of %1 to %2 bytes").arg(it.key()).arg(it.value());
        else
            lines << QStringLiteral("%1; set it back by hand with 'ip link set dev %2 mtu %3'")
                         .arg(e, it.key())
                         .arg(it.value());
    }
    m_original.clear();
    save();
    return lines;
}

QStringList InterfaceMtu::restoreLeftovers(const QString &stateFile)
{
    const QString path = stateFile.isEmpty() ? defaultStateFile() : stateFile;
    QFile f(path);
    if (!f.exists() || !f.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject root = QJsonDocument::fromJson(f.read(64 * 1024)).object();
    f.close();
    const QJsonObject ifaces = root.value(QStringLiteral("interfaces")).toObject();
    if (ifaces.isEmpty()) {
        QFile::remove(path);
        return {};
    }
    if (root.value(QStringLiteral("netns")).toString() != netnsId()) {
        // Another namespace wrote it (a lab that may be gone): leave it for a process in that namespace.
        return {QStringLiteral("%1 lists interface MTUs changed in another network namespace; not touched").arg(path)};
    }
    InterfaceMtu m(path);
    for (auto it = ifaces.constBegin(); it != ifaces.constEnd(); ++it) {
        const int mtu = it.value().toInt();
        if (mtu >= 68 && mtu <= 65535)
            m.m_original.insert(it.key(), mtu);
    }
    QStringList lines = m.restore();
    for (QString &l : lines)
        l = QStringLiteral("after an interrupted run: ") + l;
    return lines;
}

} // namespace wb
