#include "CpuMeter.h"

#include <QFile>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace wb {

namespace {
#ifdef Q_OS_UNIX
double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}
#endif
} // namespace

CpuMeter::Snapshot CpuMeter::take()
{
    Snapshot s;
#ifdef Q_OS_LINUX
    QFile f(QStringLiteral("/proc/stat"));
    if (f.open(QIODevice::ReadOnly)) {
        // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is already
        // inside user, so it is not added again. Idle and iowait are not busy. (/proc files report size 0,
        // so read them whole rather than testing atEnd().)
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (const QByteArray &line : lines) {
            if (!line.startsWith("cpu"))
                break;
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() < 5)
                continue;
            quint64 v[8] = {};
            for (int i = 0; i < 8 && i + 1 < parts.size(); ++i)
                v[i] = parts.at(i + 1).toULongLong();
            const quint64 total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
            const quint64 idle = v[3] + v[4];
            s.total.append(total);
            s.busy.append(total - idle);
        }
    }
#endif
#ifdef Q_OS_UNIX
    rusage ru{};
    if (::getrusage(RUSAGE_SELF, &ru) == 0)
        s.processSeconds = seconds(ru.ru_utime) + seconds(ru.ru_stime);
#ifdef RUSAGE_THREAD
    rusage rt{};
    if (::getrusage(RUSAGE_THREAD, &rt) == 0)
        s.threadSeconds = seconds(rt.ru_utime) + seconds(rt.ru_stime);
#endif
#endif
    return s;
}

void CpuMeter::start()
{
    m_start = take();
    m_clock.start();
}

CpuUsage CpuMeter::stop() const
{
    CpuUsage u;
    if (!m_clock.isValid())
        return u;
    const Snapshot end = take();
    u.wallSeconds = m_clock.nsecsElapsed() / 1e9;
    if (u.wallSeconds <= 0)
        return u;
    u.processCpuSeconds = std::max(0.0, end.processSeconds - m_start.processSeconds);
    u.processPercent = u.processCpuSeconds / u.wallSeconds * 100.0;
    if (end.threadSeconds >= 0 && m_start.threadSeconds >= 0) {
        u.threadCpuSeconds = std::max(0.0, end.threadSeconds - m_start.threadSeconds);
        u.threadPercent = std::min(100.0, u.threadCpuSeconds / u.wallSeconds * 100.0);
    }
    u.valid = true;
    if (end.total.size() >= 2 && end.total.size() == m_start.total.size()) {
        u.cores = int(end.total.size()) - 1;
        auto percent = [&](int i) {
            const quint64 dt = end.total.at(i) - m_start.total.at(i);
            const quint64 db = end.busy.at(i) >= m_start.busy.at(i) ? end.busy.at(i) - m_start.busy.at(i) : 0;
            return dt > 0 ? std::clamp(double(db) / double(dt) * 100.0, 0.0, 100.0) : 0.0;
        };
        u.systemPercent = percent(0);
        u.busiestCorePercent = 0;
        for (int i = 1; i < end.total.size(); ++i) {
            u.perCorePercent.append(percent(i));
            u.busiestCorePercent = std::max(u.busiestCorePercent, u.perCorePercent.last());
        }
        // Busy time summed over the cores, from the average so that clock-tick rounding stays small.
        u.systemBusyCpuSeconds = u.systemPercent / 100.0 * u.cores * u.wallSeconds;
    }
    return u;
}

double CpuMeter::serviceDemandUsPerKB(double cpuSeconds, qint64 bytes)
{
    if (cpuSeconds < 0 || bytes <= 0)
        return -1;
    return cpuSeconds * 1e6 / (double(bytes) / 1024.0);
}

} // namespace wb
