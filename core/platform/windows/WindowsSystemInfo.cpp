#include "WindowsSystemInfo.h"

#include "platform/windows/WindowsText.h"

#include <thread>

#include <windows.h>

namespace wb::platform {

namespace {

/// The version the system really runs: RtlGetVersion (ntdll), which unlike GetVersionEx is not bent to 6.2 for
/// programs without a compatibility manifest.
bool realVersion(RTL_OSVERSIONINFOW *v)
{
    using RtlGetVersionFn = LONG(WINAPI *)(RTL_OSVERSIONINFOW *);
    const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    const auto get = ntdll
        ? reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void *>(::GetProcAddress(ntdll, "RtlGetVersion")))
        : nullptr;
    v->dwOSVersionInfoSize = sizeof(*v);
    return get && get(v) == 0;
}

std::string registryText(const wchar_t *name)
{
    wchar_t value[256] = {};
    DWORD size = sizeof(value);
    if (::RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", name, RRF_RT_REG_SZ,
                       nullptr, value, &size)
        != ERROR_SUCCESS)
        return {};
    return WindowsText::utf8(value);
}

} // namespace

SystemDescription WindowsSystemInfo::describe() const
{
    SystemDescription d;
    RTL_OSVERSIONINFOW v{};
    std::string version;
    if (realVersion(&v))
        version = std::to_string(v.dwMajorVersion) + "." + std::to_string(v.dwMinorVersion) + "."
            + std::to_string(v.dwBuildNumber);
    const std::string product = registryText(L"ProductName"); // "Windows Server 2022 Datacenter"
    d.osName = product.empty() ? "Windows" : product;
    if (!version.empty())
        d.osName += " (" + version + ")";
    d.osVersion = version;
    // The kernel's version is the system's; in the name already, so the far end's label says it once.
    d.kernel = version;
    wchar_t host[256] = {};
    DWORD size = DWORD(std::size(host));
    if (::GetComputerNameExW(ComputerNameDnsHostname, host, &size))
        d.hostname = WindowsText::utf8(host);
    d.cpus = int(std::thread::hardware_concurrency());
    return d;
}

} // namespace wb::platform
