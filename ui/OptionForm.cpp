#include "OptionForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace wb {

OptionForm::OptionForm(const QList<OptionSpec> &options, QWidget *parent)
    : QWidget(parent)
    , m_options(options)
{
    m_form = new QFormLayout(this);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    using T = OptionSpec::Type;
    for (const OptionSpec &option : m_options) {
        QWidget *editor = nullptr;
        switch (option.type) {
        case T::Text:
        case T::Secret: {
            auto *edit = new QLineEdit(this);
            if (option.type == T::Secret) {
                edit->setEchoMode(QLineEdit::Password);
                edit->setPlaceholderText(tr("not set"));
            } else if (!option.defaultValue.toString().isEmpty()) {
                edit->setPlaceholderText(option.defaultValue.toString());
            }
            connect(edit, &QLineEdit::textChanged, this, &OptionForm::changed);
            editor = edit;
            break;
        }
        case T::Integer: {
            auto *spin = new QSpinBox(this);
            spin->setRange(0, std::numeric_limits<int>::max());
            spin->setGroupSeparatorShown(true);
            connect(spin, &QSpinBox::valueChanged, this, &OptionForm::changed);
            editor = spin;
            break;
        }
        case T::Bool: {
            auto *check = new QCheckBox(option.label, this);
            connect(check, &QCheckBox::toggled, this, &OptionForm::changed);
            editor = check;
            break;
        }
        case T::Choice: {
            auto *combo = new QComboBox(this);
            combo->addItems(option.choices);
            connect(combo, &QComboBox::currentIndexChanged, this, &OptionForm::changed);
            editor = combo;
            break;
        }
        }
        editor->setObjectName(QStringLiteral("option_") + option.key);
        editor->setToolTip(option.toolTip);
        m_editors.insert(option.key, editor);
        if (option.type == T::Bool)
            m_form->addRow(QString(), editor);
        else
            m_form->addRow(option.label + QLatin1Char(':'), editor);
    }
    connect(this, &OptionForm::changed, this, &OptionForm::updateEnabled);
    setValues({});
}

void OptionForm::updateEnabled()
{
    QMap<QString, bool> enabled;
    // The drivers declare them (ProtocolInfo::optionDependencies).
    static const QList<OptionDependency> dependencies = DriverRegistry::optionDependencies();
    for (const OptionDependency &d : dependencies) {
        const QString &key = d.key;
        const QString &controller = d.controller;
        const auto option = std::find_if(m_options.cbegin(), m_options.cend(),
                                         [&](const OptionSpec &o) { return o.key == controller; });
        if (!m_editors.contains(key) || option == m_options.cend())
            continue;
        const QVariant value = valueOf(*option);
        const bool met = d.value.typeId() == QMetaType::Bool ? value.toBool() == d.value.toBool()
                                                             : value.toString() == d.value.toString();
        // A greyed-out controller counts as unmet (the list names a controller's own conditions before it).
        enabled[key] = enabled.value(key, true) && met && enabled.value(controller, true);
    }
    for (auto it = enabled.cbegin(); it != enabled.cend(); ++it) {
        QWidget *editor = m_editors.value(it.key());
        editor->setEnabled(it.value());
        if (QWidget *label = m_form->labelForField(editor))
            label->setEnabled(it.value());
    }
}

void OptionForm::setValues(const QVariantMap &values)
{
    const QSignalBlocker blocker(this);
    using T = OptionSpec::Type;
    for (const OptionSpec &option : m_options) {
        QWidget *editor = m_editors.value(option.key);
        const QVariant value = values.value(option.key, option.defaultValue);
        switch (option.type) {
        case T::Text:
            static_cast<QLineEdit *>(editor)->setText(value.toString());
            break;
        case T::Secret:
            break; // secrets come through setSecret() only
        case T::Integer:
            static_cast<QSpinBox *>(editor)->setValue(
                int(std::clamp<qint64>(value.toLongLong(), 0, std::numeric_limits<int>::max())));
            break;
        case T::Bool:
            static_cast<QCheckBox *>(editor)->setChecked(value.toBool());
            break;
        case T::Choice: {
            auto *combo = static_cast<QComboBox *>(editor);
            const int index = combo->findText(value.toString());
            combo->setCurrentIndex(index >= 0 ? index : 0);
            break;
        }
        }
    }
    updateEnabled(); // the blocker above kept changed() quiet
}

QVariant OptionForm::valueOf(const OptionSpec &option) const
{
    QWidget *editor = m_editors.value(option.key);
    using T = OptionSpec::Type;
    switch (option.type) {
    case T::Text:
        return static_cast<QLineEdit *>(editor)->text().trimmed();
    case T::Secret:
        return {};
    case T::Integer:
        return static_cast<QSpinBox *>(editor)->value();
    case T::Bool:
        return static_cast<QCheckBox *>(editor)->isChecked();
    case T::Choice:
        return static_cast<QComboBox *>(editor)->currentText();
    }
    return {};
}

QVariantMap OptionForm::values() const
{
    QVariantMap out;
    for (const OptionSpec &option : m_options) {
        if (option.type == OptionSpec::Type::Secret)
            continue;
        const QVariant value = valueOf(option);
        if (option.type == OptionSpec::Type::Text && value.toString().isEmpty())
            continue; // empty text: the driver's default
        const bool isDefault = option.type == OptionSpec::Type::Integer
            ? value.toLongLong() == option.defaultValue.toLongLong()
            : option.type == OptionSpec::Type::Bool ? value.toBool() == option.defaultValue.toBool()
                                                    : value.toString() == option.defaultValue.toString();
        if (!isDefault)
            out.insert(option.key, value);
    }
    return out;
}

QMap<QString, QString> OptionForm::secrets() const
{
    QMap<QString, QString> out;
    for (const OptionSpec &option : m_options) {
        if (option.type == OptionSpec::Type::Secret)
            out.insert(option.key, static_cast<QLineEdit *>(m_editors.value(option.key))->text());
    }
    return out;
}

void OptionForm::setSecret(const QString &key, const QString &text)
{
    for (const OptionSpec &option : m_options) {
        if (option.key == key && option.type == OptionSpec::Type::Secret) {
            const QSignalBlocker blocker(this);
            static_cast<QLineEdit *>(m_editors.value(key))->setText(text);
        }
    }
}

} // namespace wb
