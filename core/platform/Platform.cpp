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
#elif defined(_WIN32)
#include "platform/windows/WindowsCpuTimes.h"
#include "platform/windows/WindowsDropCounters.h"
#include "platform/windows/WindowsInterfaces.h"
#include "platform/windows/WindowsMtuControl.h"
#include "platform/windows/WindowsPageCache.h"
#include "platform/windows/WindowsProcessFiles.h"
#include "platform/windows/WindowsRoutes.h"
#include "platform/windows/WindowsSocketCalls.h"
#include "platform/windows/WindowsSocketDiagnostics.h"
#include "platform/windows/WindowsSystemInfo.h"
#include "platform/windows/WindowsTcpTunables.h"
#else
#error "Wirebench has no platform layer for this OS: add core/platform/<os>/ (docs/ARCHITECTURE.md, Platform code)"
#endif

namespace wb::platform {

// The build OS's class for each interface.
#if defined(__linux__)
using OsCpuTimes = LinuxCpuTimes;
using OsInterfaces = LinuxInterfaces;
using OsMtuControl = LinuxMtuControl;
using OsSocketDiagnostics = LinuxSocketDiagnostics;
using OsProcessFiles = LinuxProcessFiles;
using OsTcpTunables = LinuxTcpTunables;
using OsRoutes = LinuxRoutes;
using OsSocketCalls = LinuxSocketCalls;
using OsPageCache = LinuxPageCache;
using OsDropCounters = LinuxDropCounters;
using OsSystemInfo = LinuxSystemInfo;
#elif defined(_WIN32)
using OsCpuTimes = WindowsCpuTimes;
using OsInterfaces = WindowsInterfaces;
using OsMtuControl = WindowsMtuControl;
using OsSocketDiagnostics = WindowsSocketDiagnostics;
using OsProcessFiles = WindowsProcessFiles;
using OsTcpTunables = WindowsTcpTunables;
using OsRoutes = WindowsRoutes;
using OsSocketCalls = WindowsSocketCalls;
using OsPageCache = WindowsPageCache;
using OsDropCounters = WindowsDropCounters;
using OsSystemInfo = WindowsSystemInfo;
#endif

const CpuTimes &Platform::cpuTimes()
{
    static const OsCpuTimes reader;
    return reader;
}

const SystemInfo &Platform::systemInfo()
{
    static const OsSystemInfo reader;
    return reader;
}

const Interfaces &Platform::interfaces()
{
    static const OsInterfaces reader;
    return reader;
}

const MtuControl &Platform::mtuControl()
{
    static const OsMtuControl control;
    return control;
}

const SocketDiagnostics &Platform::socketDiagnostics()
{
    static const OsSocketDiagnostics reader;
    return reader;
}

const ProcessFiles &Platform::processFiles()
{
    static const OsProcessFiles reader;
    return reader;
}

const TcpTunables &Platform::tcpTunables()
{
    static const OsTcpTunables reader;
    return reader;
}

const Routes &Platform::routes()
{
    static const OsRoutes reader;
    return reader;
}

const SocketCalls &Platform::socketCalls()
{
    static const OsSocketCalls calls;
    return calls;
}

const PageCache &Platform::pageCache()
{
    static const OsPageCache cache;
    return cache;
}

const DropCounters &Platform::dropCounters()
{
    static const OsDropCounters reader;
    return reader;
}

} // namespace wb::platform
