#include "HttpResponse.h"

#include "wire/Text.h"

namespace wb::probe {

HttpResponse HttpResponse::text(int status, const std::string &message)
{
    HttpResponse r;
    r.status = status;
    r.body = message.empty() || message.back() != '\n' ? message + '\n' : message;
    return r;
}

std::string HttpResponse::statusText(int status)
{
    switch (status) {
    case 200:
        return "200 OK";
    case 400:
        return "400 Bad Request";
    case 403:
        return "403 Forbidden";
    case 404:
        return "404 Not Found";
    case 405:
        return "405 Method Not Allowed";
    case 408:
        return "408 Request Timeout";
    case 413:
        return "413 Content Too Large";
    case 429:
        return "429 Too Many Requests";
    case 500:
        return "500 Internal Server Error";
    case 503:
        return "503 Service Unavailable";
    default:
        return wire::Arg("%1 Status").arg(status);
    }
}

std::string HttpResponse::bytes() const
{
    return "HTTP/1.1 " + statusText(status) + "\r\nContent-Type: " + contentType
        + wire::Arg("\r\nContent-Length: %1\r\n").arg(body.size()).str() + extraHeaders
        + "Connection: close\r\nCache-Control: no-store\r\n\r\n" + body;
}

} // namespace wb::probe
