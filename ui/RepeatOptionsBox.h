#pragma once

#include "plan/TestPlan.h"

#include <QGroupBox>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace wb {

/// How a plan repeats and what it leaves out: warm-up (iperf3 -O), repeat until stable (netperf -i max,min
/// -I 95,width), interleaving the hosts (A B A B) and stopping at the first failed run. Part of the plan editor.
class RepeatOptionsBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit RepeatOptionsBox(QWidget *parent = nullptr);

    /// Writes these settings into plan (warm-up, stability rule, interleave, stop on error).
    void apply(TestPlan *plan) const;
    void load(const TestPlan &plan);
    /// The plan's repetition count: the most a stable-mode test runs.
    void setMaxRepetitions(int repetitions);

signals:
    void changed();

private:
    void updateState();

    QDoubleSpinBox *m_warmup = nullptr;
    QCheckBox *m_stable = nullptr;
    QDoubleSpinBox *m_target = nullptr;
    QSpinBox *m_minReps = nullptr;
    QLabel *m_stableNote = nullptr;
    QCheckBox *m_interleave = nullptr;
    QCheckBox *m_stopOnError = nullptr;
    int m_maxRepetitions = 5;
};

} // namespace wb
