#include "FarCounters.h"

#include "protocols/tcp/TcpDriver.h"
#include "wire/QtWire.h"
#include "wire/wirebenchd/ControlChannel.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace wb {

bool FarCounters::greet(const Host &host, int timeoutMs, QString *why)
{
    m_greeted.reset();
    const quint16 port = host.port ? host.port : control::kDefaultPort;
    sockaddr_storage address{};
    socklen_t length = 0;
    if (!greeting::resolve(host.address, port, &address, &length)) {
        *why = QStringLiteral("%1 did not resolve").arg(host.address);
        return false;
    }
    const QString key = host.options.value(QLatin1String(TcpDriver::kKeyOption)).toString().trimmed();
    greeting::Greeted g;
    if (!greeting::greet(address, length, key, control::kWantCounters, timeoutMs, &g, why))
        return false;
    if (control::typeOf(g.answer) != control::kCounters) {
        *why = QStringLiteral("it offers no counters (a wirebenchd older than this Wirebench)");
        return false;
    }
    if (!greeting::proved(g, key)) {
        *why = QStringLiteral("it did not prove that it knows the key");
        return false;
    }
    m_greeted.emplace(std::move(g));
    return true;
}

bool FarCounters::send(int timeoutMs)
{
    if (!m_greeted)
        return false;
    control::ControlChannel ch(m_greeted->fd.get(), 4 * 1024);
    std::string error;
    if (!ch.write(control::countersMessage(control::Json::object()), &error, timeoutMs)) {
        m_greeted.reset();
        return false;
    }
    return true;
}

bool FarCounters::receive(int timeoutMs, control::Json *answer)
{
    if (!m_greeted)
        return false;
    control::ControlChannel ch(m_greeted->fd.get(), 256 * 1024);
    std::string error;
    if (ch.read(answer, timeoutMs, &error) != control::ControlChannel::Read::Message
        || control::typeOf(*answer) != control::kCounters) {
        m_greeted.reset();
        return false;
    }
    return true;
}

bool FarCounters::mark(int timeoutMs)
{
    // Only sent: the timed part starts now, and its first bytes do not wait for the far end's answer.
    m_marked = send(timeoutMs);
    return m_marked;
}

QVariantMap FarCounters::take(int timeoutMs)
{
    control::Json answer;
    QVariantMap out;
    if (m_marked && receive(timeoutMs, &answer) && send(timeoutMs) && receive(timeoutMs, &answer)
        && answer.contains("drops") && answer["drops"].is_object())
        out = wire::toQt(answer["drops"]).toVariantMap();
    close();
    return out;
}

} // namespace wb
