#include "FindingsPanel.h"

#include "analysis/StoredStreams.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace wb {

FindingsPanel::FindingsPanel(QWidget *parent)
    : QWidget(parent)
{
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("findingsLabel"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->setMargin(6);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_label);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    refresh();
}

QString FindingsPanel::text() const
{
    QStringList lines;
    for (const Finding &f : m_findings)
        lines << f.sentence;
    return lines.isEmpty() ? m_label->text() : lines.join(QLatin1Char('\n'));
}

void FindingsPanel::clearResults()
{
    m_results.clear();
    refresh();
}

void FindingsPanel::addResult(const RunResult &result)
{
    m_results << result;
    refresh();
}

void FindingsPanel::setResults(const RunResultList &results)
{
    m_results = results;
    refresh();
}

void FindingsPanel::setComparedRuns(bool compared)
{
    m_compared = compared;
    refresh();
}

void FindingsPanel::setStore(const ResultStore *store)
{
    m_store = store;
    refresh();
}

void FindingsPanel::refresh()
{
    m_findings = m_compared ? SessionFindings::of(m_results, tr("among the compared runs"))
                            : SessionFindings::of(m_results, StoredStreams::before(m_store, m_results));
    if (m_findings.isEmpty()) {
        m_label->setText(
            tr("<i>Findings appear when the runs include tests that can be compared: a file transfer and a "
               "TCP stream (tcp-send or tcp-recv) to the same host, one test at two frame sizes, or the "
               "same test on two hosts.</i>"));
        return;
    }
    QString html = (m_compared ? tr("<p>What the compared runs show together")
                               : tr("<p>What the tests of this session show together"))
        + tr(" (MB/s = 10<sup>6</sup> bytes/s; a difference is beyond the noise when the 95% confidence "
             "intervals do not overlap):</p><ul>");
    for (const Finding &f : m_findings)
        html += QStringLiteral("<li>%1</li>").arg(f.sentence.toHtmlEscaped());
    m_label->setText(html + QStringLiteral("</ul>"));
}

} // namespace wb
