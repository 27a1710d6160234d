#pragma once

#include "responder/Responder.h"

#include <QHostAddress>

#include <memory>

namespace wb::test {

/// wirebenchd's responder in this process on 127.0.0.1, at a port the system picks when it starts (port()).
inline std::unique_ptr<Responder> loopbackResponder()
{
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    return std::make_unique<Responder>(config);
}

} // namespace wb::test
