#pragma once

#include "ServerEvidence.h"
#include "model/Host.h"

namespace wb {

/// Everything a host's servers say about themselves: FTP (greeting, SYST), SMB (NTLMSSP version, server string, and
/// NativeOS / NativeLanMan when the server speaks only SMB1) and, for a wirebenchd host, its hello. The probes run
/// side by side, each with a few seconds' timeout, so a host with closed or filtered ports answers within about
/// timeoutMs x 3. Blocking: call it off the GUI thread.
class ServerIdentity
{
public:
    static ServerEvidenceList detect(const Host &host, int timeoutMs = 3000);
};

} // namespace wb
