#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace wb::test {

class LabSession;

/// What every lab test finds and starts before its first row, in one place.
namespace LabBench {

/// tests/lab/lab.sh of this source tree (WIREBENCH_SOURCE_DIR, set by ctest, else the tree this was built from).
QString labScript();
/// A program of this build, by its path in the build folder ("app/daemon/wirebenchd").
QString builtProgram(const QString &relativePath);
/// Empty, or the first of lab.sh, the built `programs` and the host `tools` (with ip and tc) that is
/// missing, and how to get it.
QString missing(const QStringList &programs, const QStringList &tools = {});
/// "lab.sh serve ARGS" for each entry of `serves` in the lab's server namespace: empty, or which did not
/// start and what it said.
QString serveAll(const LabSession &lab, const QList<QStringList> &serves);

} // namespace LabBench
} // namespace wb::test
