#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

class QCustomPlot;

namespace wb {

class MainWindow;

/// What bench/gui_responsiveness.sh measures in the real window, opt-in and out of the normal path: with
/// WIREBENCH_GUI_PROBE=FILE set, a timer every 5 ms on the GUI thread records how late each tick comes (the
/// time the event loop was blocked), and the live graph's every replot is timed; FILE gets the figures (max, p99,
/// ...) as key=value lines when the window closes. It measures while a plan runs (engine start to end), or in
/// the fill mode (WIREBENCH_GUI_PROBE_FILL, see HourOfSamples) while the filled graph is followed live.
class ResponsivenessProbe : public QObject
{
    Q_OBJECT
public:
    static constexpr int kTickMs = 5;

    /// The probe the environment asks for, or nullptr (the normal case).
    static std::unique_ptr<ResponsivenessProbe> fromEnvironment(MainWindow *window);

    ResponsivenessProbe(MainWindow *window, const QString &file);
    ~ResponsivenessProbe() override;

    /// Starts and ends the measured span (a plan's, or the fill mode's live part).
    void begin();
    void end();
    /// Writes the figures of the measured span to the file (also done on destruction, once).
    void write();

private:
    void onTick();
    QString figures() const;

    MainWindow *m_window = nullptr;
    QCustomPlot *m_livePlot = nullptr;
    QString m_file;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastTickNs = -1;
    double m_lastTickCpu = 0;
    qint64 m_replotStartNs = 0;
    double m_replotStartCpu = 0;
    double m_beginCpu = 0;
    double m_endCpu = 0;
    qint64 m_beginNs = 0;
    qint64 m_endNs = 0;
    bool m_measuring = false;
    bool m_written = false;
    std::vector<double> m_lateMs;                       ///< per tick, during the span
    /// The largest few: seconds into the span, ms late, and the GUI thread's CPU ms meanwhile (near the lateness:
    /// work on the GUI thread, or the kernel's network softirqs that ran on it; near 0: it waited, for a lock, the
    /// disk or a core).
    struct Stall
    {
        double at = 0;
        double lateMs = 0;
        double cpuMs = 0;
    };
    std::vector<Stall> m_worst;
    std::vector<double> m_replotMs;                     ///< per replot of the live graph, during the span
    std::vector<double> m_replotCpuMs;                  ///< the GUI thread's CPU time in each (the rest: load)
};

} // namespace wb
