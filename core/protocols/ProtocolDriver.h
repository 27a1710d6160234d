#pragma once

#include "model/PreflightProblem.h"
#include "model/RunResult.h"
#include "model/RunSpec.h"
#include "model/Sample.h"

namespace wb {

/// What a driver may call while it runs. The engine's worker implements it.
class RunObserver
{
public:
    virtual ~RunObserver() = default;
    /// A finished sampling interval; called on the worker thread, the engine batches them for the GUI.
    virtual void sample(const Sample &sample) = 0;
    /// True once the user pressed Stop; a driver must return within a second of it turning true.
    virtual bool stopRequested() const = 0;
    /// A short status line for the user ("uploading the seed file", "connecting").
    virtual void status(const QString &text) { Q_UNUSED(text) }
    /// The run's timed part starts (its ThroughputMeter started) or ends (it finished): what a driver does
    /// before it (writing the seed file a download needs) or after it (reading a file back) is not the run's,
    /// so the counters of CPU, errors and drops are read at these two moments.
    virtual void timedPartStarts() { }
    virtual void timedPartEnds() { }
};

/// For a driver's work outside a run (ProtocolDriver::check): it samples nothing and is never stopped.
class QuietObserver : public RunObserver
{
public:
    void sample(const Sample &sample) override { Q_UNUSED(sample) }
    bool stopRequested() const override { return false; }
};

/// One protocol behind one small interface. A driver runs a single RunSpec, blocking, on the engine's
/// worker thread, and never throws: failures come back as a RunResult with status Failed and an error
/// that names the host, what failed and what to try.
class ProtocolDriver
{
public:
    virtual ~ProtocolDriver() = default;
    virtual RunResult run(const RunSpec &spec, RunObserver &observer) = 0;
    /// A cheap look, before the plan's first run, at whether run() can work against spec.host at all: the server
    /// listens, takes the login, has the share or folder. Blocking, each step within timeoutMs; writes nothing on
    /// the server. Every problem found (fault and message set; the caller fills in host and protocol), or none.
    virtual PreflightProblemList check(const RunSpec &spec, int timeoutMs)
    {
        Q_UNUSED(spec)
        Q_UNUSED(timeoutMs)
        return {};
    }
};

} // namespace wb
