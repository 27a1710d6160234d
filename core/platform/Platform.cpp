#include "Platform.h"

// The one place that picks the implementation for the build's OS (core/platform/CMakeLists.txt adds the
// matching folder and stops the build on an OS that has none).
#if defined(__linux__)
#include "platform/linux/LinuxCpuTimes.h"
#include "platform/linux/LinuxDropCounters.h"
#include "platform/linux/LinuxInterfaces.h"
#include "platform/linux/LinuxMtuControl.h"
#include "platform/linux/LinuxPageCache.h"
#include "platform/linux/LinuxProcessFiles.h"
#include "platform/linux/LinuxRoutes.h"
#include "platform/linux/LinuxSocketCalls.h"
#include "platform/linux/LinuxSocketDiagnostics.h"
#include "platform/linux/LinuxSystemInfo.h"
#include "platform/linux/LinuxTcpTunables.h"
#else
#error "Wirebench has no platform layer for this OS: add core/platform/<os>/ (docs/ARCHITECTURE.md, Platform code)"
#endif

namespace wb::platform {

#if defined(__linux__)
const CpuTimes &Platform::cpuTimes()
{
    static const LinuxCpuTimes reader;
    return reader;
}

const SystemInfo &Platform::systemInfo()
{
    static const LinuxSystemInfo reader;
    return reader;
}

const Interfaces &Platform::interfaces()
{
    static const LinuxInterfaces reader;
    return reader;
}

const MtuControl &Platform::mtuControl()
{
    static const LinuxMtuControl control;
    return control;
}

const SocketDiagnostics &Platform::socketDiagnostics()
{
    static const LinuxSocketDiagnostics reader;
    return reader;
}

const ProcessFiles &Platform::processFiles()
{
    static const LinuxProcessFiles reader;
    return reader;
}

const TcpTunables &Platform::tcpTunables()
{
    static const LinuxTcpTunables reader;
    return reader;
}

const Routes &Platform::routes()
{
    static const LinuxRoutes reader;
    return reader;
}

const SocketCalls &Platform::socketCalls()
{
    static const LinuxSocketCalls calls;
    return calls;
}

const PageCache &Platform::pageCache()
{
    static const LinuxPageCache cache;
    return cache;
}

const DropCounters &Platform::dropCounters()
{
    static const LinuxDropCounters reader;
    return reader;
}
#endif

} // namespace wb::platform
