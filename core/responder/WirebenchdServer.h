#pragma once

#include "ServerConfig.h"

#include <cstdint>
#include <memory>
#include <string>

namespace wb {

/// The far end of a Wirebench test, in standard C++ and the platform layer (no Qt): answers hellos and test
/// requests, checks the client's key, runs each connection on its own thread, serves maxConcurrent tests at a
/// time, queues maxQueued clients and answers the next one "busy". wirebenchd runs it as it is; the Qt side
/// (the GUI's "This computer (loopback)", the tests) through Responder, which only turns its log into a signal.
class WirebenchdServer
{
public:
    /// log receives one line per accepted test, refusal or error, from the server's threads.
    WirebenchdServer(const ServerConfig &config, LogSink log);
    ~WirebenchdServer();
    WirebenchdServer(const WirebenchdServer &) = delete;
    WirebenchdServer &operator=(const WirebenchdServer &) = delete;

    /// Binds and starts serving. On failure returns false with a one-line reason in *error.
    bool start(std::string *error = nullptr);
    void stop();
    bool isRunning() const;
    std::uint16_t port() const; ///< the bound port (useful with port 0)

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace wb
