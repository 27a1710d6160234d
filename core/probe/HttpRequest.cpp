#include "HttpRequest.h"

#include "wire/Text.h"

#include <algorithm>
#include <cctype>

namespace wb::probe {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool parseQuery(const std::string &text, std::map<std::string, std::string> *query, std::string *error)
{
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t amp = std::min(text.find('&', at), text.size());
        const std::string pair = text.substr(at, amp - at);
        at = amp + 1;
        if (pair.empty())
            continue;
        const std::size_t eq = pair.find('=');
        std::string name, value;
        if (!HttpRequest::percentDecode(pair.substr(0, eq), &name)
            || !HttpRequest::percentDecode(eq == std::string::npos ? std::string() : pair.substr(eq + 1), &value)) {
            *error = "a broken %-escape in the query";
            return false;
        }
        query->emplace(name, value); // the first of a name stays
    }
    return true;
}

} // namespace

std::size_t HttpRequest::headEnd(const std::string &buffer)
{
    const std::size_t crlf = buffer.find("\r\n\r\n");
    const std::size_t lf = buffer.find("\n\n");
    if (crlf != std::string::npos && (lf == std::string::npos || crlf + 2 <= lf))
        return crlf + 4;
    return lf == std::string::npos ? 0 : lf + 2;
}

bool HttpRequest::percentDecode(const std::string &text, std::string *out)
{
    out->clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            *out += ' ';
        } else if (c == '%') {
            if (i + 2 >= text.size())
                return false;
            const int high = hexValue(text[i + 1]);
            const int low = hexValue(text[i + 2]);
            if (high < 0 || low < 0)
                return false;
            *out += char(high * 16 + low);
            i += 2;
        } else {
            *out += c;
        }
    }
    return true;
}

bool HttpRequest::parse(const std::string &head, HttpRequest *request, std::string *error)
{
    std::size_t lineEnd = head.find('\n');
    const std::string requestLine = wire::trimmed(head.substr(0, lineEnd));
    // METHOD SP TARGET SP HTTP/1.x
    const std::size_t sp1 = requestLine.find(' ');
    const std::size_t sp2 = sp1 == std::string::npos ? std::string::npos : requestLine.find(' ', sp1 + 1);
    if (sp2 == std::string::npos || requestLine.compare(sp2 + 1, 7, "HTTP/1.") != 0) {
        *error = "not an HTTP/1.x request line";
        return false;
    }
    HttpRequest r;
    r.method = requestLine.substr(0, sp1);
    const std::string target = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::size_t question = target.find('?');
    if (!percentDecode(target.substr(0, question), &r.path) || target.empty() || target.front() != '/') {
        *error = "the request's path is not a /path";
        return false;
    }
    if (question != std::string::npos && !parseQuery(target.substr(question + 1), &r.query, error))
        return false;
    while (lineEnd != std::string::npos && lineEnd + 1 < head.size()) {
        const std::size_t next = head.find('\n', lineEnd + 1);
        const std::string line = wire::trimmed(
            head.substr(lineEnd + 1, next == std::string::npos ? std::string::npos : next - lineEnd - 1));
        lineEnd = next;
        if (line.empty())
            break;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos || colon == 0) {
            *error = "a header line without a name and ':'";
            return false;
        }
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        r.headers[name] = wire::trimmed(line.substr(colon + 1));
    }
    *request = std::move(r);
    return true;
}

std::string HttpRequest::header(const std::string &name) const
{
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

} // namespace wb::probe
