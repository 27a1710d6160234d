#include "WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QWheelEvent>

namespace wb {

namespace {

QAbstractScrollArea *scrollAreaOf(const QWidget *w)
{
    for (QWidget *p = w->parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p))
            return area;
    return nullptr;
}

} // namespace

WheelGuard::WheelGuard(QObject *parent)
    : QObject(parent)
{
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Show)
        return false;
    auto *box = qobject_cast<QWidget *>(watched);
    if (!box || !(qobject_cast<QAbstractSpinBox *>(box) || qobject_cast<QComboBox *>(box)))
        return false;
    QAbstractScrollArea *area = scrollAreaOf(box);
    if (!area)
        return false;
    if (type == QEvent::Show) {
        // Before its first wheel event: QApplication gives a Qt::WheelFocus widget the focus before filtering it.
        if (box->focusPolicy() == Qt::WheelFocus)
            box->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (box->hasFocus())
        return false;
    // The scroll area's viewport scrolls; the original is accepted so that QApplication does not also hand it to
    // the box's parents (it would reach the viewport twice).
    auto *wheel = static_cast<QWheelEvent *>(event);
    QWheelEvent copy(area->viewport()->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(),
                     wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(), wheel->modifiers(), wheel->phase(),
                     wheel->inverted(), wheel->source());
    QCoreApplication::sendEvent(area->viewport(), &copy);
    event->accept();
    return true;
}

} // namespace wb
