#include "HostListPanel.h"

#include "CredentialStore.h"
#include "HostDialog.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QMap>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace wb {

HostListPanel::HostListPanel(Config *config, QWidget *parent, CredentialStore *credentials)
    : QWidget(parent)
    , m_config(config)
    , m_credentials(credentials ? credentials : new CredentialStore(CredentialStore::Mode::Auto, this))
{
    setObjectName(QStringLiteral("hostListPanel"));
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("hostTable"));
    m_table->setHorizontalHeaderLabels({tr("Host"), tr("Address"), tr("Port"), tr("OS"), tr("Server")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    // Free text of any length: sized by fitColumns, so that it cannot push the host names out of sight.
    m_table->horizontalHeader()->setSectionResizeMode(Os, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(ServerType, QHeaderView::Interactive);
    m_table->setWordWrap(false); // one line per host, elided at the right
    m_table->viewport()->installEventFilter(this);
    m_table->setToolTip(tr("Tick the hosts the next plan runs against; double-click to edit"));

    m_add = new QPushButton(tr("Add..."), this);
    m_add->setObjectName(QStringLiteral("addHostButton"));
    m_edit = new QPushButton(tr("Edit..."), this);
    m_edit->setObjectName(QStringLiteral("editHostButton"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeHostButton"));
    connect(m_add, &QPushButton::clicked, this, &HostListPanel::addWithDialog);
    connect(m_edit, &QPushButton::clicked, this, &HostListPanel::editWithDialog);
    connect(m_remove, &QPushButton::clicked, this, &HostListPanel::removeCurrent);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &HostListPanel::editWithDialog);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &HostListPanel::updateButtons);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_refreshing || item->column() != Name || item->row() >= m_entries.size())
            return;
        const bool checked = item->checkState() == Qt::Checked;
        if (m_entries[item->row()].selected != checked)
            setSelected(item->row(), checked);
    });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    if (m_config)
        m_entries = m_config->hosts();
    for (HostEntry &e : m_entries) {
        e.host = absorbSecrets(e.host);
        if (!e.host.embedded || !e.host.options.isEmpty())
            m_credentials->load(e.host.displayName());
    }
    refresh();
}

QList<Host> HostListPanel::selectedHostsWithSecrets() const
{
    QList<Host> hosts;
    for (const Host &h : selectedHosts())
        hosts << m_credentials->withSecrets(h);
    return hosts;
}

Host HostListPanel::absorbSecrets(const Host &host)
{
    for (const QString &key : CredentialStore::secretKeys()) {
        const QString value = host.options.value(key).toString();
        if (!value.isEmpty())
            m_credentials->setSecret(host.displayName(), key, value);
    }
    return CredentialStore::withoutSecrets(host);
}

void HostListPanel::storeSecrets(const QString &oldName, const Host &host, const QMap<QString, QString> &secrets)
{
    const QString name = host.displayName();
    if (!oldName.isEmpty() && oldName != name)
        m_credentials->renameHost(oldName, name);
    for (auto it = secrets.cbegin(); it != secrets.cend(); ++it)
        m_credentials->setSecret(name, it.key(), it.value());
}

QList<Host> HostListPanel::selectedHosts() const
{
    QList<Host> hosts;
    for (const HostEntry &e : m_entries) {
        if (e.selected)
            hosts << e.host;
    }
    return hosts;
}

void HostListPanel::setEntries(const QList<HostEntry> &entries)
{
    m_entries = entries;
    for (HostEntry &e : m_entries)
        e.host = absorbSecrets(e.host);
    save();
    refresh();
}

void HostListPanel::addHost(const Host &host)
{
    m_entries.append(HostEntry{absorbSecrets(host), true});
    save();
    refresh();
    m_table->selectRow(int(m_entries.size()) - 1);
}

void HostListPanel::replaceHost(int row, const Host &host)
{
    if (row < 0 || row >= m_entries.size())
        return;
    m_entries[row].host = absorbSecrets(host);
    save();
    refresh();
}

void HostListPanel::removeHost(int row)
{
    if (row < 0 || row >= m_entries.size() || m_entries.at(row).host.embedded)
        return;
    const QString name = m_entries.at(row).host.displayName();
    m_entries.removeAt(row);
    if (std::none_of(m_entries.cbegin(), m_entries.cend(),
                     [&](const HostEntry &e) { return e.host.displayName() == name; }))
        m_credentials->removeHost(name);
    save();
    refresh();
}

void HostListPanel::setSelected(int row, bool selected)
{
    if (row < 0 || row >= m_entries.size())
        return;
    m_entries[row].selected = selected;
    save();
    refresh();
}

QStringList HostListPanel::applyPlanHosts(const QList<Host> &hosts)
{
    QStringList added;
    for (HostEntry &e : m_entries)
        e.selected = false;
    for (const Host &host : hosts) {
        auto match = std::find_if(m_entries.begin(), m_entries.end(), [&](const HostEntry &e) {
            return host.embedded ? e.host.embedded : (!e.host.embedded && e.host.displayName() == host.displayName());
        });
        if (match != m_entries.end()) {
            if (!host.embedded) // the built-in host keeps its own address and port
                match->host = absorbSecrets(host);
            match->selected = true;
        } else if (!host.embedded) {
            m_entries.append(HostEntry{absorbSecrets(host), true});
            m_credentials->load(host.displayName()); // passwords kept under this name earlier, if any
            added << host.displayName();
        }
    }
    save();
    refresh();
    return added;
}

void HostListPanel::setEmbeddedState(quint16 port, const QString &error)
{
    m_embeddedPort = port;
    m_embeddedError = error;
    refresh();
}

void HostListPanel::addWithDialog()
{
    Host blank;
    blank.osLabel = QStringLiteral("Linux");
    HostDialog dialog(blank, this, m_credentials);
    if (dialog.exec() == QDialog::Accepted) {
        storeSecrets({}, dialog.host(), dialog.secrets());
        addHost(dialog.host());
    }
}

void HostListPanel::editWithDialog()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_entries.size())
        return;
    HostDialog dialog(m_entries.at(row).host, this, m_credentials);
    if (dialog.exec() == QDialog::Accepted) {
        storeSecrets(m_entries.at(row).host.displayName(), dialog.host(), dialog.secrets());
        replaceHost(row, dialog.host());
    }
}

void HostListPanel::removeCurrent()
{
    removeHost(m_table->currentRow());
}

void HostListPanel::save()
{
    if (m_config) {
        m_config->setHosts(m_entries);
        m_config->sync();
    }
    emit hostsChanged();
}

void HostListPanel::refresh()
{
    m_refreshing = true;
    const int current = m_table->currentRow();
    m_table->setRowCount(int(m_entries.size()));
    for (int row = 0; row < m_entries.size(); ++row) {
        const HostEntry &e = m_entries.at(row);
        const Host &h = e.host;
        auto set = [&](int column, const QString &text) {
            auto *item = new QTableWidgetItem(text);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            m_table->setItem(row, column, item);
            return item;
        };
        QTableWidgetItem *name = set(Name, h.displayName());
        name->setFlags(name->flags() | Qt::ItemIsUserCheckable);
        name->setCheckState(e.selected ? Qt::Checked : Qt::Unchecked);
        set(Address, h.address);
        QString port = h.port ? QString::number(h.port) : tr("%1 (default)").arg(control::kDefaultPort);
        QString serverType = h.serverType;
        if (h.embedded) {
            port = m_embeddedPort ? QString::number(m_embeddedPort) : tr("-");
            serverType = tr("built-in");
            if (!m_embeddedError.isEmpty()) {
                serverType = tr("not running: %1").arg(m_embeddedError);
                name->setForeground(QColor(190, 30, 30));
            }
        }
        set(Port, port);
        set(Os, h.osLabel)->setToolTip(h.osLabel);
        QTableWidgetItem *server = set(ServerType, serverType);
        server->setToolTip(serverType);
        if (h.embedded && !m_embeddedError.isEmpty())
            server->setForeground(QColor(190, 30, 30));
    }
    if (current >= 0 && current < m_entries.size())
        m_table->selectRow(current);
    m_refreshing = false;
    fitColumns();
    updateButtons();
}

bool HostListPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void HostListPanel::fitColumns()
{
    QHeaderView *header = m_table->horizontalHeader();
    const QAbstractItemView *view = m_table; // QTableView hides sizeHintForColumn
    const auto wanted
        = [&](int column) { return std::max(view->sizeHintForColumn(column), header->sectionSizeHint(column)); };
    // What is left beside the name (its whole text and check box), the address and the port is shared by the
    // OS label and the server column: each gets what it needs when both fit, else the shorter keeps its width
    // up to half and the other the rest, neither below its header.
    const int left = m_table->viewport()->width() - wanted(Name) - wanted(Address) - wanted(Port);
    const int os = wanted(Os), server = wanted(ServerType);
    int osWidth = os, serverWidth = server;
    if (os + server > left) {
        const int half = left / 2;
        if (os <= half)
            serverWidth = left - os;
        else if (server <= half)
            osWidth = left - server;
        else
            osWidth = serverWidth = half;
    }
    header->resizeSection(Os, std::max(osWidth, header->sectionSizeHint(Os)));
    header->resizeSection(ServerType, std::max(serverWidth, header->sectionSizeHint(ServerType)));
}

void HostListPanel::updateButtons()
{
    const int row = m_table->currentRow();
    const bool valid = row >= 0 && row < m_entries.size();
    m_edit->setEnabled(valid);
    const bool embedded = valid && m_entries.at(row).host.embedded;
    m_remove->setEnabled(valid && !embedded);
    m_remove->setToolTip(embedded ? tr("The loopback host is built in: untick it to leave it out of a plan")
                                  : tr("Remove the selected host"));
}

} // namespace wb
