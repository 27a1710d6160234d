#include "ServerIdentity.h"

#include "FtpIdentityProbe.h"
#include "HelloIdentityProbe.h"
#include "SmbIdentityProbe.h"

#include <future>

namespace wb {

ServerEvidenceList ServerIdentity::detect(const Host &host, int timeoutMs)
{
    // std::async threads: each probe owns its sockets; QTcpSocket's waitFor* needs no event loop.
    auto ftp = std::async(std::launch::async, [&] { return FtpIdentityProbe::probe(host, timeoutMs); });
    auto smb = std::async(std::launch::async, [&] { return SmbIdentityProbe::probe(host, timeoutMs).evidence; });
    ServerEvidenceList out;
    if (host.serverType == QLatin1String("wirebenchd"))
        out << HelloIdentityProbe::probe(host, timeoutMs);
    out << ftp.get() << smb.get();
    return out;
}

} // namespace wb
