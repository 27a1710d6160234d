#pragma once

#include "protocols/DriverRegistry.h"

#include <QMap>
#include <QVariantMap>
#include <QWidget>

class QFormLayout;

namespace wb {

/// A form built from OptionSpecs (a protocol's host options or the plan-wide transfer options): one editor per
/// option, named "option_<key>". Secret options are password fields whose text never enters values().
class OptionForm : public QWidget
{
    Q_OBJECT
public:
    explicit OptionForm(const QList<OptionSpec> &options, QWidget *parent = nullptr);

    /// Sets every editor from values (missing keys: the option's default).
    void setValues(const QVariantMap &values);
    /// The non-secret options whose value differs from the default.
    QVariantMap values() const;
    /// Secret option key -> text (empty when the field is empty).
    QMap<QString, QString> secrets() const;
    void setSecret(const QString &key, const QString &text);
    QWidget *editor(const QString &key) const { return m_editors.value(key); }
    const QList<OptionSpec> &options() const { return m_options; }
    QFormLayout *formLayout() const { return m_form; }

signals:
    void changed();

private:
    QVariant valueOf(const OptionSpec &option) const;
    /// Greys out options that only matter under another option's value (the FTPS trust under FTPS).
    void updateEnabled();

    QList<OptionSpec> m_options;
    QMap<QString, QWidget *> m_editors;
    QFormLayout *m_form = nullptr;
};

} // namespace wb
