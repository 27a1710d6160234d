#pragma once

#include "model/RunResult.h"
#include "model/RunSpec.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace wb {

class MainWindow;
class ResponsivenessProbe;
class ThroughputChart;

/// The probe's fill mode (WIREBENCH_GUI_PROBE_FILL=LINES,SECONDS[,LIVE], e.g. "5,3600,10"): through the engine's
/// signals, the window is given LINES repetitions of SECONDS of 10 Hz samples at once, as a run that long would
/// have left them, the last line short of LIVE seconds; then that line is followed live at 10 Hz for LIVE seconds
/// (default 10) while the probe measures, and the window closes. What a one-hour run costs the window, without the
/// hour.
class HourOfSamples : public QObject
{
    Q_OBJECT
public:
    static constexpr double kIntervalSeconds = 0.1;

    /// Parses `spec` and schedules the fill once the window shows; false with the reason when it does not parse.
    static bool start(MainWindow *window, ResponsivenessProbe *probe, const QString &spec, QString *why);

private:
    HourOfSamples(MainWindow *window, ResponsivenessProbe *probe, int lines, int seconds, int liveSeconds);

    void fill();
    void liveTick();
    RunSpec specOf(int repetition) const;
    /// The sample k (0-based) of a line: about 117 MB/s with some noise, a slow wander and a 3 s dip every
    /// 10 minutes, so that a screenshot shows what a long run's line looks like.
    static double bytesOf(int repetition, int k);
    static Sample sampleOf(int runIndex, int repetition, int k);
    /// A finished line as the engine would report it: its samples, the bytes and the time they add up to.
    static RunResult resultOf(const RunSpec &spec, const SampleList &samples);

    MainWindow *m_window = nullptr;
    ResponsivenessProbe *m_probe = nullptr;
    ThroughputChart *m_chart = nullptr;
    int m_lines = 0;
    int m_samplesPerLine = 0;
    int m_liveSamples = 0;
    int m_next = 0; ///< the next sample of the last line
    QTimer m_liveTimer;
};

} // namespace wb
