#include "Responder.h"

#include "WirebenchdServer.h"

#include <QStringList>

namespace wb {

namespace {

platform::IpAddress toPlatform(const QHostAddress &a)
{
    if (a == QHostAddress(QHostAddress::Any))
        return net::anyAddress();
    return net::parseAddress(a.toString().toStdString()).value_or(platform::IpAddress{});
}

} // namespace

ServerConfig ResponderConfig::toServerConfig() const
{
    ServerConfig c;
    c.address = toPlatform(address);
    c.port = port;
    c.maxDurationMs = maxDurationMs;
    c.maxMessageSize = maxMessageSize;
    c.maxControlMessageBytes = maxControlMessageBytes;
    c.handshakeTimeoutMs = handshakeTimeoutMs;
    c.idleTimeoutMs = idleTimeoutMs;
    c.key = key.toStdString();
    for (const auto &net : allow)
        c.allow.push_back(net::Subnet{toPlatform(net.first), net.second});
    c.maxConcurrent = maxConcurrent;
    c.maxQueued = maxQueued;
    c.maxConnections = maxConnections;
    c.maxUnprovenPerAddress = maxUnprovenPerAddress;
    c.maxRateBytesPerSec = maxRateBytesPerSec;
    c.echo = echo;
    return c;
}

bool ResponderConfig::allows(const QHostAddress &client) const
{
    return toServerConfig().allows(toPlatform(client));
}

QString ResponderConfig::allowListText() const
{
    return QString::fromStdString(toServerConfig().allowListText());
}

Responder::Responder(const ResponderConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
{
}

Responder::~Responder()
{
    stop();
}

bool Responder::start(QString *error)
{
    if (m_server && m_server->isRunning())
        return true;
    // The server's threads call the sink; a signal emitted there reaches receivers in their own threads.
    m_server = std::make_unique<WirebenchdServer>(
        m_config.toServerConfig(), [this](const std::string &line) { emit logLine(QString::fromStdString(line)); });
    std::string why;
    if (m_server->start(&why))
        return true;
    if (error)
        *error = QString::fromStdString(why);
    m_server.reset();
    return false;
}

void Responder::stop()
{
    if (m_server)
        m_server->stop();
}

bool Responder::isRunning() const
{
    return m_server && m_server->isRunning();
}

QHostAddress Responder::address() const
{
    return m_config.address;
}

quint16 Responder::port() const
{
    return m_server ? m_server->port() : 0;
}

} // namespace wb
