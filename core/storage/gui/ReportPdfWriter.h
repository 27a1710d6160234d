#pragma once

// Qt Gui (QTextDocument, QPdfWriter): NOT part of wirebench_core, which may link Qt Core/Network/Sql only.
// Build it into wirebench_ui (or move it to ui/); tests/storage compiles it into TestReportPdf.

#include "storage/ReportGenerator.h"

#include <QString>

namespace wb {

/// The session report as a PDF: ReportGenerator's HTML laid out by QTextDocument on A4 landscape pages, the
/// caller's charts as images (scaled to the text width).
class ReportPdfWriter
{
public:
    /// On failure returns false with a one-line reason in *error.
    static bool write(const QString &path, const ReportInput &input, QString *error = nullptr);
};

} // namespace wb
