#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <map>
#include <memory>
#include <string>
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

protected:
    /// Counts the paint events of the span per widget (class#objectName) with their area, and notes the layout
    /// requests: which widgets a stall repainted and what relayouted (a QTabWidget repaints whole on one).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// What the scheduler says of the GUI thread so far (platform::CpuTimes::threadSchedule; without it, CPU only).
    struct Sched
    {
        double runMs = 0;  ///< on a CPU
        double waitMs = 0; ///< runnable, waiting for a core
        long voluntary = 0;
        long involuntary = 0;
    };
    Sched sched() const;
    void onTick();
    void onActivity(const char *name, std::int64_t durationNs);
    QString figures() const;

    MainWindow *m_window = nullptr;
    QCustomPlot *m_livePlot = nullptr;
    QString m_file;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastTickNs = -1;
    Sched m_lastTickSched;
    /// The longest marked activity (core/platform/ActivityMarker) since the last tick: what the stall was.
    std::string m_tickActivity;
    double m_tickActivityMs = 0;
    struct ActivityTotal
    {
        int count = 0;
        double totalMs = 0;
        double maxMs = 0;
    };
    std::map<std::string, ActivityTotal> m_activities; ///< per marked activity, during the span
    struct PaintTotal
    {
        int count = 0;
        double megapixels = 0;
    };
    std::map<QString, PaintTotal> m_paints; ///< per widget, during the span
    qint64 m_replotStartNs = 0;
    double m_replotStartCpu = 0;
    double m_beginCpu = 0;
    double m_endCpu = 0;
    qint64 m_beginNs = 0;
    qint64 m_endNs = 0;
    bool m_measuring = false;
    bool m_written = false;
    std::vector<double> m_lateMs; ///< per tick, during the span
    /// The largest few: seconds into the span, ms late, and where the time went, from the scheduler's own count:
    /// on a CPU (work on the GUI thread, or the kernel's network softirqs that ran on it), runnable but waiting for
    /// a core (a busy neighbour), or blocked asleep beyond the tick's own 5 ms (I/O such as an fsync, a lock), with
    /// the context switches and the longest marked activity of the interval.
    struct Stall
    {
        double at = 0;
        double monotonicS = 0; ///< CLOCK_MONOTONIC at the stall's end, to find it in `perf record -k monotonic`
        double lateMs = 0;
        double cpuMs = 0;
        double waitMs = 0;
        double blockedMs = 0;
        long voluntary = 0;
        long involuntary = 0;
        std::string activity;
        double activityMs = 0;
        QString painted;        ///< the widgets repainted in the interval, largest area first
        QString layoutRequests; ///< the widgets that were asked to lay out again in the interval
    };
    std::map<QString, double> m_tickPaints;      ///< widget -> Mpx repainted since the last tick
    std::map<QString, int> m_tickLayoutRequests; ///< widget -> layout requests since the last tick
    std::vector<Stall> m_worst;
    std::vector<double> m_replotMs;    ///< per replot of the live graph, during the span
    std::vector<double> m_replotCpuMs; ///< the GUI thread's CPU time in each (the rest: load)
};

} // namespace wb
