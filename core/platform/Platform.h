#pragma once

#include "platform/CpuTimes.h"
#include "platform/DropCounters.h"
#include "platform/Interfaces.h"
#include "platform/MtuControl.h"
#include "platform/PageCache.h"
#include "platform/ProcessFiles.h"
#include "platform/Routes.h"
#include "platform/SocketCalls.h"
#include "platform/SocketDiagnostics.h"
#include "platform/SystemInfo.h"
#include "platform/TcpTunables.h"

namespace wb::platform {

/// The build's OS's readers, one object of each for the whole process (they hold no state). Platform.cpp is
/// the one place that picks them; a new OS is a folder core/platform/<os>/ implementing each interface.
class Platform
{
public:
    static const CpuTimes &cpuTimes();
    static const Interfaces &interfaces();
    static const MtuControl &mtuControl();
    static const SocketDiagnostics &socketDiagnostics();
    static const ProcessFiles &processFiles();
    static const TcpTunables &tcpTunables();
    static const Routes &routes();
    static const SocketCalls &socketCalls();
    static const PageCache &pageCache();
    static const DropCounters &dropCounters();
    static const SystemInfo &systemInfo();
};

} // namespace wb::platform
