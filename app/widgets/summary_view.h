// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <QWidget>

#include <memory>

class QTextBrowser;

namespace railyard::app {

/// The plan at a glance: SUs, switches and links per tier, transceivers, bandwidth,
/// oversubscription, paths, worst single failures and the findings.
class SummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);

    void setPlan(std::shared_ptr<const core::Plan> plan);
    /// Shows why the spec could not be planned.
    void setErrors(const QStringList& errors);
    /// The rendered text (tests read it).
    QString text() const;

private:
    QTextBrowser* m_browser;
};

/// HTML of the summary (used by the view and by the PDF report).
QString summaryHtml(const core::Plan& plan);

} // namespace railyard::app
