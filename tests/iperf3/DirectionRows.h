#pragma once

#include <QTest>

namespace wb::test {

/// The rows of a test run once per direction: a "protocol" column, "send" with sendProtocol and "receive" with
/// receiveProtocol.
inline void directionRows(const QString &sendProtocol, const QString &receiveProtocol)
{
    QTest::addColumn<QString>("protocol");
    QTest::newRow("send") << sendProtocol;
    QTest::newRow("receive") << receiveProtocol;
}

} // namespace wb::test
