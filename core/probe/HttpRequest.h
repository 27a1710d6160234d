#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace wb::probe {

/// The head of an HTTP/1.x request as the probe endpoint reads it: method, path, the decoded query and the headers.
/// The wire format alone: the server (ProbeServer) reads the bytes and decides what to answer.
struct HttpRequest
{
    /// The most a request head may take (the request line and headers); a longer one is answered 413.
    static constexpr std::size_t kMaxHeadBytes = 8192;

    std::string method; ///< "GET"
    std::string path;   ///< "/probe", without the query
    std::map<std::string, std::string>
        query; ///< target=..., plan=... percent-decoded ('+' a space); the first of a name
    std::map<std::string, std::string> headers; ///< names in lower case; values trimmed

    /// Where the head in buffer ends (just past its empty line), or 0 while it has not come whole.
    static std::size_t headEnd(const std::string &buffer);
    /// The head (up to and with its empty line); false with what is wrong in *error when it is no HTTP/1.x request.
    static bool parse(const std::string &head, HttpRequest *request, std::string *error);
    /// A header's value, empty when absent; name in lower case.
    std::string header(const std::string &name) const;
    /// "%2e%2E" and '+' decoded; false for a broken escape.
    static bool percentDecode(const std::string &text, std::string *out);
};

} // namespace wb::probe
