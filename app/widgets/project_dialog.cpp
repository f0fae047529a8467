// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/project_dialog.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace railyard::app {

namespace {

    constexpr int kPlanRole = Qt::UserRole;
    constexpr int kRevisionRole = Qt::UserRole + 1;

    QString localTime(const QString& isoUtc)
    {
        const QDateTime t = QDateTime::fromString(isoUtc, Qt::ISODateWithMs);
        return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : isoUtc;
    }

} // namespace

ProjectDialog::ProjectDialog(ProjectController& controller, QWidget* parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("Plans and revisions"));
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({ tr("Plan / revision"), tr("Saved"), tr("Comment") });
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::ActionRole);
    m_open->setToolTip(tr("Open the selected revision (a plan: its latest revision)"));
    m_rename = buttons->addButton(tr("&Rename..."), QDialogButtonBox::ActionRole);
    m_delete = buttons->addButton(tr("&Delete..."), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_open, &QPushButton::clicked, this, &ProjectDialog::openSelected);
    connect(m_rename, &QPushButton::clicked, this, &ProjectDialog::renameSelected);
    connect(m_delete, &QPushButton::clicked, this, &ProjectDialog::deleteSelected);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &ProjectDialog::updateButtons);
    connect(m_tree, &QTreeWidget::itemActivated, this, &ProjectDialog::openSelected);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_caption);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);

    connect(&m_controller, &ProjectController::plansListed, this, &ProjectDialog::showPlans);
    connect(&m_controller, &ProjectController::revisionsListed, this, &ProjectDialog::showRevisions);
    connect(&m_controller, &ProjectController::planRenamed, this, &ProjectDialog::refresh);
    connect(&m_controller, &ProjectController::planDeleted, this, &ProjectDialog::refresh);
    connect(&m_controller, &ProjectController::saved, this, &ProjectDialog::refresh);
    connect(&m_controller, &ProjectController::opened, this, &ProjectDialog::refresh);
    resize(640, 420);
    updateButtons();
    refresh();
}

void ProjectDialog::refresh()
{
    const QString path = m_controller.projectPath();
    m_caption->setText(path.isEmpty() ? tr("No project is open. Save the project to keep plans in it.")
                                      : tr("Project %1").arg(QFileInfo(path).fileName()));
    m_caption->setToolTip(path);
    m_controller.listPlans();
}

void ProjectDialog::showPlans(const QList<ProjectPlanInfo>& plans)
{
    const QString selected = selectedPlan();
    m_tree->clear();
    for (const auto& plan : plans) {
        auto* item = new QTreeWidgetItem(m_tree);
        item->setText(0, plan.name);
        item->setText(1, localTime(plan.updatedAt));
        item->setText(2, tr("%n revision(s)", nullptr, plan.revisionCount));
        item->setData(0, kPlanRole, plan.name);
        item->setData(0, kRevisionRole, 0);
        if (plan.name == m_controller.planName()) {
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
        }
        if (plan.name == selected)
            m_tree->setCurrentItem(item);
        m_controller.listRevisions(plan.name);
    }
    updateButtons();
}

void ProjectDialog::showRevisions(const QString& planName, const QList<ProjectRevisionInfo>& revisions)
{
    QTreeWidgetItem* parent = planItem(planName);
    if (!parent)
        return;
    qDeleteAll(parent->takeChildren());
    // Newest first, as people look for recent work.
    for (auto it = revisions.crbegin(); it != revisions.crend(); ++it) {
        auto* item = new QTreeWidgetItem(parent);
        //: A revision of a plan in the "Plans and revisions" list
        item->setText(0, tr("Revision %1").arg(it->revision));
        item->setText(1, localTime(it->savedAt));
        item->setText(2, it->comment);
        item->setData(0, kPlanRole, planName);
        item->setData(0, kRevisionRole, it->revision);
    }
}

QTreeWidgetItem* ProjectDialog::planItem(const QString& planName) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->data(0, kPlanRole).toString() == planName)
            return m_tree->topLevelItem(i);
    }
    return nullptr;
}

QString ProjectDialog::selectedPlan() const
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item ? item->data(0, kPlanRole).toString() : QString();
}

int ProjectDialog::selectedRevision() const
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item ? item->data(0, kRevisionRole).toInt() : 0;
}

void ProjectDialog::updateButtons()
{
    const bool any = !selectedPlan().isEmpty();
    m_open->setEnabled(any);
    m_rename->setEnabled(any);
    m_delete->setEnabled(any);
}

void ProjectDialog::openSelected()
{
    const QString plan = selectedPlan();
    if (plan.isEmpty())
        return;
    emit openRequested(plan, selectedRevision());
    accept();
}

void ProjectDialog::renameSelected()
{
    const QString plan = selectedPlan();
    if (plan.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename plan"), tr("New name for plan \"%1\":").arg(plan),
        QLineEdit::Normal, plan, &ok)
                             .trimmed();
    if (ok && !name.isEmpty() && name != plan)
        m_controller.renamePlan(plan, name);
}

void ProjectDialog::deleteSelected()
{
    const QString plan = selectedPlan();
    if (plan.isEmpty())
        return;
    const auto answer = QMessageBox::question(this, tr("Delete plan"),
        tr("Delete plan \"%1\" and all its revisions from the project? This cannot be undone.").arg(plan),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        m_controller.deletePlan(plan);
}

} // namespace railyard::app
