#include "TableCell.h"

#include <QTableWidget>

namespace wb {

QTableWidgetItem *TableCell::put(QTableWidget *table, int row, int column, const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
    return item;
}

} // namespace wb
