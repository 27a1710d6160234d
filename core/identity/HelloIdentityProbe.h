#pragma once

#include "ServerEvidence.h"
#include "model/Host.h"
#include "wire/wirebenchd/ControlMessage.h"

namespace wb {

/// Reads the hello wirebenchd sends first on its control port (its OS, kernel, host name) and closes before
/// answering: no key and no test are needed. Blocking: call it off the GUI thread.
class HelloIdentityProbe
{
public:
    static constexpr int kTimeoutMs = 3000;

    /// The port is the host's control port, else wirebenchd's default. *hello (when given) gets the hello itself.
    static ServerEvidence probe(const Host &host, int timeoutMs = kTimeoutMs, control::Hello *hello = nullptr);
};

} // namespace wb
