#pragma once

#include "platform/TcpTunables.h"

namespace wb::platform {

/// Not ported (the TCP global parameters): only the client's analysis reads them, and it does not run on Windows yet.
class WindowsTcpTunables : public TcpTunables
{
public:
    std::optional<std::int64_t> socketBufferMax() const override;
    std::optional<bool> timestamps() const override;
};

} // namespace wb::platform
