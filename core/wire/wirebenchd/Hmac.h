#pragma once

#include <string>
#include <string_view>

namespace wb::auth {

/// The crypto wirebenchd needs, from the OS's own sources: HMAC-SHA256 and random bytes. Linux: nettle for
/// the HMAC and getrandom(2) for the bytes (HmacNettle.cpp); Windows: BCrypt (BCryptCreateHash with
/// BCRYPT_ALG_HANDLE_HMAC_FLAG, BCryptGenRandom: HmacBcrypt.cpp).

/// HMAC-SHA256 of message with key: 32 bytes.
std::string hmacSha256(std::string_view key, std::string_view message);
/// n bytes from the OS's cryptographic random source.
std::string randomBytes(int n);

} // namespace wb::auth
