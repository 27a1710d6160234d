#pragma once

#include <QByteArray>
#include <QtEndian>

namespace wb::wire {

/// Little-endian fields of SMB2 and NTLMSSP messages. Readers expect the caller to have checked the length.
template <typename T>
void putLe(QByteArray &b, T v)
{
    char le[sizeof(T)];
    qToLittleEndian(v, le);
    b.append(le, sizeof(T));
}

inline quint16 u16(const QByteArray &b, qsizetype at)
{
    return qFromLittleEndian<quint16>(b.constData() + at);
}

inline quint32 u32(const QByteArray &b, qsizetype at)
{
    return qFromLittleEndian<quint32>(b.constData() + at);
}

} // namespace wb::wire
