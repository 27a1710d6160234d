#include "LabBench.h"

#include "LabSession.h"

#include <QFileInfo>

// The targets that compile this file say where the tree and the build are; ctest's environment wins.
#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR ""
#endif
#ifndef WB_BINARY_DIR
#define WB_BINARY_DIR ""
#endif

namespace wb::test::LabBench {

QString labScript()
{
    return qEnvironmentVariable("WIREBENCH_SOURCE_DIR", QStringLiteral(WB_SOURCE_DIR))
        + QStringLiteral("/tests/lab/lab.sh");
}

QString builtProgram(const QString &relativePath)
{
    return qEnvironmentVariable("WIREBENCH_BINARY_DIR", QStringLiteral(WB_BINARY_DIR)) + QLatin1Char('/')
        + relativePath;
}

QString missing(const QStringList &programs, const QStringList &tools)
{
    if (!QFileInfo::exists(labScript()))
        return labScript() + QStringLiteral(" is missing");
    for (const QString &program : programs) {
        const QString path = builtProgram(program);
        if (!QFileInfo(path).isExecutable())
            return path + QStringLiteral(" is not built: build the %1 target").arg(QFileInfo(path).fileName());
    }
    const QString tool = LabSession::missingTool(QStringList{QStringLiteral("ip"), QStringLiteral("tc")} + tools);
    if (tool.isEmpty())
        return {};
    const QString package
        = (tool == QLatin1String("ip") || tool == QLatin1String("tc")) ? QStringLiteral("iproute2") : tool;
    return tool + QStringLiteral(" is missing: apt-get install ") + package;
}

QString serveAll(const LabSession &lab, const QList<QStringList> &serves)
{
    for (const QStringList &serve : serves) {
        bool ok = false;
        const QString out = lab.run(QStringList{QStringLiteral("serve")} + serve, &ok);
        if (!ok)
            return QStringLiteral("%1 did not start in the lab's server namespace: %2").arg(serve.first(), out);
    }
    return {};
}

} // namespace wb::test::LabBench
