// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_connect_dialog.h"

#include "live/client/hostfile.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace railyard::app {

namespace {

    /// A line edit with a "Browse..." button that fills it from a file dialog.
    QWidget* withBrowse(QLineEdit* edit, const QString& title, const QString& filter, QWidget* parent)
    {
        auto* row = new QWidget(parent);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(edit, 1);
        auto* browse = new QPushButton(LiveConnectDialog::tr("Browse..."), row);
        QObject::connect(browse, &QPushButton::clicked, row, [edit, title, filter, row] {
            const QString path = QFileDialog::getOpenFileName(row, title, edit->text(), filter);
            if (!path.isEmpty())
                edit->setText(path);
        });
        layout->addWidget(browse);
        return row;
    }

} // namespace

LiveConnectDialog::LiveConnectDialog(Kind kind, QWidget* parent)
    : QDialog(parent)
    , m_kind(kind)
{
    auto* form = new QFormLayout();
    m_target = new QLineEdit(this);
    m_token = new QLineEdit(this);
    m_token->setPlaceholderText(tr("optional"));
    if (kind == Kind::Hostfile) {
        setWindowTitle(tr("Connect to the agents of a hostfile"));
        m_target->setPlaceholderText(tr("one host per line: node001, or node001 slots=8"));
        form->addRow(tr("&Hostfile:"), withBrowse(m_target, tr("Hostfile"), tr("All files (*)"), this));
        m_port = new QSpinBox(this);
        m_port->setRange(1, 65535);
        m_port->setValue(live::kDefaultAgentPort);
        m_port->setToolTip(tr("The port every railyard-agent listens on (its --listen; 9473 by default)"));
        form->addRow(tr("Agent &port:"), m_port);
    } else {
        setWindowTitle(tr("Read the fabric from Prometheus"));
        m_target->setPlaceholderText(QStringLiteral("http://prometheus:9090"));
        form->addRow(tr("Server &URL:"), m_target);
        m_metrics = new QComboBox(this);
        m_metrics->addItems({ tr("railyard (the agents' railyard_* series)"), tr("node-exporter (node_infiniband_*: no ECN, PFC)") });
        form->addRow(tr("&Metrics:"), m_metrics);
        m_selector = new QLineEdit(this);
        m_selector->setPlaceholderText(QStringLiteral("job=\"railyard\""));
        form->addRow(tr("&Selector:"), m_selector);
    }
    form->addRow(tr("&Token file:"), withBrowse(m_token, tr("Token file"), tr("All files (*)"), this));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(m_target, &QLineEdit::textChanged, this, [buttons](const QString& t) { buttons->button(QDialogButtonBox::Ok)->setEnabled(!t.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
}

QString LiveConnectDialog::target() const
{
    return m_target->text().trimmed();
}

int LiveConnectDialog::port() const
{
    return m_port ? m_port->value() : live::kDefaultAgentPort;
}

bool LiveConnectDialog::nodeExporter() const
{
    return m_metrics && m_metrics->currentIndex() == 1;
}

QString LiveConnectDialog::selector() const
{
    return m_selector ? m_selector->text().trimmed() : QString();
}

QString LiveConnectDialog::tokenFile() const
{
    return m_token->text().trimmed();
}

} // namespace railyard::app
