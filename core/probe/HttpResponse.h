#pragma once

#include <string>

namespace wb::probe {

/// An HTTP/1.1 answer of the probe endpoint: the status, one body, then the connection closes (a scraper opens
/// a new one for its next scrape, so nothing is kept alive).
struct HttpResponse
{
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
    /// Extra header lines ("Allow: GET"), each ending in \r\n.
    std::string extraHeaders;

    /// A text answer: the body ends in a line feed.
    static HttpResponse text(int status, const std::string &message);
    /// "200 OK", "503 Service Unavailable", ...
    static std::string statusText(int status);
    /// The whole answer as it goes on the wire: status line, Content-Type, Content-Length, Connection: close.
    std::string bytes() const;
};

} // namespace wb::probe
