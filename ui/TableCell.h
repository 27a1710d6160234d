#pragma once

#include <QString>

class QTableWidget;
class QTableWidgetItem;

namespace wb {

/// One cell of the results, summary and link-check tables: its text, right-aligned when it is a number, so
/// that the digits of a column line up.
class TableCell
{
public:
    static QTableWidgetItem *put(QTableWidget *table, int row, int column, const QString &text, bool number = false);
};

} // namespace wb
