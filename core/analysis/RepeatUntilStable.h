#pragma once

#include <QList>
#include <QString>

namespace wb {

/// The "repeat until stable" rule of netperf's -i max,min -I 95,width: keep repeating a test between a
/// minimum and a maximum count until the 95% confidence interval of the mean (Student's t) is narrow
/// enough. Note netperf's width is the whole interval: -I 95,5 means a half-width of 2.5% of the mean.
struct StableDecision
{
    bool repeat = true;         ///< run the test once more
    bool targetReached = false; ///< the half-width is within the target (only meaningful with n >= 2)
    int runs = 0;               ///< values considered
    double mean = 0;
    double halfWidth = 0;         ///< of the 95% interval, in the values' unit
    double halfWidthPercent = -1; ///< of the mean; -1 when it cannot be computed (n < 2 or mean 0)
    QString note;                 ///< one sentence for the user once the decision is to stop
};

class RepeatUntilStable
{
public:
    /// values: the figures of the repetitions so far (any one unit). minCount is raised to 2 when
    /// targetHalfWidthPercent > 0 (an interval needs two values); maxCount is at least minCount.
    /// targetHalfWidthPercent <= 0 disables the rule: repeat exactly until maxCount.
    static StableDecision decide(const QList<double> &values, int minCount, int maxCount,
                                 double targetHalfWidthPercent);
};

} // namespace wb
