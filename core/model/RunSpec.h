#pragma once

#include "Host.h"
#include "TestParams.h"

#include <QMetaType>
#include <QString>

namespace wb {

/// One cell of the plan's matrix: host x protocol x frame size x repetition.
struct RunSpec
{
    int index = 0; ///< 0-based position in the expanded plan
    Host host;
    QString protocol;     ///< protocol id, e.g. "tcp-send" (see DriverRegistry)
    int frameSize = 1500; ///< Ethernet frame payload (MTU) in bytes; the MSS follows from it (Frame::maxSegFor)
    int repetition = 1;   ///< 1-based
    TestParams params;

    /// "tcp-send @ 1500" - the test this run repeats, without the host.
    QString testKey() const { return protocol + QLatin1String(" @ ") + QString::number(frameSize); }
};

} // namespace wb

Q_DECLARE_METATYPE(wb::RunSpec)
