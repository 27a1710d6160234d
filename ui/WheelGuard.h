#pragma once

#include <QObject>

namespace wb {

/// Scrolling the plan editor with the mouse wheel must not change the duration, the repetitions or the message
/// size it happens to pass over. Installed on the application, this filter passes a wheel event over a spin box or a
/// combo box that has no keyboard focus, inside a scroll area, on to the scroll area; a click (or Tab) gives the
/// box the focus, and then the wheel sets its value as usual. Those boxes take focus by click or Tab only, not by
/// the wheel (Qt::StrongFocus).
class WheelGuard : public QObject
{
    Q_OBJECT
public:
    explicit WheelGuard(QObject *parent = nullptr);

    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace wb
