#include "Streams.h"

namespace wb {

QString Streams::label(int streams)
{
    return streams == 1 ? QStringLiteral("1 stream") : QStringLiteral("%1 streams").arg(streams);
}

int Streams::of(const RunResult &result)
{
    return qMax(1, result.extra.value(QStringLiteral("streams"), 1).toInt());
}

} // namespace wb
