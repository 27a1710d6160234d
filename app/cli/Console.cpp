#include "Console.h"

#include <cstdio>

namespace wb::cli {

namespace {
void put(FILE *stream, const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}
} // namespace

void Console::out(const QString &line)
{
    put(stdout, line);
}

void Console::err(const QString &line)
{
    put(stderr, line);
}

} // namespace wb::cli
