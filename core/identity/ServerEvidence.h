#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

namespace wb {

/// One thing a server said about itself, where it came from and the OS label it suggests. A probe that
/// could not ask keeps its one-line reason in error (and leaves said and suggests empty).
struct ServerEvidence
{
    QString source;   ///< "FTP greeting (220)", "SMB NTLMSSP version", "wirebenchd hello", ...
    QString said;     ///< what the server sent, verbatim (decoded fields for binary answers)
    QString suggests; ///< the OS label this suggests, e.g. "Samba (Linux/Unix)"; empty = no opinion
    QString error;    ///< one line: host, port, what failed, what to try
    /// How much the suggestion says: an exact OS (wirebenchd's hello) outranks a product's name (an FTP banner).
    int rank = 0;

    bool failed() const { return !error.isEmpty(); }
    static ServerEvidence failure(const QString &source, const QString &error);
    bool operator==(const ServerEvidence &) const = default;
};

using ServerEvidenceList = QList<ServerEvidence>;

/// The suggestion of highest rank (the first of equals), or null when nothing suggests a label.
const ServerEvidence *bestEvidence(const ServerEvidenceList &evidence);
/// bestEvidence()'s label, or an empty string.
QString bestOsLabel(const ServerEvidenceList &evidence);

} // namespace wb

Q_DECLARE_METATYPE(wb::ServerEvidence)
Q_DECLARE_METATYPE(wb::ServerEvidenceList)
