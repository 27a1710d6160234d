#include "Auth.h"

#include "wire/Base64.h"
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

std::string generateKey()
{
    return wire::toBase64(randomBytes(kKeyBytes));
}

namespace {

std::string proof(const char *label, const std::string &key, const std::string &serverNonce, const std::string &clientNonce)
{
    return hmacSha256(trimmed(key), std::string(label) + "\n" + serverNonce + clientNonce);
}

} // namespace

std::string clientProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce)
{
    return proof("wirebench client v2", key, serverNonce, clientNonce);
}

std::string serverProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce)
{
    return proof("wirebenchd server v2", key, serverNonce, clientNonce);
}

bool sameBytes(const std::string &a, const std::string &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

ClientHelloCheck checkClientHello(const control::Json &message, const std::string &key, const std::string &serverNonce,
                                  const std::string &serverSoftware)
{
    ClientHelloCheck c;
    c.code = "bad-message";
    if (control::typeOf(message) != control::kHello) {
        c.error = format("expected a \"hello\" message, got \"%s\"", control::quotedType(message).c_str());
        return c;
    }
    if (!control::Hello::fromJson(message, &c.hello, &c.error))
        return c;
    if (c.hello.version != control::kProtocolVersion) {
        c.verdict = ClientHelloCheck::Verdict::Version;
        c.code = "version";
        c.error = format("client speaks control protocol version %d, this wirebenchd (%s) speaks version %d: "
                         "use matching Wirebench versions",
                         c.hello.version, serverSoftware.c_str(), control::kProtocolVersion);
        return c;
    }
    c.clientNonce = c.hello.nonce;
    if (trimmed(key).empty()) { // open mode
        c.verdict = ClientHelloCheck::Verdict::Ok;
        c.code.clear();
        return c;
    }
    c.code = "auth";
    if (c.hello.mac.empty()) {
        c.verdict = ClientHelloCheck::Verdict::NoKey;
        c.error = "this wirebenchd requires a key: set it in the host's settings or use --key";
        return c;
    }
    if (c.clientNonce.size() < 16 || !sameBytes(c.hello.mac, clientProof(key, serverNonce, c.clientNonce))) {
        c.verdict = ClientHelloCheck::Verdict::WrongKey;
        c.error = "authentication failed: wrong key";
        return c;
    }
    c.verdict = ClientHelloCheck::Verdict::Ok;
    c.code.clear();
    return c;
}

std::string defaultKeyFilePath()
{
    const char *stateEnv = std::getenv("STATE_DIRECTORY");
    const std::string state = stateEnv ? std::string(stateEnv).substr(0, std::string(stateEnv).find(':')) : std::string();
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
    struct stat st{};
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
