#pragma once

#include "formats/ReportGenerator.h"

#include <QString>

namespace wb {

class ResultStore;

/// The session report in HTML and PDF: core's ReportGenerator for the text and tables, the charts drawn here
/// (the comparison chart and each test's live graphs, as PNG with a footnote) and ReportPdfWriter (beside it)
/// for the PDF. The GUI's "Report..." action and `wirebench-cli report` both call write().
/// Needs a QApplication (QT_QPA_PLATFORM=offscreen works without a display).
class ReportWriter
{
public:
    /// Writes the report of a stored session to htmlPath and/or pdfPath (an empty path is skipped; at least one
    /// is needed). On failure returns false with a one-line reason in *error.
    static bool write(const ResultStore &store, qint64 sessionId, const QString &htmlPath, const QString &pdfPath,
                      QString *error = nullptr);
    /// Same for an input the caller filled (charts are added when it has none).
    static bool write(ReportInput input, const QString &htmlPath, const QString &pdfPath, QString *error = nullptr);
    /// The comparison chart and up to `maxTests` live-graph charts of the runs.
    static QList<ReportChart> renderCharts(const RunResultList &runs, RateUnit unit, int maxTests = 8);
};

} // namespace wb
