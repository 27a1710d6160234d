#pragma once

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
};

/// One protocol behind one small interface. A driver runs a single RunSpec, blocking, on the engine's
/// worker thread, and never throws: failures come back as a RunResult with status Failed and an error
/// that names the host, what failed and what to try.
class ProtocolDriver
{
public:
    virtual ~ProtocolDriver() = default;
    virtual RunResult run(const RunSpec &spec, RunObserver &observer) = 0;
};

} // namespace wb
