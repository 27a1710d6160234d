#pragma once

#include <QList>

namespace wb {

/// Summary of one test's repetitions (values in any one unit).
struct Summary
{
    int n = 0;
    double min = 0;
    double median = 0;
    double mean = 0;
    double max = 0;
    double stddev = 0;        ///< sample standard deviation (n - 1)
    double ci95HalfWidth = 0; ///< Student's t, 95%, two-sided; 0 when n < 2

    double ciLow() const { return mean - ci95HalfWidth; }
    double ciHigh() const { return mean + ci95HalfWidth; }
};

class Statistics
{
public:
    static Summary summarize(QList<double> values);
    /// Two-sided 95% critical value of Student's t for df degrees of freedom.
    static double tCritical95(int df);
};

} // namespace wb
