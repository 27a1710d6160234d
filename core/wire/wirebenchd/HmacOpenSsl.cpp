#include "Hmac.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

// SHA256_Init and friends are deprecated in OpenSSL 3 for the EVP interface, whose provider machinery is what we
// keep out of wirebenchd's memory; they stay in libcrypto.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <sys/random.h>

namespace wb::auth {

std::string hmacSha256(std::string_view key, std::string_view message)
{
    // RFC 2104 over libcrypto's SHA-256 itself: OpenSSL 3's HMAC() fetches the digest through its providers,
    // which wakes about 2 MiB of them for one proof.
    constexpr std::size_t kBlock = 64;
    unsigned char block[kBlock] = {};
    if (key.size() > kBlock)
        SHA256(reinterpret_cast<const unsigned char *>(key.data()), key.size(), block);
    else
        std::memcpy(block, key.data(), key.size());
    unsigned char pad[kBlock];
    unsigned char inner[SHA256_DIGEST_LENGTH];
    SHA256_CTX ctx;
    for (std::size_t i = 0; i < kBlock; ++i)
        pad[i] = block[i] ^ 0x36;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, pad, kBlock);
    SHA256_Update(&ctx, message.data(), message.size());
    SHA256_Final(inner, &ctx);
    for (std::size_t i = 0; i < kBlock; ++i)
        pad[i] = block[i] ^ 0x5c;
    unsigned char out[SHA256_DIGEST_LENGTH];
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, pad, kBlock);
    SHA256_Update(&ctx, inner, sizeof(inner));
    SHA256_Final(out, &ctx);
    return std::string(reinterpret_cast<const char *>(out), sizeof(out));
}

std::string randomBytes(int n)
{
    // The kernel's source (getrandom(2), Linux and FreeBSD) rather than OpenSSL's DRBG, whose first use wakes
    // its providers: about 2 MiB more resident for a nonce.
    std::string out(std::size_t(std::max(n, 0)), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        const ssize_t r = ::getrandom(out.data() + got, out.size() - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            std::abort(); // no randomness: a nonce or key must never be predictable
        got += std::size_t(r);
    }
    return out;
}

} // namespace wb::auth
