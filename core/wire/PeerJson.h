#pragma once
// JSON from a peer (a client before or after it proved the key, a far iperf3 server): parsed so that no text and
// no value turns into an exception or a cast out of range. Both wire protocols (wirebenchd's, iperf3's) read
// through it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace wb::wire {

/// Deeper than this many nested objects and arrays is refused: no message of either protocol comes near it.
constexpr int kMaxPeerJsonDepth = 32;

/// The parsed text in *out, or false with the reason in *why ("syntax error at offset 12", "a number out of
/// range", "nested deeper than 32 levels"). Never throws.
bool parsePeerJson(std::string_view text, nlohmann::json *out, std::string *why);

/// A finite number that is whole and within [minValue, maxValue]: true with it in *out. NaN, infinities,
/// fractions and values beyond the bounds (or beyond int64's range) are false, and *out is left alone.
bool wholeNumberIn(double value, std::int64_t minValue, std::int64_t maxValue, std::int64_t *out);

/// The number at `key` as a whole count clamped to [0, int64's largest], for counters a peer reports (bytes,
/// packets, retransmits); `fallback` when the key is absent or not a finite number. No cast out of range.
std::int64_t countAt(const nlohmann::json &object, const char *key, std::int64_t fallback);

} // namespace wb::wire
