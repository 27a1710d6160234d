// Hello::local, apart from the rest of ControlMessage so that the wire format builds without the platform layer
// (the fuzz target of tests/fuzz compiles the parser alone).
#include "ControlMessage.h"

#include "platform/Platform.h"

#include <cctype>

namespace wb::control {

Hello Hello::local(const std::string &software)
{
    const platform::SystemDescription s = platform::Platform::systemInfo().describe();
    Hello h;
    h.software = software;
    h.osName = s.osName;
    h.osVersion = s.osVersion;
    h.kernel = s.kernel.empty() ? "Unknown" : s.kernel;
    h.kernel[0] = char(std::toupper(static_cast<unsigned char>(h.kernel[0]))); // "linux 6.1" -> "Linux 6.1"
    h.hostname = s.hostname;
    h.cpus = s.cpus;
    return h;
}

} // namespace wb::control
