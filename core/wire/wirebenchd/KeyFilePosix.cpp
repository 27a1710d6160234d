// Auth.h's key file on POSIX systems: the default place (systemd's StateDirectory, /var/lib for root, the
// XDG config folder), created with O_EXCL readable by its owner only (0600 under umask 077), refused when others
// may read it. KeyFileWindows.cpp is Windows' form.
#include "Auth.h"

#include "wire/Text.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb::auth {

using wire::format;
using wire::trimmed;

std::string defaultKeyFilePath()
{
    const char *stateEnv = std::getenv("STATE_DIRECTORY");
    const std::string state
        = stateEnv ? std::string(stateEnv).substr(0, std::string(stateEnv).find(':')) : std::string();
    if (!state.empty())
        return state + "/wirebenchd.key";
    if (::geteuid() == 0)
        return "/var/lib/wirebench/wirebenchd.key";
    const char *config = std::getenv("XDG_CONFIG_HOME");
    const char *home = std::getenv("HOME");
    const std::string base = config && *config == '/' ? config : std::string(home ? home : "") + "/.config";
    return base + "/wirebenchd/wirebenchd.key";
}

namespace {

bool readKeyFile(const std::string &path, std::string *key, std::string *error)
{
    // POSIX, not an ifstream: iostreams would wake libstdc++'s locales, half a MiB of wirebenchd's memory.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = format("cannot read the key file %s: %s", path.c_str(), std::strerror(errno));
        return false;
    }
    std::string text(4096, '\0');
    const ssize_t n = ::read(fd, text.data(), text.size());
    ::close(fd);
    text.resize(n > 0 ? std::size_t(n) : 0);
    text = trimmed(text);
    if (text.empty()) {
        *error = format("the key file %s is empty: delete it to get a new key", path.c_str());
        return false;
    }
    struct stat st = {};
    if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH))) {
        *error = format("the key file %s is readable by other users: chmod 600 it", path.c_str());
        return false;
    }
    *key = text;
    return true;
}

} // namespace

bool loadOrCreateKeyFile(const std::string &path, std::string *key, bool *created, std::string *error)
{
    *created = false;
    std::error_code ec;
    if (std::filesystem::exists(path, ec))
        return readKeyFile(path, key, error);
    const std::filesystem::path dir = std::filesystem::absolute(path, ec).parent_path();
    const mode_t old = ::umask(077);
    std::filesystem::create_directories(dir, ec);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const int openErr = errno;
    ::umask(old);
    if (!std::filesystem::is_directory(dir)) {
        *error = format("cannot create the folder %s for the key file: choose another with --key-file", dir.c_str());
        return false;
    }
    if (fd < 0) {
        *error = format("cannot create the key file %s: %s", path.c_str(), std::strerror(openErr));
        return false;
    }
    const std::string fresh = generateKey();
    const std::string line = fresh + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == ssize_t(line.size());
    const int writeErr = errno;
    ::close(fd);
    if (!written) {
        *error = format("cannot write the key file %s: %s", path.c_str(), std::strerror(writeErr));
        ::unlink(path.c_str());
        return false;
    }
    *key = fresh;
    *created = true;
    return true;
}

} // namespace wb::auth
