#include "Hmac.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <nettle/hmac.h>

#include <sys/random.h>

namespace wb::auth {

std::string hmacSha256(std::string_view key, std::string_view message)
{
    // Nettle (GnuTLS's crypto library, in every Debian through apt) rather than libcrypto: loading libcrypto.so
    // for one digest costs wirebenchd about 1.4 MiB resident (its relocations and tables), nettle's 317 kB file
    // a few pages, and it has HMAC itself.
    hmac_sha256_ctx ctx;
    hmac_sha256_set_key(&ctx, key.size(), reinterpret_cast<const uint8_t *>(key.data()));
    hmac_sha256_update(&ctx, message.size(), reinterpret_cast<const uint8_t *>(message.data()));
    std::string out(SHA256_DIGEST_SIZE, '\0');
    hmac_sha256_digest(&ctx, out.size(), reinterpret_cast<uint8_t *>(out.data()));
    return out;
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
