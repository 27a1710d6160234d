#pragma once

#include <string>
#include <utility>
#include <vector>

namespace wb::probe {

/// Prometheus's exposition formats: the classic text format (text/plain; version=0.0.4), which every Prometheus
/// and promtool read, and OpenMetrics 1.0 (application/openmetrics-text), which a scraper asks for in its Accept.
enum class TextFormat { Classic, OpenMetrics };

/// One sample of a family: its labels in order (name, value) and its value.
struct MetricSample
{
    std::vector<std::pair<std::string, std::string>> labels;
    double value = 0;
};

/// A metric family as both formats write it: a gauge, or an info metric (OpenMetrics' type info, whose one sample is
/// NAME_info with value 1; the classic format has no such type and reads it as a gauge called NAME_info).
struct MetricFamily
{
    enum class Type { Gauge, Info };

    std::string name; ///< without _info for an info family
    Type type = Type::Gauge;
    std::string help;
    std::vector<MetricSample> samples;
};

/// The exposition text: the wire format of a /probe answer, apart from the server that sends it.
class MetricsText
{
public:
    /// The families as text in the format: HELP, TYPE and samples, OpenMetrics ending in "# EOF".
    static std::string render(const std::vector<MetricFamily> &families, TextFormat format);
    /// The format a scraper asks for in its Accept header: OpenMetrics when it names application/openmetrics-text
    /// with a weight above 0, else the classic one.
    static TextFormat formatFor(const std::string &accept);
    /// The Content-Type of an answer in the format.
    static std::string contentType(TextFormat format);
    /// A sample value as both formats read it: shortest round-trip decimal, NaN, +Inf, -Inf.
    static std::string number(double value);
    /// A label value between double quotes: backslash, double quote and line feed escaped.
    static std::string escapeLabel(const std::string &value);
};

} // namespace wb::probe
