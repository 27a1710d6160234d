#pragma once

#include "PreflightReport.h"
#include "plan/TestPlan.h"

#include <QObject>
#include <QThread>

#include <memory>

namespace wb {

/// The check before a plan's first run: asks each protocol's driver (ProtocolDriver::check) whether it can work
/// against each host at all, every host and protocol at once, so that a doomed plan says everything that stands
/// in its way in a few seconds instead of failing run after run. Writes nothing on any server.
class Preflight : public QObject
{
    Q_OBJECT
public:
    static constexpr int kTimeoutMs = 4000; ///< per step of a check (connect, login, ...); FTP allows an answer 10 s
                                            ///< (failed logins are delayed on purpose)

    explicit Preflight(QObject *parent = nullptr);
    /// Waits for a check still running: each of its steps ends within kTimeoutMs.
    ~Preflight() override;

    bool isRunning() const { return m_running; }
    /// Checks plan on a thread of its own; finished() follows on this object's thread. False while one runs.
    bool start(const TestPlan &plan);

    /// Blocking (call it off the GUI thread): every host x protocol pair of plan on a thread of its own.
    /// The problems come in the plan's order of hosts, then protocols.
    static PreflightReport check(const TestPlan &plan, int timeoutMs = kTimeoutMs);

signals:
    void finished(const wb::PreflightReport &report);

private:
    std::unique_ptr<QThread> m_thread;
    bool m_running = false;
};

} // namespace wb
