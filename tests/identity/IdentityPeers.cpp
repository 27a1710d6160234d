#include "IdentityPeers.h"

#include <QDir>
#include <QFile>

#include <csignal>

#include <sys/types.h>
#include <unistd.h>

namespace wb::test {

bool IdentityPeers::start(QString *why)
{
    m_ready = m_fixture.prepare(&m_why) && m_fixture.startFtp(&m_why) && m_fixture.startSmb(&m_why);
    ResponderConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    m_responder = std::make_unique<Responder>(config);
    return m_responder->start(why);
}

void IdentityPeers::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_fixture.stopAll(); // with the samba helpers smbd leaves behind
    m_responder.reset();
}

} // namespace wb::test
