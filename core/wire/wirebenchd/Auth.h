#pragma once

#include "ControlMessage.h"
#include "Hmac.h"

#include <string>

namespace wb::auth {

/// wirebenchd's pre-shared key and the challenge-response of the control protocol (docs/PROTOCOL.md,
/// docs/SECURITY.md). The key is text (wirebenchd generates 32 random bytes as base64); the HMAC key is its
/// UTF-8 after trimming, so a key pasted with a stray newline still works. Bytes travel as std::string.
constexpr int kKeyBytes = 32;
constexpr int kNonceBytes = 32;
/// Messages before authentication are capped at this size whatever the configured limit.
constexpr int kMaxPreAuthBytes = 4096;

inline constexpr char kAuthHmac[] = "hmac-sha256";
inline constexpr char kAuthNone[] = "none";

std::string generateKey(); ///< 32 random bytes, base64

/// HMAC-SHA256 over both nonces, with a different label per side so that one side's proof is never the other's.
std::string clientProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce);
std::string serverProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce);
bool sameBytes(const std::string &a, const std::string &b); ///< constant time for equal lengths

/// What the server makes of a client's hello. An empty key means open mode (no proof asked).
struct ClientHelloCheck
{
    enum class Verdict { Ok, BadMessage, Version, NoKey, WrongKey };
    Verdict verdict = Verdict::BadMessage;
    std::string code;  ///< error code for the reply: "bad-message", "version", "auth"
    std::string error; ///< one line for the reply and the log
    control::Hello hello;
    std::string clientNonce;
    bool ok() const { return verdict == Verdict::Ok; }
};
ClientHelloCheck checkClientHello(const control::Json &message, const std::string &key, const std::string &serverNonce,
                                  const std::string &serverSoftware);

/// Where wirebenchd keeps its key: $STATE_DIRECTORY/wirebenchd.key (systemd), /var/lib/wirebench/wirebenchd.key
/// as root, else the user's config folder ($XDG_CONFIG_HOME or ~/.config, then wirebenchd/); on Windows
/// %ProgramData%\Wirebench\wirebenchd.key (KeyFilePosix.cpp, KeyFileWindows.cpp).
std::string defaultKeyFilePath();
/// Reads the key file, or creates it (mode 0600, folder 0700; on Windows an ACL for its owner, SYSTEM and the
/// Administrators) with a new key when it does not exist.
/// *created tells the caller to show the new key once. False with a one-line *error.
bool loadOrCreateKeyFile(const std::string &path, std::string *key, bool *created, std::string *error);

} // namespace wb::auth
