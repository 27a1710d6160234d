#pragma once

// Qt Gui (QTextDocument, QPdfWriter): so in wirebench_ui, not wirebench_core, which links Qt Core/Network/Sql only.

#include "formats/ReportGenerator.h"

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
