#pragma once

#include "model/Host.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace wb {

/// Adds or edits one host: name, address, port, OS label and server type. Secrets are not asked here.
class HostDialog : public QDialog
{
    Q_OBJECT
public:
    explicit HostDialog(const Host &host, QWidget *parent = nullptr);

    Host host() const;
    /// Empty when the input is acceptable; otherwise one sentence.
    QString problem() const;

    void accept() override;

private:
    Host m_host;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_address = nullptr;
    QSpinBox *m_port = nullptr;
    QComboBox *m_os = nullptr;
    QComboBox *m_serverType = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace wb
