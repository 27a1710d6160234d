#pragma once

#include <QString>

namespace wb {

/// The NT statuses an SMB NEGOTIATE or SESSION_SETUP meets ([MS-ERREF] 2.3), by name; others as hex.
inline QString ntStatusText(quint32 status)
{
    switch (status) {
    case 0xC0000022:
        return QStringLiteral("STATUS_ACCESS_DENIED");
    case 0xC000000D:
        return QStringLiteral("STATUS_INVALID_PARAMETER");
    case 0xC00000BB:
        return QStringLiteral("STATUS_NOT_SUPPORTED");
    case 0xC000006D:
        return QStringLiteral("STATUS_LOGON_FAILURE");
    case 0xC0000002:
        return QStringLiteral("STATUS_NOT_IMPLEMENTED");
    default:
        return QStringLiteral("NT status 0x%1").arg(status, 8, 16, QLatin1Char('0'));
    }
}

} // namespace wb
