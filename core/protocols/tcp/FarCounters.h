#pragma once

#include "model/Host.h"
#include "protocols/tcp/WirebenchdGreeting.h"

#include <QVariantMap>

#include <optional>

namespace wb {

/// What the far host drops during a transfer that another server carries (vsftpd, Samba, IIS on a host that also
/// runs wirebenchd): wirebenchd's counters (docs/PROTOCOL.md, "Counters") on the interface the transfer's packets
/// use, over the timed part only: greet() before the run, mark() at the timed part's start, take() at its end. The
/// far end's qdisc, its shaper and rate among them, as a tcp run's wirebenchd reports them ("remote_drops").
class FarCounters
{
public:
    /// Greets host's wirebenchd (host.port, else 5301; the host's key), within timeoutMs. false with *why when none
    /// answers or it does not offer counters (one older than this Wirebench).
    bool greet(const Host &host, int timeoutMs, QString *why);
    bool greeted() const { return m_greeted.has_value(); }
    /// The timed part starts: what was dropped before (a seed upload, the login) is not the run's. Sends the request
    /// only (its answer is read by take()), so that the timed part's first bytes do not wait for a round trip.
    bool mark(int timeoutMs);
    /// What the far end dropped since mark(), as DropCounts' JSON; empty when it could not tell. Closes.
    QVariantMap take(int timeoutMs);
    void close()
    {
        m_greeted.reset();
        m_marked = false;
    }

private:
    bool send(int timeoutMs);
    bool receive(int timeoutMs, control::Json *answer);

    std::optional<greeting::Greeted> m_greeted;
    bool m_marked = false; ///< mark()'s request sent, its answer not read yet
};

} // namespace wb
