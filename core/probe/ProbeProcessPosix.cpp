#include "ProbeProcess.h"

#include "net/Socket.h"
#include "wire/Text.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace wb::probe {

namespace {

constexpr std::size_t kMaxErrorOutput = 16 * 1024;
constexpr std::int64_t kKillGraceNs = 5'000'000'000;

/// posix_spawn's attributes for a child that starts as a fresh process: no signal blocked, SIGPIPE, SIGINT and
/// SIGTERM at their defaults, and a process group of its own (so that a stop reaches whatever it starts).
struct SpawnAttributes
{
    posix_spawnattr_t attr{};
    posix_spawn_file_actions_t actions{};

    SpawnAttributes(int stderrWrite, int stderrRead)
    {
        posix_spawnattr_init(&attr);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD})
            sigaddset(&defaults, s);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, stderrWrite, STDERR_FILENO);
        posix_spawn_file_actions_addclose(&actions, stderrRead);
    }
    ~SpawnAttributes()
    {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    SpawnAttributes(const SpawnAttributes &) = delete;
    SpawnAttributes &operator=(const SpawnAttributes &) = delete;
};

/// Waits for the child, signalling its group when the deadline or a stop comes: SIGTERM first, SIGKILL after the
/// grace. Reads its stderr meanwhile. Returns its wait status.
int superviseChild(pid_t pid, int errorFd, std::int64_t deadlineNs, const std::atomic_bool &stop, ProcessResult *result)
{
    std::int64_t killAtNs = 0;
    bool open = true;
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            return done == pid ? status : 0;
        const std::int64_t now = net::nowNs();
        if (killAtNs == 0 && (now >= deadlineNs || stop.load())) {
            result->timedOut = !stop.load();
            result->stopped = stop.load();
            ::kill(-pid, SIGTERM);
            killAtNs = now + kKillGraceNs;
        } else if (killAtNs != 0 && now >= killAtNs) {
            ::kill(-pid, SIGKILL);
            killAtNs = now + 3600 * std::int64_t(1'000'000'000); // once; waitpid reaps it next
        }
        // Its stderr while it is open, else a short nap: a child that closed stderr still ends when it ends.
        pollfd p{open ? errorFd : -1, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0 && open) {
            char buffer[4096];
            const ssize_t n = ::read(errorFd, buffer, sizeof(buffer));
            if (n > 0 && result->errorOutput.size() < kMaxErrorOutput)
                result->errorOutput.append(buffer, std::size_t(n));
            else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                open = false;
        }
    }
}

} // namespace

bool ProbeProcess::supported()
{
    return true;
}

ProcessResult ProbeProcess::run(const std::vector<std::string> &argv, std::int64_t deadlineNs,
                                const std::atomic_bool &stop)
{
    ProcessResult result;
    int pipeFds[2];
    if (argv.empty() || ::pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.error = wire::Arg("cannot make a pipe for the child's messages: %1").arg(std::strerror(errno));
        return result;
    }
    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    int rc = 0;
    {
        SpawnAttributes spawn(pipeFds[1], pipeFds[0]);
        rc = ::posix_spawnp(&pid, args[0], &spawn.actions, &spawn.attr, args.data(), environ);
    }
    ::close(pipeFds[1]);
    if (rc != 0) {
        ::close(pipeFds[0]);
        result.error = wire::Arg("cannot start %1: %2").arg(argv[0], std::strerror(rc));
        return result;
    }
    result.started = true;
    const int status = superviseChild(pid, pipeFds[0], deadlineNs, stop, &result);
    ::close(pipeFds[0]);
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.error = wire::Arg("%1 was ended by signal %2 (%3)")
                           .arg(argv[0])
                           .arg(WTERMSIG(status))
                           .arg(strsignal(WTERMSIG(status)));
    return result;
}

std::string ProbeProcess::makeTempDir(std::string *error)
{
    const char *tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/wirebenchd-probe-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        *error = wire::Arg("cannot make a folder for the probe's files in %1: %2")
                     .arg(tmp && *tmp ? tmp : "/tmp", std::strerror(errno));
        return std::string();
    }
    return pattern;
}

void ProbeProcess::removeTempDir(const std::string &path)
{
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

} // namespace wb::probe
