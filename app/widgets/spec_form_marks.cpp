// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Field paths, marks on invalid fields, and moving the focus to a field.
#include "app/widgets/spec_form.h"

#include "app/models/plan_controller.h"

#include <QComboBox>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace railyard::app {

namespace {

    QString qs(std::string_view s)
    {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }

    void appendReason(QHash<QString, QString>& problems, const QString& path, const QString& reason)
    {
        QString& text = problems[path];
        text = text.isEmpty() ? reason : text + QLatin1Char('\n') + reason;
    }

} // namespace

const SpecForm::Field* SpecForm::findField(const QString& specField) const
{
    QString path = specField.trimmed();
    if (const auto bracket = path.indexOf(QLatin1Char('[')); bracket > 0)
        path.truncate(bracket); // "lossless.pfc_priority[1]", "node_names[4]"
    if (path == QStringLiteral("gpus"))
        path = QStringLiteral("nodes");
    else if (path == QStringLiteral("grow_to"))
        path = QStringLiteral("grow_to.nodes");
    else if (path == QStringLiteral("oversubscription"))
        path = QStringLiteral("oversubscription.leaf");
    else if (path == QStringLiteral("lossless"))
        path = QStringLiteral("lossless.mode");
    else if (path == QStringLiteral("racks"))
        path = QStringLiteral("racks.nodes_per_rack");
    else if (path == QStringLiteral("link"))
        path = m_shownFabric == core::Fabric::InfiniBand ? QStringLiteral("link.generation") : QStringLiteral("link.speed_gbps");
    for (const Field& f : m_fields) {
        if (f.path == path)
            return &f;
    }
    return nullptr;
}

QWidget* SpecForm::fieldWidget(const QString& specField) const
{
    const Field* f = findField(specField);
    return f ? f->editor : nullptr;
}

QString SpecForm::fieldProblem(const QString& specField) const
{
    const Field* f = findField(specField);
    if (!f)
        return {};
    for (const auto* problems : { &m_localProblems, &m_inputProblems, &m_findingProblems }) {
        if (const auto it = problems->find(f->path); it != problems->end())
            return *it;
    }
    return {};
}

bool SpecForm::splitProblem(const QString& line, QString& path, QString& reason) const
{
    // "nodes: must be ...", "form: grow_to.nodes: must be ...", "h100.plan.json: leaf_switch: unknown switch".
    const QString separator = QStringLiteral(": ");
    qsizetype start = 0;
    while (start < line.size()) {
        const qsizetype end = line.indexOf(separator, start);
        if (end < 0)
            return false;
        if (const Field* f = findField(line.mid(start, end - start))) {
            path = f->path;
            reason = line.mid(end + separator.size());
            return true;
        }
        start = end + separator.size();
    }
    return false;
}

void SpecForm::planFailed(const QStringList& errors)
{
    m_inputProblems.clear();
    m_findingProblems.clear();
    m_unplacedProblems.clear();
    for (const QString& line : errors) {
        QString path, reason;
        if (splitProblem(line, path, reason))
            appendReason(m_inputProblems, path, reason);
        else
            m_unplacedProblems << line;
    }
    refreshMarks();
}

void SpecForm::planReady(const std::shared_ptr<const core::Plan>& plan)
{
    m_inputProblems.clear();
    m_findingProblems.clear();
    m_unplacedProblems.clear();
    for (const auto& finding : plan->findings) {
        if (finding.severity != core::Severity::Error)
            continue;
        if (const Field* f = findField(qs(finding.where)))
            appendReason(m_findingProblems, f->path, qs(finding.message));
    }
    // Say what "derived" and "default" came to.
    if (plan->summary.suSize > 0)
        m_suSize->setSpecialValueText(tr("derived (%1)").arg(plan->summary.suSize));
    if (plan->spec.fabric == m_shownFabric && m_leafSwitch->itemData(0).toString().isEmpty())
        m_leafSwitch->setItemText(0, tr("default (%1)").arg(qs(plan->spec.leafSwitch)));
    refreshMarks();
}

void SpecForm::refreshMarks()
{
    bool racksNeedLook = false;
    for (const Field& f : m_fields) {
        const QString local = m_localProblems.value(f.path);
        const QString input = m_inputProblems.value(f.path);
        const QString finding = m_findingProblems.value(f.path);
        if (!local.isEmpty() || !input.isEmpty()) {
            setMark(f, Mark::Error, local.isEmpty() ? input : local);
            racksNeedLook = racksNeedLook || f.path.startsWith(QStringLiteral("racks."));
        } else {
            setMark(f, finding.isEmpty() ? Mark::None : Mark::Finding, finding);
        }
    }
    if (racksNeedLook)
        setRacksExpanded(true);
    QStringList lines = m_unplacedProblems;
    if (m_localProblems.contains(QString()))
        lines << m_localProblems.value(QString());
    if (!m_localProblems.isEmpty())
        lines << tr("Fix the marked fields to plan again; the plan shown is for the last valid spec.");
    else if (!m_inputProblems.isEmpty())
        lines << tr("The spec cannot be planned; the marked fields say why.");
    m_errors->setText(lines.join(QLatin1Char('\n')));
    m_errors->setVisible(!lines.isEmpty());
}

void SpecForm::setMark(const Field& field, Mark mark, const QString& reason)
{
    const QString value = mark == Mark::Error ? QStringLiteral("error") : mark == Mark::Finding ? QStringLiteral("finding") : QString();
    QWidget* target = field.editor;
    if (target->property("specMark").toString() != value) {
        target->setProperty("specMark", value);
        // A dynamic property takes effect in the style sheet only after a re-polish.
        target->style()->unpolish(target);
        target->style()->polish(target);
        target->update();
    }
    field.reason->setText(reason);
    field.reason->setVisible(mark == Mark::Error);
    const QString tip = mark == Mark::None ? field.tip : reason + QStringLiteral("\n\n") + field.tip;
    target->setToolTip(tip);
    field.label->setToolTip(tip);
}

void SpecForm::setRacksExpanded(bool expanded)
{
    const QSignalBlocker blocker(m_racksToggle);
    m_racksToggle->setChecked(expanded);
    m_racksToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_racksToggle->setText(expanded ? tr("Hide") : tr("Show"));
    m_racksBody->setVisible(expanded);
}

void SpecForm::focusField(const QString& specField)
{
    const Field* f = findField(specField);
    if (!f)
        return;
    if (f->path.startsWith(QStringLiteral("racks.")))
        setRacksExpanded(true);
    for (QWidget* p = parentWidget(); p; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(p)) {
            area->ensureWidgetVisible(f->editor);
            // A section that has just opened is laid out on the next turn of the event loop.
            QPointer<QWidget> editor = f->editor;
            QTimer::singleShot(0, area, [area, editor] {
                if (editor)
                    area->ensureWidgetVisible(editor);
            });
            break;
        }
    }
    f->editor->setFocus(Qt::OtherFocusReason);
}

} // namespace railyard::app
