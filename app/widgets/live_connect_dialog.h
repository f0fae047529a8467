// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's connect dialogs beyond the demo and agents.json: a hostfile (one host per
// line, each agent at one port, 9473 unless changed; a token file optional) and a Prometheus
// server (its URL, railyard_* or the node exporter's series, extra label matchers, a token file).
// They only collect the fields; LiveSession::connectHostfile / connectPrometheus do the work.
#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace railyard::app {

class LiveConnectDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Hostfile, Prometheus };
    explicit LiveConnectDialog(Kind kind, QWidget* parent = nullptr);

    Kind kind() const { return m_kind; }
    /// Hostfile: the file; Prometheus: the server's URL.
    QString target() const;
    int port() const;          ///< hostfile: the agents' port
    bool nodeExporter() const; ///< Prometheus: node_infiniband_* rather than railyard_*
    QString selector() const;  ///< Prometheus: extra label matchers
    QString tokenFile() const;

    QLineEdit* targetEdit() const { return m_target; }
    QSpinBox* portBox() const { return m_port; }
    QComboBox* metricsBox() const { return m_metrics; }

private:
    Kind m_kind;
    QLineEdit* m_target = nullptr;
    QSpinBox* m_port = nullptr;
    QComboBox* m_metrics = nullptr;
    QLineEdit* m_selector = nullptr;
    QLineEdit* m_token = nullptr;
};

} // namespace railyard::app
