#pragma once

#include "plan/TestPlan.h"

#include <QMap>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QGroupBox;
class QToolButton;

namespace wb {

class Config;
class OptionForm;
class ReferenceStreamBox;
class RepeatOptionsBox;

/// What to run: protocols, frame sizes (1500, 9000, custom), repetitions, duration, message size, socket
/// buffers and the sample interval, and, when a file-transfer protocol (FTP, SMB, copy) is checked, the file size
/// and the plan-wide transfer settings (TransferSettings::planOptions). Presets build whole experiments in one
/// click. Builds a TestPlan without hosts (the host list supplies them).
/// Saves every change through Config when one is given.
class PlanEditorPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kNetperfMessageSize = 1472;
    static constexpr int kDefaultFileSizeMiB = 256;

    explicit PlanEditorPanel(Config *config, QWidget *parent = nullptr);

    /// The plan as edited; hosts is empty.
    TestPlan plan() const;
    /// Problems of the plan's own settings (hosts are not checked here); empty when it can run.
    QStringList problems() const;
    ReferenceStreamBox *referenceStreams() const { return m_reference; }

public slots:
    void setPlan(const wb::TestPlan &plan);
    /// The hosts ticked in the host list: which of them can answer a reference stream (ReferenceStreamBox).
    void setHosts(const QList<wb::Host> &hosts);
    /// SMB read, SMB write, FTP GET, FTP PUT x 1500 and 9000 B frames x 5 repetitions (the original matrix), and
    /// a reference tcp-send and tcp-recv per host and frame size.
    void applyShootoutPreset();
    /// netperf TCP_STREAM: tcp-send, -m 1472, 32 KiB send / 64 KiB receive buffers, 10 s.
    void applyNetperfPreset();

signals:
    void planChanged();

private:
    // The constructor's parts, in the order the widgets are made (it is the tab order).
    void buildPresets();
    QGroupBox *buildProtocolBox();
    QGroupBox *buildFrameBox();
    QFormLayout *buildRunForm();
    void buildTransferBox();
    QList<int> customFrames(QStringList *errors) const;
    void onChanged();
    void syncMessagePreset();
    bool anyTransferChecked() const;

    Config *m_config = nullptr;
    bool m_loading = false;
    QMap<QString, QCheckBox *> m_protocols;
    QCheckBox *m_frame1500 = nullptr;
    QCheckBox *m_frame9000 = nullptr;
    QLineEdit *m_customFrames = nullptr;
    QSpinBox *m_repetitions = nullptr;
    QDoubleSpinBox *m_duration = nullptr;
    QSpinBox *m_streams = nullptr;
    QCheckBox *m_zeroCopy = nullptr;
    QSpinBox *m_latencyIdle = nullptr; ///< latency.idle_ms (LatencyRecorder::planOption)
    QComboBox *m_messagePreset = nullptr;
    QSpinBox *m_messageSize = nullptr;
    QComboBox *m_bufferMode = nullptr;
    QSpinBox *m_bufferSize = nullptr;
    QSpinBox *m_recvBufferSize = nullptr;
    QToolButton *m_presets = nullptr;
    QGroupBox *m_transferBox = nullptr;
    QSpinBox *m_fileSize = nullptr;
    OptionForm *m_transferForm = nullptr;
    RepeatOptionsBox *m_repeatOptions = nullptr;
    ReferenceStreamBox *m_reference = nullptr;
    QSpinBox *m_sampleInterval = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_problems = nullptr;
};

} // namespace wb
