#include "PlanEditorPanel.h"

#include "OptionForm.h"
#include "ReferenceStreamBox.h"
#include "RepeatOptionsBox.h"
#include "model/Frame.h"
#include "latency/LatencyRecorder.h"
#include "model/Streams.h"
#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolSets.h"
#include "protocols/tcp/TcpSettings.h"
#include "protocols/transfer/TransferSettings.h"
#include "settings/Config.h"
#include "stats/Units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace wb {

PlanEditorPanel::PlanEditorPanel(Config *config, QWidget *parent)
    : QWidget(parent)
    , m_config(config)
{
    setObjectName(QStringLiteral("planEditorPanel"));

    buildPresets();
    QGroupBox *protocolBox = buildProtocolBox();
    QGroupBox *frameBox = buildFrameBox();
    QFormLayout *form = buildRunForm();
    m_repeatOptions = new RepeatOptionsBox(this);
    connect(m_repeatOptions, &RepeatOptionsBox::changed, this, &PlanEditorPanel::onChanged);
    m_reference = new ReferenceStreamBox(this);
    connect(m_reference, &ReferenceStreamBox::changed, this, &PlanEditorPanel::onChanged);

    buildTransferBox();

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("planSummaryLabel"));
    m_summary->setWordWrap(true);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("planProblemsLabel"));
    m_problems->setStyleSheet(QStringLiteral("color: #b01e1e"));
    m_problems->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *presetRow = new QHBoxLayout;
    presetRow->addWidget(m_presets);
    presetRow->addStretch(1);
    layout->addLayout(presetRow);
    layout->addWidget(protocolBox);
    layout->addWidget(frameBox);
    layout->addLayout(form);
    layout->addWidget(m_repeatOptions);
    layout->addWidget(m_reference);
    layout->addWidget(m_transferBox);
    layout->addWidget(m_summary);
    layout->addWidget(m_problems);
    layout->addStretch(1);

    TestPlan initial;
    initial.protocols = ProtocolSets::firstPlan();
    initial.frameSizes = {1500, 9000};
    setPlan(m_config ? m_config->lastPlan() : initial);
}

void PlanEditorPanel::buildPresets()
{
    m_presets = new QToolButton(this);
    m_presets->setObjectName(QStringLiteral("presetButton"));
    m_presets->setText(tr("Presets"));
    m_presets->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_presets->setPopupMode(QToolButton::InstantPopup);
    m_presets->setToolTip(tr("Fill in a whole experiment in one click (hosts stay as ticked in the host list)"));
    auto *presetMenu = new QMenu(m_presets);
    QAction *shootout
        = presetMenu->addAction(tr("File-server shoot-out (SMB read/write, FTP GET/PUT x 1500/9000 B x 5, "
                                   "a reference TCP stream per host)"),
                                this, &PlanEditorPanel::applyShootoutPreset);
    shootout->setObjectName(QStringLiteral("shootoutPresetAction"));
    QAction *netperf = presetMenu->addAction(tr("netperf TCP_STREAM (-m 1472, 32 KiB/64 KiB buffers, 10 s)"), this,
                                             &PlanEditorPanel::applyNetperfPreset);
    netperf->setObjectName(QStringLiteral("netperfPresetAction"));
    m_presets->setMenu(presetMenu);
}

QGroupBox *PlanEditorPanel::buildProtocolBox()
{
    auto *protocolBox = new QGroupBox(tr("Protocols"), this);
    auto *protocolLayout = new QVBoxLayout(protocolBox);
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        auto *check = new QCheckBox(info.title, protocolBox);
        check->setObjectName(QStringLiteral("protocolCheck_") + info.id);
        check->setToolTip(info.description);
        protocolLayout->addWidget(check);
        m_protocols.insert(info.id, check);
        connect(check, &QCheckBox::toggled, this, &PlanEditorPanel::onChanged);
    }
    return protocolBox;
}

QGroupBox *PlanEditorPanel::buildFrameBox()
{
    auto *frameBox = new QGroupBox(tr("Ethernet frame sizes (MTU)"), this);
    m_frame1500 = new QCheckBox(tr("1500 B (standard)"), frameBox);
    m_frame1500->setObjectName(QStringLiteral("frame1500Check"));
    m_frame9000 = new QCheckBox(tr("9000 B (jumbo)"), frameBox);
    m_frame9000->setObjectName(QStringLiteral("frame9000Check"));
    m_customFrames = new QLineEdit(frameBox);
    m_customFrames->setObjectName(QStringLiteral("customFramesEdit"));
    m_customFrames->setPlaceholderText(tr("more, e.g. 4000, 7000"));
    m_customFrames->setToolTip(tr("Further frame sizes in bytes (%1), separated by commas. "
                                  "The TCP MSS is the frame size minus 40 B.")
                                   .arg(Frame::rangeText()));
    auto *frameLayout = new QGridLayout(frameBox); // two rows, so that the panel stays narrow
    frameLayout->addWidget(m_frame1500, 0, 0);
    frameLayout->addWidget(m_frame9000, 0, 1);
    frameLayout->addWidget(m_customFrames, 1, 0, 1, 2);
    connect(m_frame1500, &QCheckBox::toggled, this, &PlanEditorPanel::onChanged);
    connect(m_frame9000, &QCheckBox::toggled, this, &PlanEditorPanel::onChanged);
    connect(m_customFrames, &QLineEdit::textChanged, this, &PlanEditorPanel::onChanged);
    return frameBox;
}

QFormLayout *PlanEditorPanel::buildRunForm()
{
    m_repetitions = new QSpinBox(this);
    m_repetitions->setObjectName(QStringLiteral("repetitionsSpin"));
    m_repetitions->setRange(1, 1000);
    m_repetitions->setValue(5);
    m_duration = new QDoubleSpinBox(this);
    m_duration->setObjectName(QStringLiteral("durationSpin"));
    m_duration->setRange(0.1, 3600);
    m_duration->setDecimals(1);
    m_duration->setSingleStep(1);
    m_duration->setSuffix(tr(" s"));
    m_duration->setValue(10);
    m_streams = new QSpinBox(this);
    m_streams->setObjectName(QStringLiteral("streamsSpin"));
    m_streams->setRange(1, Streams::kMax);
    m_streams->setValue(1);
    m_streams->setToolTip(
        tr("Parallel TCP connections of one tcp-send, tcp-recv or iperf3 test (iperf3 -P): the figure is "
           "their sum over the time common to all. One stream may not fill a long or fast path, "
           "or a link that limits each flow; several can. File transfers ignore it"));
    m_zeroCopy = new QCheckBox(tr("Zero copy (tcp-send: sendfile, tcp-recv: MSG_TRUNC)"), this);
    m_zeroCopy->setObjectName(QStringLiteral("zeroCopyCheck"));
    m_zeroCopy->setToolTip(TcpSettings::planOptions().constFirst().toolTip);
    m_latencyIdle = new QSpinBox(this);
    m_latencyIdle->setObjectName(QStringLiteral("latencyIdleSpin"));
    m_latencyIdle->setRange(0, 60000);
    m_latencyIdle->setSingleStep(500);
    m_latencyIdle->setSuffix(tr(" ms"));
    m_latencyIdle->setSpecialValueText(tr("off (no latency probe)"));
    m_latencyIdle->setValue(LatencyRecorder::kDefaultIdleMs);
    m_latencyIdle->setToolTip(LatencyRecorder::planOption().toolTip);

    m_messagePreset = new QComboBox(this);
    m_messagePreset->setObjectName(QStringLiteral("messagePresetCombo"));
    m_messagePreset->addItem(tr("128 KiB (default)"), 128 * 1024);
    m_messagePreset->addItem(tr("1472 B (netperf -m 1472)"), kNetperfMessageSize);
    m_messagePreset->addItem(tr("64 KiB"), 64 * 1024);
    m_messagePreset->addItem(tr("1 MiB"), 1024 * 1024);
    m_messagePreset->addItem(tr("Custom"), 0);
    m_messageSize = new QSpinBox(this);
    m_messageSize->setObjectName(QStringLiteral("messageSizeSpin"));
    m_messageSize->setRange(1, 16 * 1024 * 1024);
    m_messageSize->setSuffix(tr(" B"));
    m_messageSize->setValue(128 * 1024);
    m_messageSize->setToolTip(tr("Bytes per send() call, as netperf -m"));
    auto *messageRow = new QHBoxLayout;
    messageRow->addWidget(m_messagePreset, 1);
    messageRow->addWidget(m_messageSize);
    connect(m_messagePreset, &QComboBox::activated, this, [this] {
        const int size = m_messagePreset->currentData().toInt();
        if (size > 0)
            m_messageSize->setValue(size);
    });
    connect(m_messageSize, &QSpinBox::valueChanged, this, [this] {
        syncMessagePreset();
        onChanged();
    });

    m_bufferMode = new QComboBox(this);
    m_bufferMode->setObjectName(QStringLiteral("socketBufferCombo"));
    m_bufferMode->addItem(tr("System default"));
    m_bufferMode->addItem(tr("Fixed size"));
    m_bufferMode->addItem(tr("Send / receive"));
    m_bufferMode->setToolTip(tr("Fixed size: the same SO_SNDBUF and SO_RCVBUF; Send / receive: each its own "
                                "(netperf -s / -S)"));
    m_bufferSize = new QSpinBox(this);
    m_bufferSize->setObjectName(QStringLiteral("socketBufferSpin"));
    m_bufferSize->setRange(4, 1024 * 1024);
    m_bufferSize->setSuffix(tr(" KiB"));
    m_bufferSize->setValue(256);
    m_bufferSize->setToolTip(tr("SO_SNDBUF (and SO_RCVBUF when fixed) on both ends"));
    m_recvBufferSize = new QSpinBox(this);
    m_recvBufferSize->setObjectName(QStringLiteral("recvBufferSpin"));
    m_recvBufferSize->setRange(4, 1024 * 1024);
    m_recvBufferSize->setSuffix(tr(" KiB"));
    m_recvBufferSize->setValue(256);
    m_recvBufferSize->setToolTip(tr("SO_RCVBUF on both ends"));
    auto *bufferRow = new QHBoxLayout;
    bufferRow->addWidget(m_bufferMode, 1);
    bufferRow->addWidget(m_bufferSize);
    bufferRow->addWidget(m_recvBufferSize);
    connect(m_bufferMode, &QComboBox::currentIndexChanged, this, &PlanEditorPanel::onChanged);
    connect(m_bufferSize, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_recvBufferSize, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);

    m_sampleInterval = new QSpinBox(this);
    m_sampleInterval->setObjectName(QStringLiteral("sampleIntervalSpin"));
    m_sampleInterval->setRange(10, 10000);
    m_sampleInterval->setSingleStep(50);
    m_sampleInterval->setSuffix(tr(" ms"));
    m_sampleInterval->setValue(100);
    connect(m_repetitions, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_duration, &QDoubleSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_streams, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_zeroCopy, &QCheckBox::toggled, this, &PlanEditorPanel::onChanged);
    connect(m_latencyIdle, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_sampleInterval, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);

    auto *form = new QFormLayout;
    form->addRow(tr("Repetitions:"), m_repetitions);
    form->addRow(tr("Duration of a run:"), m_duration);
    form->addRow(tr("Parallel streams:"), m_streams);
    form->addRow(QString(), m_zeroCopy);
    form->addRow(tr("Latency idle lead:"), m_latencyIdle);
    form->addRow(tr("Message size:"), messageRow);
    form->addRow(tr("Socket buffers:"), bufferRow);
    form->addRow(tr("Sample interval:"), m_sampleInterval);
    return form;
}

void PlanEditorPanel::buildTransferBox()
{
    // File transfers: shown only while FTP, SMB or copy is checked.
    m_transferBox = new QGroupBox(tr("File transfers (FTP, SMB, copy)"), this);
    m_transferBox->setObjectName(QStringLiteral("transferBox"));
    m_fileSize = new QSpinBox(m_transferBox);
    m_fileSize->setObjectName(QStringLiteral("fileSizeSpin"));
    m_fileSize->setRange(1, 1024 * 1024);
    m_fileSize->setSuffix(tr(" MiB"));
    m_fileSize->setValue(kDefaultFileSizeMiB);
    m_fileSize->setToolTip(tr("Size of the file each run moves (1 MiB = 2^20 bytes)"));
    m_transferForm = new OptionForm(TransferSettings::planOptions(), m_transferBox);
    m_transferForm->setObjectName(QStringLiteral("transferOptionsForm"));
    m_transferForm->formLayout()->setContentsMargins(0, 0, 0, 0);
    m_transferForm->formLayout()->insertRow(0, tr("File size:"), m_fileSize);
    if (auto *path = qobject_cast<QLineEdit *>(m_transferForm->editor(QLatin1String(TransferSettings::LocalPathKey))))
        path->setPlaceholderText(tr("e.g. /data/wirebench.bin"));
    auto *transferLayout = new QVBoxLayout(m_transferBox);
    transferLayout->addWidget(m_transferForm);
    connect(m_fileSize, &QSpinBox::valueChanged, this, &PlanEditorPanel::onChanged);
    connect(m_transferForm, &OptionForm::changed, this, &PlanEditorPanel::onChanged);
}

void PlanEditorPanel::syncMessagePreset()
{
    const int index = m_messagePreset->findData(m_messageSize->value());
    m_messagePreset->setCurrentIndex(index >= 0 ? index : m_messagePreset->count() - 1);
}

QList<int> PlanEditorPanel::customFrames(QStringList *errors) const
{
    QList<int> frames;
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    for (const QString &part : m_customFrames->text().split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const int frame = part.toInt(&ok);
        if (!ok || !Frame::inRange(frame)) {
            if (errors)
                *errors << tr("Custom frame size \"%1\" is not a number of bytes in %2.").arg(part, Frame::rangeText());
            continue;
        }
        if (!frames.contains(frame))
            frames << frame;
    }
    return frames;
}

TestPlan PlanEditorPanel::plan() const
{
    TestPlan plan;
    plan.protocols.clear();
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        if (m_protocols.value(info.id)->isChecked())
            plan.protocols << info.id;
    }
    plan.frameSizes.clear();
    if (m_frame1500->isChecked())
        plan.frameSizes << 1500;
    if (m_frame9000->isChecked())
        plan.frameSizes << 9000;
    for (int frame : customFrames(nullptr)) {
        if (!plan.frameSizes.contains(frame))
            plan.frameSizes << frame;
    }
    plan.repetitions = m_repetitions->value();
    plan.params.durationMs = int(std::lround(m_duration->value() * 1000));
    plan.params.streams = m_streams->value();
    plan.params.messageSize = m_messageSize->value();
    const int mode = m_bufferMode->currentIndex();
    plan.params.sendBufferBytes = mode == 0 ? 0 : m_bufferSize->value() * 1024;
    plan.params.recvBufferBytes = mode == 0 ? 0 : (mode == 1 ? m_bufferSize : m_recvBufferSize)->value() * 1024;
    plan.params.sampleIntervalMs = m_sampleInterval->value();
    plan.params.fileSizeBytes = qint64(m_fileSize->value()) * 1024 * 1024;
    plan.params.options = m_transferForm->values();
    if (m_zeroCopy->isChecked())
        plan.params.options.insert(QLatin1String(TcpSettings::ZeroCopyKey), true);
    if (m_latencyIdle->value() != LatencyRecorder::kDefaultIdleMs) // the default stays out of the plan file
        plan.params.options.insert(LatencyRecorder::idleOption(), m_latencyIdle->value());
    m_repeatOptions->apply(&plan);
    plan.referenceStreams = m_reference->isChecked();
    plan.referenceMs = m_reference->durationMs();
    plan.referenceSkipped = m_reference->skipped();
    return plan;
}

QStringList PlanEditorPanel::problems() const
{
    QStringList problems;
    customFrames(&problems);
    TestPlan p = plan();
    Host placeholder;
    placeholder.embedded = true;
    p.hosts = {placeholder}; // hosts are the host list's business
    problems << p.validate();
    if (anyTransferChecked()) {
        const TransferSettings t = TransferSettings::fromParams(p.params);
        if ((t.fileSource || t.fileSink) && t.localPath.trimmed().isEmpty())
            problems << tr("File source or sink chosen: enter the local file's path, or choose memory.");
    }
    return problems;
}

void PlanEditorPanel::setPlan(const TestPlan &plan)
{
    m_loading = true;
    for (auto it = m_protocols.cbegin(); it != m_protocols.cend(); ++it)
        it.value()->setChecked(plan.protocols.contains(it.key()));
    m_frame1500->setChecked(plan.frameSizes.contains(1500));
    m_frame9000->setChecked(plan.frameSizes.contains(9000));
    QStringList custom;
    for (int frame : plan.frameSizes) {
        if (frame != 1500 && frame != 9000)
            custom << QString::number(frame);
    }
    m_customFrames->setText(custom.join(QStringLiteral(", ")));
    m_repetitions->setValue(plan.repetitions);
    m_duration->setValue(plan.params.durationMs / 1000.0);
    m_streams->setValue(std::clamp(plan.params.streams, 1, Streams::kMax));
    m_messageSize->setValue(plan.params.messageSize);
    syncMessagePreset();
    const int send = plan.params.sendBufferBytes;
    const int recv = plan.params.recvBufferBytes;
    m_bufferMode->setCurrentIndex(send <= 0 && recv <= 0 ? 0 : (send == recv ? 1 : 2));
    if (send > 0 || recv > 0) {
        m_bufferSize->setValue(std::max(4, (send > 0 ? send : recv) / 1024));
        m_recvBufferSize->setValue(std::max(4, (recv > 0 ? recv : send) / 1024));
    }
    m_sampleInterval->setValue(plan.params.sampleIntervalMs);
    m_fileSize->setValue(int(std::clamp<qint64>(plan.params.fileSizeBytes / (1024 * 1024), 1, 1024 * 1024)));
    m_transferForm->setValues(plan.params.options);
    m_zeroCopy->setChecked(TcpSettings::fromParams(plan.params).zeroCopy);
    bool idleOk = false;
    const int idleMs = plan.params.options.value(LatencyRecorder::idleOption()).toInt(&idleOk);
    m_latencyIdle->setValue(idleOk ? std::clamp(idleMs, 0, 60000) : LatencyRecorder::kDefaultIdleMs);
    m_repeatOptions->load(plan);
    m_reference->setChecked(plan.referenceStreams);
    m_reference->setDurationMs(plan.referenceMs);
    m_loading = false;
    onChanged();
}

bool PlanEditorPanel::anyTransferChecked() const
{
    for (const ProtocolInfo &info : DriverRegistry::protocols()) {
        if (!info.timed && m_protocols.value(info.id)->isChecked())
            return true;
    }
    return false;
}

void PlanEditorPanel::setHosts(const QList<Host> &hosts)
{
    m_reference->setHosts(hosts);
}

void PlanEditorPanel::applyShootoutPreset()
{
    TestPlan p = plan();
    p.protocols = ProtocolSets::shootout();
    p.frameSizes = {1500, 9000};
    p.repetitions = 5;
    p.referenceStreams = true;
    setPlan(p);
}

void PlanEditorPanel::applyNetperfPreset()
{
    TestPlan p = plan();
    p.protocols = ProtocolSets::netperf();
    p.params.messageSize = kNetperfMessageSize;
    p.params.sendBufferBytes = 32 * 1024;
    p.params.recvBufferBytes = 64 * 1024;
    p.params.durationMs = 10000;
    setPlan(p);
}

void PlanEditorPanel::onChanged()
{
    const int bufferMode = m_bufferMode->currentIndex();
    m_bufferSize->setEnabled(bufferMode != 0);
    m_recvBufferSize->setEnabled(bufferMode == 2);
    m_recvBufferSize->setVisible(bufferMode == 2);
    m_transferBox->setVisible(anyTransferChecked());
    m_repeatOptions->setMaxRepetitions(m_repetitions->value());
    if (QWidget *path = m_transferForm->editor(QLatin1String(TransferSettings::LocalPathKey))) {
        const QVariantMap o = m_transferForm->values();
        path->setEnabled(o.value(QLatin1String(TransferSettings::SourceKey)).toString() == QLatin1String("file")
                         || o.value(QLatin1String(TransferSettings::SinkKey)).toString() == QLatin1String("file"));
    }
    if (m_loading)
        return;
    const TestPlan p = plan();
    int timed = 0;
    int transfers = 0;
    int timedLeadMs = 0; // the latency probe's idle lead before each timed run that has a far host (LatencyRecorder)
    int leadEachMs = 0;
    for (const QString &id : p.protocols) {
        const ProtocolInfo *info = DriverRegistry::find(id);
        (info && !info->timed ? transfers : timed) += int(p.frameSizes.size());
        if (!info || info->timed) {
            timedLeadMs += LatencyRecorder::idleMsOf(p.params, id) * int(p.frameSizes.size());
            leadEachMs = qMax(leadEachMs, LatencyRecorder::idleMsOf(p.params, id));
        }
    }
    const double seconds
        = (double(timed) * (p.params.durationMs + p.params.warmupMs) + timedLeadMs) * p.repetitions / 1000.0;
    QString summary = p.params.stableTargetPercent > 0
        ? tr("%1 test(s) x %2 to %3 repetition(s) per host")
              .arg(timed + transfers)
              .arg(p.params.minRepetitions)
              .arg(p.repetitions)
        : tr("%1 test(s) x %2 repetition(s) per host").arg(timed + transfers).arg(p.repetitions);
    if (timed > 0)
        summary += (leadEachMs > 0 ? tr("; timed tests: at most about %1 s per host (warm-up and %2 s of idle round "
                                        "trips before each run included), message %3")
                                         .arg(seconds, 0, 'f', 0)
                                         .arg(leadEachMs / 1000.0)
                                   : tr("; timed tests: at most about %1 s per host (warm-up included), message %2")
                                         .arg(seconds, 0, 'f', 0))
                       .arg(Units::formatBytes(p.params.messageSize));
    if (timed > 0 && p.params.streams > 1)
        summary += tr(", %1 each").arg(Streams::label(p.params.streams));
    if (transfers > 0)
        summary += tr("; file transfers: %1 x %2 per host")
                       .arg(transfers * p.repetitions)
                       .arg(Units::formatBytes(p.params.fileSizeBytes));
    if (const qsizetype reference = p.referenceProtocols().size() * p.frameSizes.size(); reference > 0)
        summary += tr("; and %1 reference stream(s) of %2 s per host that answers")
                       .arg(reference)
                       .arg(QString::number(p.referenceMs / 1000.0, 'g', 3));
    m_summary->setText(summary + QLatin1Char('.'));
    const QStringList list = problems();
    m_problems->setText(list.join(QLatin1Char('\n')));
    m_problems->setVisible(!list.isEmpty());
    if (m_config)
        m_config->setLastPlan(p);
    emit planChanged();
}

} // namespace wb
