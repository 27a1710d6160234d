#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace wb {

/// The optional, off-by-default MTU setter ("Set the local interface MTU for each frame size").
/// As root it sets a local interface's MTU (platform::MtuControl) and remembers the original in a small
/// state file before the first change, so that restore() - after the block, on Stop, on error - and, when
/// the app died in between, restoreLeftovers() on the next start put it back.
class InterfaceMtu
{
public:
    /// stateFile empty: defaultStateFile().
    explicit InterfaceMtu(const QString &stateFile = {});
    ~InterfaceMtu();

    /// Sets iface to mtu, saving its original MTU first (once per interface until restore()).
    /// Returns false with one line in *error (not root, no such interface, the driver refused the value).
    bool apply(const QString &iface, int mtu, QString *error);
    /// Puts every changed interface back and removes the state file. Returns one line per interface
    /// restored or not restored (for the status line and the log).
    QStringList restore();
    /// Interfaces changed by this object and not yet restored: name -> original MTU (bytes).
    QMap<QString, int> changed() const { return m_original; }

    /// Restores what a previous process left in the state file (it died between apply and restore).
    static QStringList restoreLeftovers(const QString &stateFile = {});
    /// $WIREBENCH_MTU_STATE when set, else <GenericDataLocation>/Wirebench/interface-mtu.json (one
    /// file for the GUI and the CLI, which have different AppDataLocations).
    static QString defaultStateFile();
    /// The interface's MTU in bytes; 0 when unknown.
    static int current(const QString &iface);
    /// Sets the MTU; needs the platform's privilege (Linux: CAP_NET_ADMIN).
    static bool set(const QString &iface, int mtu, QString *error);
    static bool isRoot();

private:
    void save() const;

    QString m_stateFile;
    QMap<QString, int> m_original;
};

} // namespace wb
