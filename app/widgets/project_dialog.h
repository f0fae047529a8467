// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "app/models/project_controller.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace railyard::app {

/// "Plans and revisions": the plans of the open project, each with its revisions.
/// Opens a revision (openRequested), renames and deletes plans through the controller.
class ProjectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProjectDialog(ProjectController& controller, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    /// Asks the controller for the plans again.
    void refresh();

signals:
    /// The user wants to open a revision (0: the plan's latest).
    void openRequested(const QString& planName, int revision);

private:
    void showPlans(const QList<ProjectPlanInfo>& plans);
    void showRevisions(const QString& planName, const QList<ProjectRevisionInfo>& revisions);
    void updateButtons();
    QTreeWidgetItem* planItem(const QString& planName) const;
    QString selectedPlan() const;
    int selectedRevision() const;
    void openSelected();
    void renameSelected();
    void deleteSelected();

    ProjectController& m_controller;
    QLabel* m_caption = nullptr;
    QTreeWidget* m_tree = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_rename = nullptr;
    QPushButton* m_delete = nullptr;
};

} // namespace railyard::app
