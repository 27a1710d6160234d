#include "PeerJson.h"

#include "Text.h"

#include <cmath>

namespace wb::wire {

namespace {

/// Thrown from the parser's callback to stop at the first level too deep.
struct TooDeep
{
};

/// 2^63 as a double: the first value a cast to int64 cannot hold.
constexpr double kInt64End = 9223372036854775808.0;

} // namespace

bool parsePeerJson(std::string_view text, nlohmann::json *out, std::string *why)
{
    using Json = nlohmann::json;
    const Json::parser_callback_t depthLimit = [](int depth, Json::parse_event_t event, Json &) {
        if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start)
            && depth >= kMaxPeerJsonDepth)
            throw TooDeep{};
        return true;
    };
    try {
        *out = Json::parse(text, depthLimit);
        return true;
    } catch (const Json::parse_error &e) {
        if (why)
            *why = format("syntax error at offset %zu", e.byte > 0 ? e.byte - 1 : 0);
    } catch (const Json::out_of_range &) {
        // 406 for a number such as 1e999
        if (why)
            *why = "a number out of range";
    } catch (const TooDeep &) {
        if (why)
            *why = format("nested deeper than %d levels", kMaxPeerJsonDepth);
    } catch (const Json::exception &e) {
        if (why)
            *why = format("unreadable (%s)", e.what());
    } catch (const std::bad_alloc &) {
        if (why)
            *why = "too large to hold";
    }
    *out = Json();
    return false;
}

bool wholeNumberIn(double value, std::int64_t minValue, std::int64_t maxValue, std::int64_t *out)
{
    if (!std::isfinite(value) || value != std::floor(value) || value < -kInt64End || value >= kInt64End)
        return false;
    const auto whole = std::int64_t(value);
    if (whole < minValue || whole > maxValue)
        return false;
    *out = whole;
    return true;
}

std::int64_t countAt(const nlohmann::json &object, const char *key, std::int64_t fallback)
{
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return fallback;
    const double v = it->get<double>();
    if (!std::isfinite(v))
        return fallback;
    if (v <= 0)
        return 0;
    return v >= kInt64End ? INT64_MAX : std::int64_t(v);
}

} // namespace wb::wire
