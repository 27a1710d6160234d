#include "MetricsText.h"

#include "wire/Text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace wb::probe {

namespace {

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

/// HELP text: the classic format knows the escapes \\ and \n only (a \" there is an error to promtool); OpenMetrics
/// also wants a double quote escaped.
std::string escapeHelp(const std::string &text, TextFormat format)
{
    std::string out;
    for (const char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '"' && format == TextFormat::OpenMetrics)
            out += "\\\"";
        else
            out += c;
    }
    return out;
}

std::string sampleLine(const std::string &name, const MetricSample &sample)
{
    std::string line = name;
    if (!sample.labels.empty()) {
        line += '{';
        for (std::size_t i = 0; i < sample.labels.size(); ++i) {
            if (i > 0)
                line += ',';
            line += sample.labels[i].first + "=\"" + MetricsText::escapeLabel(sample.labels[i].second) + '"';
        }
        line += '}';
    }
    return line + ' ' + MetricsText::number(sample.value) + '\n';
}

/// The weight (q) of one media range of an Accept header ("text/plain;version=0.0.4;q=0.5"): 1 when unsaid.
double weightOf(const std::string &range)
{
    std::size_t at = range.find(';');
    while (at != std::string::npos) {
        const std::size_t next = range.find(';', at + 1);
        const std::string param
            = wire::trimmed(range.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
        if (param.size() > 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=')
            return std::strtod(param.c_str() + 2, nullptr);
        at = next;
    }
    return 1;
}

} // namespace

std::string MetricsText::render(const std::vector<MetricFamily> &families, TextFormat format)
{
    std::string out;
    for (const MetricFamily &family : families) {
        const bool info = family.type == MetricFamily::Type::Info;
        // The classic format has no info type: there the family is the gauge NAME_info that OpenMetrics' samples carry.
        const std::string familyName = info && format == TextFormat::Classic ? family.name + "_info" : family.name;
        const char *type = info && format == TextFormat::OpenMetrics ? "info" : "gauge";
        out += "# HELP " + familyName + ' ' + escapeHelp(family.help, format) + '\n';
        out += "# TYPE " + familyName + ' ' + type + '\n';
        for (const MetricSample &sample : family.samples)
            out += sampleLine(info ? family.name + "_info" : family.name, sample);
    }
    if (format == TextFormat::OpenMetrics)
        out += "# EOF\n";
    return out;
}

TextFormat MetricsText::formatFor(const std::string &accept)
{
    double openMetrics = 0;
    double classic = 0;
    std::size_t at = 0;
    while (at <= accept.size()) {
        const std::size_t comma = std::min(accept.find(',', at), accept.size());
        const std::string range = wire::trimmed(accept.substr(at, comma - at));
        const std::string type = lower(wire::trimmed(range.substr(0, range.find(';'))));
        if (type == "application/openmetrics-text")
            openMetrics = std::max(openMetrics, weightOf(range));
        else if (type == "text/plain" || type == "text/*" || type == "*/*")
            classic = std::max(classic, weightOf(range));
        at = comma + 1;
    }
    return openMetrics > 0 && openMetrics >= classic ? TextFormat::OpenMetrics : TextFormat::Classic;
}

std::string MetricsText::contentType(TextFormat format)
{
    return format == TextFormat::OpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                             : "text/plain; version=0.0.4; charset=utf-8";
}

std::string MetricsText::number(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    // Whole numbers as such (a byte rate reads 117000000, not 1.17e+08); the rest in the shortest form that reads back.
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return wire::format("%.0f", value);
    // Plain decimals where they stay short (an RTT of 0.0001 s, not 1e-04), the exponent form beyond.
    std::array<char, 400> buffer{};
    const bool plain = std::fabs(value) >= 1e-6 && std::fabs(value) < 1e15;
    const auto result = plain
        ? std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed)
        : std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

std::string MetricsText::escapeLabel(const std::string &value)
{
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

} // namespace wb::probe
