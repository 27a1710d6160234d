#include "RepeatOptionsBox.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

namespace wb {

namespace {
constexpr double kDefaultTargetPercent = 5.0; // netperf -I 95,10 asks +/-5 %
}

RepeatOptionsBox::RepeatOptionsBox(QWidget *parent)
    : QGroupBox(tr("Repetitions and accuracy"), parent)
{
    setObjectName(QStringLiteral("repeatOptionsBox"));

    m_warmup = new QDoubleSpinBox(this);
    m_warmup->setObjectName(QStringLiteral("warmupSpin"));
    m_warmup->setRange(0, 600);
    m_warmup->setDecimals(1);
    m_warmup->setSingleStep(0.5);
    m_warmup->setSuffix(tr(" s"));
    m_warmup->setSpecialValueText(tr("none"));
    m_warmup->setToolTip(tr("Time at the start of each timed run (TCP, iperf3) that is left out of the figure, as "
                            "iperf3 -O: TCP slow start and caches settle first. The live graph still shows it. "
                            "File transfers move a whole file and have no warm-up."));

    m_stable = new QCheckBox(tr("Repeat until stable"), this);
    m_stable->setObjectName(QStringLiteral("stableCheck"));
    m_stable->setToolTip(tr("As netperf -i max,min -I 95,width: stop repeating a test once the 95% confidence "
                            "interval of its mean is within the target; the repetition count above is the maximum. "
                            "The results say when the target was not reached."));
    m_target = new QDoubleSpinBox(this);
    m_target->setObjectName(QStringLiteral("stableTargetSpin"));
    m_target->setRange(0.5, 50);
    m_target->setDecimals(1);
    m_target->setSingleStep(0.5);
    m_target->setPrefix(QStringLiteral("±"));
    m_target->setSuffix(tr(" % of the mean"));
    m_target->setValue(kDefaultTargetPercent);
    m_target->setToolTip(tr("Half-width of the 95% confidence interval (Student's t), in percent of the mean"));
    m_minReps = new QSpinBox(this);
    m_minReps->setObjectName(QStringLiteral("minRepetitionsSpin"));
    m_minReps->setRange(2, 1000);
    m_minReps->setValue(3);
    m_minReps->setPrefix(tr("at least "));
    m_minReps->setToolTip(tr("Runs of a test before the rule judges it (netperf -i max,min: min)"));
    m_stableNote = new QLabel(this);
    m_stableNote->setObjectName(QStringLiteral("stableNoteLabel"));
    m_stableNote->setWordWrap(true);
    auto *stableRow = new QHBoxLayout;
    stableRow->addSpacing(20); // under the check box it belongs to
    stableRow->addWidget(m_target, 1);
    stableRow->addWidget(m_minReps);

    m_interleave = new QCheckBox(tr("Interleave hosts (A B A B, not A A B B)"), this);
    m_interleave->setObjectName(QStringLiteral("interleaveCheck"));
    m_interleave->setToolTip(tr("Run repetition 1 on every host, then repetition 2, ...: drift on a shared network "
                                "then touches every host alike instead of favouring one."));
    m_stopOnError = new QCheckBox(tr("Stop the plan at the first failed run"), this);
    m_stopOnError->setObjectName(QStringLiteral("stopOnErrorCheck"));
    m_stopOnError->setToolTip(tr("Otherwise a failed run is recorded with its reason and the plan goes on"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Warm-up left out:"), m_warmup);
    form->addRow(m_stable);
    form->addRow(stableRow);
    form->addRow(m_stableNote);
    form->addRow(m_interleave);
    form->addRow(m_stopOnError);

    connect(m_warmup, &QDoubleSpinBox::valueChanged, this, &RepeatOptionsBox::changed);
    connect(m_target, &QDoubleSpinBox::valueChanged, this, &RepeatOptionsBox::updateState);
    connect(m_target, &QDoubleSpinBox::valueChanged, this, &RepeatOptionsBox::changed);
    connect(m_minReps, &QSpinBox::valueChanged, this, &RepeatOptionsBox::updateState);
    connect(m_minReps, &QSpinBox::valueChanged, this, &RepeatOptionsBox::changed);
    connect(m_stable, &QCheckBox::toggled, this, &RepeatOptionsBox::updateState);
    connect(m_stable, &QCheckBox::toggled, this, &RepeatOptionsBox::changed);
    connect(m_interleave, &QCheckBox::toggled, this, &RepeatOptionsBox::changed);
    connect(m_stopOnError, &QCheckBox::toggled, this, &RepeatOptionsBox::changed);
    updateState();
}

void RepeatOptionsBox::apply(TestPlan *plan) const
{
    plan->params.warmupMs = int(std::lround(m_warmup->value() * 1000));
    plan->params.stableTargetPercent = m_stable->isChecked() ? m_target->value() : 0;
    plan->params.minRepetitions = m_minReps->value();
    plan->interleaveHosts = m_interleave->isChecked();
    plan->params.stopOnError = m_stopOnError->isChecked();
}

void RepeatOptionsBox::load(const TestPlan &plan)
{
    const QSignalBlocker blockWarmup(m_warmup);
    const QSignalBlocker blockStable(m_stable);
    const QSignalBlocker blockTarget(m_target);
    const QSignalBlocker blockMin(m_minReps);
    const QSignalBlocker blockInterleave(m_interleave);
    const QSignalBlocker blockStop(m_stopOnError);
    m_warmup->setValue(plan.params.warmupMs / 1000.0);
    m_stable->setChecked(plan.params.stableTargetPercent > 0);
    m_target->setValue(plan.params.stableTargetPercent > 0 ? plan.params.stableTargetPercent : kDefaultTargetPercent);
    m_minReps->setValue(plan.params.minRepetitions);
    m_interleave->setChecked(plan.interleaveHosts);
    m_stopOnError->setChecked(plan.params.stopOnError);
    m_maxRepetitions = plan.repetitions;
    updateState();
}

void RepeatOptionsBox::setMaxRepetitions(int repetitions)
{
    m_maxRepetitions = repetitions;
    updateState();
}

void RepeatOptionsBox::updateState()
{
    const bool on = m_stable->isChecked();
    m_target->setEnabled(on);
    m_minReps->setEnabled(on);
    m_stableNote->setVisible(on);
    if (on)
        m_stableNote->setText(tr("Each test runs %1 to %2 times: it stops once the 95% interval is within ±%3 % of "
                                 "the mean.")
                                  .arg(m_minReps->value())
                                  .arg(m_maxRepetitions)
                                  .arg(m_target->value(), 0, 'f', 1));
}

} // namespace wb
