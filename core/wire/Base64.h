#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wb::wire {

/// Standard base64 (RFC 4648, with padding) of bytes.
std::string toBase64(std::string_view bytes);
/// The bytes of standard base64, padding optional; nothing for any other character or a stray length.
std::optional<std::string> fromBase64(std::string_view text);

} // namespace wb::wire
