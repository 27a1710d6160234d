#include "Iperf3Responder.h"

namespace wb {

Iperf3Responder::Iperf3Responder(const ResponderConfig &config, QObject *parent)
    : QObject(parent)
    , m_server(std::make_unique<Iperf3Server>(
          config.toServerConfig(), [this](const std::string &line) { emit logLine(QString::fromStdString(line)); }))
{
}

Iperf3Responder::~Iperf3Responder()
{
    stop();
}

bool Iperf3Responder::start(QString *error)
{
    std::string why;
    if (m_server->start(&why))
        return true;
    if (error)
        *error = QString::fromStdString(why);
    return false;
}

void Iperf3Responder::stop()
{
    m_server->stop();
}

bool Iperf3Responder::isRunning() const
{
    return m_server->isRunning();
}

quint16 Iperf3Responder::port() const
{
    return m_server->port();
}

bool Iperf3Responder::isBusy() const
{
    return m_server->isBusy();
}

QList<Iperf3TestRecord> Iperf3Responder::tests() const
{
    const std::vector<Iperf3TestRecord> all = m_server->tests();
    return QList<Iperf3TestRecord>(all.begin(), all.end());
}

} // namespace wb
