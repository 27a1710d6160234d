#pragma once

#include <QMetaType>
#include <QString>
#include <QVariantMap>

namespace wb {

/// A far host as the user describes it. Plain value type: copied into plans and results.
struct Host
{
    QString name;                                      ///< what the user calls it, e.g. "fileserver-linux"
    QString address;                                   ///< hostname, IPv4 or IPv6 literal
    quint16 port = 0;                                  ///< control port of the server type; 0 = its default
    QString osLabel;                                   ///< "Linux", "Windows Server 2003", ... (user's or detected)
    QString serverType = QStringLiteral("wirebenchd"); ///< "wirebenchd" or "iperf3"
    double linkSpeedMbps = 0;                          ///< user override of the link rate (Mbit/s); 0 = detect
    bool embedded = false;                             ///< the in-process loopback responder of the GUI
    /// Protocol settings that belong to the host (ftp.user, ftp.path, smb.share, ...).
    /// Secrets (passwords, keys) never live here: they go to the keychain.
    QVariantMap options;

    QString displayName() const { return name.isEmpty() ? address : name; }
    bool operator==(const Host &) const = default;
};

} // namespace wb

Q_DECLARE_METATYPE(wb::Host)
