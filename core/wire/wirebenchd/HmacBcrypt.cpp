// Hmac.h on Windows: BCrypt's HMAC-SHA256 (BCRYPT_ALG_HANDLE_HMAC_FLAG) and BCryptGenRandom with the system's
// preferred generator.
#include "Hmac.h"

#include <algorithm>
#include <cstdlib>

#include <windows.h>
#include <bcrypt.h>

namespace wb::auth {

std::string hmacSha256(std::string_view key, std::string_view message)
{
    // One provider for the process: opening it loads the algorithm (cheap once, not per proof).
    static BCRYPT_ALG_HANDLE alg = [] {
        BCRYPT_ALG_HANDLE h = nullptr;
        if (!BCRYPT_SUCCESS(
                ::BCryptOpenAlgorithmProvider(&h, BCRYPT_SHA256_ALGORITHM, nullptr, BCRYPT_ALG_HANDLE_HMAC_FLAG)))
            std::abort(); // no HMAC: a proof must never be skipped
        return h;
    }();
    unsigned char out[32] = {};
    BCRYPT_HASH_HANDLE hash = nullptr;
    const bool ok
        = BCRYPT_SUCCESS(::BCryptCreateHash(
              alg, &hash, nullptr, 0, reinterpret_cast<PUCHAR>(const_cast<char *>(key.data())), ULONG(key.size()), 0))
        && BCRYPT_SUCCESS(::BCryptHashData(hash, reinterpret_cast<PUCHAR>(const_cast<char *>(message.data())),
                                           ULONG(message.size()), 0))
        && BCRYPT_SUCCESS(::BCryptFinishHash(hash, out, sizeof(out), 0));
    if (hash)
        ::BCryptDestroyHash(hash);
    if (!ok)
        std::abort();
    return std::string(reinterpret_cast<const char *>(out), sizeof(out));
}

std::string randomBytes(int n)
{
    std::string out(std::size_t(std::max(n, 0)), '\0');
    if (!out.empty()
        && !BCRYPT_SUCCESS(::BCryptGenRandom(nullptr, reinterpret_cast<PUCHAR>(out.data()), ULONG(out.size()),
                                             BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
        std::abort(); // no randomness: a nonce or key must never be predictable
    return out;
}

} // namespace wb::auth
