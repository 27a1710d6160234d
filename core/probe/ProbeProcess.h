#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace wb::probe {

/// How a child process ended.
struct ProcessResult
{
    bool started = false;    ///< false: it could not be started (error says why)
    int exitCode = -1;       ///< its exit status; -1 when a signal ended it
    bool timedOut = false;   ///< the deadline passed and it was stopped
    bool stopped = false;    ///< the server stopped and it was stopped with it
    std::string errorOutput; ///< its stderr (the first 16 KiB)
    std::string error;       ///< why it could not be started or was killed
};

/// The child process a probe runs (wirebench-cli), standard C++ over the OS's own calls: ProbeProcessPosix.cpp
/// (posix_spawn, with the signal mask and dispositions of a fresh process: wirebenchd blocks SIGINT and SIGTERM
/// and ignores SIGPIPE in every thread, which a child would inherit), ProbeProcessWindows.cpp (not yet: the probe
/// is Linux-only for now). Whatever happens, the child is reaped before run() returns.
class ProbeProcess
{
public:
    /// Whether this build can run probes at all.
    static bool supported();
    /// Runs argv (argv[0] looked up in PATH when it has no '/'), stdout to the null device, stderr kept, until it
    /// exits, deadlineNs (net::nowNs's clock) passes, or stop turns true: then SIGTERM (wirebench-cli writes the
    /// runs it finished and ends within a second), and SIGKILL 5 s later.
    static ProcessResult run(const std::vector<std::string> &argv, std::int64_t deadlineNs,
                             const std::atomic_bool &stop);
    /// A folder of its own for one probe's files (mode 0700), under TMPDIR or /tmp; empty with *error when none.
    static std::string makeTempDir(std::string *error);
    /// Removes what makeTempDir made, with its files.
    static void removeTempDir(const std::string &path);
};

} // namespace wb::probe
