#pragma once

#include "model/RunSpec.h"

#include <QString>

namespace wb {

/// The faults a file transfer can meet, each with its own advice to the user.
enum class TransferFault {
    None,
    LoginRefused, ///< wrong password or unknown user (servers do not say which)
    NoSuchPath,
    NoSuchShare,
    PermissionDenied,
    NotListening,
    Unreachable,
    TimedOut,
    ClosedMidTransfer,
    RemoteDiskFull,
    LocalDiskFull,
    LocalError,
    TlsFailed,     ///< the TLS handshake failed for another reason (versions, ciphers, session reuse)
    TlsUntrusted,  ///< the server's certificate is not trusted (or names another host)
    TlsNotOffered, ///< TLS was required and the server does not offer it
    TlsRequired,   ///< the server only takes logins over TLS and TLS was not asked for
    Mismatch,      ///< byte count or content differs
    WrongService,  ///< another service answers on the port (an FTP banner on the SMB port, ...)
    Smb1Only,      ///< the SMB server speaks only SMB1 and the host does not allow it
    ForeignFile,   ///< a PUT/write would overwrite a file that Wirebench did not write (TestFile)
    Other,
};

/// Builds the one-line error of a failed transfer: "<host> (<addr>:<port>): <protocol>: <what>: <advice>".
/// `what` names what failed (never a secret); the advice follows from the fault.
QString transferErrorLine(const RunSpec &spec, int port, const QString &protocolTitle, TransferFault fault,
                          const QString &what);

/// The JSON name of a fault, recorded in RunResult::extra["fault"] so that tests and exports can tell them apart.
QString transferFaultName(TransferFault fault);
/// The fault a transferFaultName() names; Other for a name it does not know, None for an empty one.
TransferFault transferFaultFromName(const QString &name);

/// The fault of a failed connect(2): ECONNREFUSED is NotListening, ETIMEDOUT TimedOut, no route Unreachable.
TransferFault connectFault(int err);

/// True for a fault that the same run, repeated at once, meets again (nothing listens, an unknown or unreachable
/// host, a refused login, no such share or path, no permission, TLS set up differently on the two sides, another
/// service on the port, an SMB1-only server, a foreign file a write would go over): the
/// engine does not repeat a test after one ("same cause as run k"). A timeout, a broken connection, a full disk
/// or a mismatch may pass and are repeated.
bool repeatCannotCure(TransferFault fault);

} // namespace wb
