#include "Statistics.h"

#include <algorithm>
#include <cmath>

namespace wb {

double Statistics::tCritical95(int df)
{
    // Table for small samples (the usual 3..30 repetitions), then the normal approximation's tail.
    static const double table[]
        = {0,      12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
           2.2010, 2.1788,  2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796,
           2.0739, 2.0687,  2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    if (df <= 0)
        return 0;
    if (df <= 30)
        return table[df];
    if (df <= 40)
        return 2.0423 + (2.0211 - 2.0423) * (df - 30) / 10.0;
    if (df <= 60)
        return 2.0211 + (2.0003 - 2.0211) * (df - 40) / 20.0;
    if (df <= 120)
        return 2.0003 + (1.9799 - 2.0003) * (df - 60) / 60.0;
    return 1.9600;
}

Summary Statistics::summarize(QList<double> values)
{
    Summary s;
    s.n = int(values.size());
    if (values.isEmpty())
        return s;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    const qsizetype mid = values.size() / 2;
    s.median = values.size() % 2 ? values.at(mid) : (values.at(mid - 1) + values.at(mid)) / 2.0;
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / s.n;
    if (s.n > 1) {
        double sq = 0;
        for (double v : values)
            sq += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(sq / (s.n - 1));
        s.ci95HalfWidth = tCritical95(s.n - 1) * s.stddev / std::sqrt(double(s.n));
    }
    return s;
}

} // namespace wb
