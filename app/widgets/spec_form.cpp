// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/spec_form.h"

#include "app/models/plan_controller.h"
#include "app/widgets/spec_edit_command.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QUndoStack>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace railyard::app {

namespace {

    QString qs(std::string_view s)
    {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }

    std::string text(const QComboBox* box)
    {
        return box->currentData().toString().toStdString();
    }

    /// Selects the item whose data is `value`; a value the list lacks is added (marked) so
    /// the form never shows something other than the spec.
    void selectData(QComboBox* box, const QVariant& value, const QString& missingText = {})
    {
        int i = box->findData(value);
        if (i < 0 && !missingText.isEmpty()) {
            box->addItem(missingText, value);
            i = box->count() - 1;
        }
        box->setCurrentIndex(i >= 0 ? i : 0);
    }

    std::optional<int> positive(const QSpinBox* box)
    {
        return box->value() > 0 ? std::optional<int>(box->value()) : std::nullopt;
    }

    /// "3" or "3, 4" -> {3, 4}; nullopt unless every item is a distinct priority 0..7.
    std::optional<std::vector<int>> parsePriorities(const QString& text)
    {
        std::vector<int> out;
        const auto parts = text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
        for (const QString& part : parts) {
            bool ok = false;
            const int p = part.toInt(&ok);
            if (!ok || p < 0 || p > 7 || std::find(out.begin(), out.end(), p) != out.end())
                return std::nullopt;
            out.push_back(p);
        }
        if (out.empty())
            return std::nullopt;
        return out;
    }

    QString joinPriorities(const std::vector<int>& list)
    {
        QStringList parts;
        for (int p : list)
            parts << QString::number(p);
        return parts.join(QStringLiteral(", "));
    }

} // namespace

SpecForm::SpecForm(PlanController& controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
{
    m_undo = new QUndoStack(this);
    m_undoAction = m_undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = m_undo->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    build();
    showSpec(m_controller.spec());
    connect(&m_controller, &PlanController::planFailed, this, &SpecForm::planFailed);
    connect(&m_controller, &PlanController::planReady, this, &SpecForm::planReady);
    connect(&m_controller, &PlanController::specChanged, this, &SpecForm::controllerSpecChanged);
}

SpecForm::~SpecForm() = default;

void SpecForm::showSpec(const core::PlanSpec& spec)
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_name->setText(qs(spec.name));
    m_name->setCursorPosition(0); // long names show their beginning
    selectData(m_fabric, qs(core::toString(spec.fabric)));
    selectData(m_nodeType, qs(spec.nodeType), tr("%1 (unknown)").arg(qs(spec.nodeType)));
    m_sizeMode->setCurrentIndex(spec.gpus ? 1 : 0);
    m_size->setValue(static_cast<int>(std::min<long long>(spec.gpus.value_or(spec.nodes), std::numeric_limits<int>::max())));
    m_gpusPerNode->setValue(spec.gpusPerNode.value_or(0));
    m_rails->setValue(spec.rails.value_or(0));
    fillNicChoices(spec.fabric, spec.nic);
    fillSwitchChoices(spec.fabric, spec);
    m_shownFabric = spec.fabric;
    syncChoices(spec);
    showLink(spec);
    m_suSize->setValue(spec.suSize.value_or(0));
    m_leafRatio->setCurrentText(qs(spec.leafOversubscription.toString()));
    m_spineRatio->setCurrentText(qs(spec.spineOversubscription.toString()));
    selectData(m_tiers, spec.tiers == core::TierMode::Auto ? 0 : spec.tiers == core::TierMode::Two ? 2 : 3);
    m_planes->setValue(spec.planes);
    m_reserved->setValue(spec.reservedLeafPorts);
    m_management->setValue(spec.managementPorts);
    m_growTo->setValue(spec.growToNodes.value_or(0));
    showExtras(spec);
    m_updating = wasUpdating;
    m_localProblems.clear();
    updateDerived();
    refreshMarks();
}

void SpecForm::showLink(const core::PlanSpec& spec)
{
    selectData(m_generation, qs(core::toString(spec.link.generation.value_or(core::IbGeneration::NDR))));
    selectData(m_width, spec.link.width, tr("%1x").arg(spec.link.width));
    selectData(m_speed, spec.link.speedGbps.value_or(400), tr("%1 GbE").arg(spec.link.speedGbps.value_or(400)));
    selectData(m_lanes, spec.link.lanes.value_or(0), tr("%1 lanes").arg(spec.link.lanes.value_or(0)));
    updateWidthLabels();
}

void SpecForm::showExtras(const core::PlanSpec& spec)
{
    if (spec.nodeNameList.empty()) {
        m_nodeNames->setText(qs(spec.nodeNamePattern));
        m_nodeNames->setPlaceholderText(QStringLiteral("node%03d"));
    } else {
        // A list from a spec file stays as it is until a pattern is typed.
        m_nodeNames->clear();
        m_nodeNames->setPlaceholderText(tr("%n name(s) listed in the spec", nullptr, static_cast<int>(spec.nodeNameList.size())));
    }
    const auto& r = spec.racks;
    m_nodesPerRack->setValue(r.nodesPerRack);
    selectData(m_leafPlacement, qs(r.leafPlacement));
    m_rackWidth->setValue(r.rackWidthM);
    m_inRack->setValue(r.inRackM);
    m_slack->setValue(r.slackM);
    m_suPitch->setValue(r.suPitchM);
    m_spineDistance->setValue(r.spineDistanceM);
    m_coreDistance->setValue(r.coreDistanceM);
    const auto& l = spec.lossless;
    selectData(m_losslessMode, qs(l.mode));
    m_pfcPriorities->setText(joinPriorities(l.pfcPriorities));
    m_ecn->setChecked(l.ecn);
    m_dcqcn->setChecked(l.dcqcn);
    selectData(m_trust, qs(l.trust));
    m_roceDscp->setValue(l.roceDscp);
    m_cnpDscp->setValue(l.cnpDscp);
    m_mtu->setValue(l.mtu);
    const auto& a = spec.addressing;
    m_routed->setChecked(spec.addressingGiven);
    selectData(m_addressScheme, qs(a.scheme), tr("%1 (unknown)").arg(qs(a.scheme)));
    m_fabricRange->setText(qs(a.fabric.toString()));
    m_loopbackRange->setText(qs(a.loopbacks.toString()));
    selectData(m_asnScheme, qs(a.asn.scheme), tr("%1 (unknown)").arg(qs(a.asn.scheme)));
    m_asnBase->setText(QString::number(a.asn.base));
    updateAddressingEnabled();
}

void SpecForm::fillSwitchChoices(core::Fabric fabric, const core::PlanSpec& spec)
{
    const auto& catalog = m_controller.catalog();
    const struct {
        QComboBox* box;
        QString defaultText;
        const std::string& selected;
    } lists[] = {
        { m_leafSwitch, tr("default for the speed"), spec.leafSwitch },
        { m_spineSwitch, tr("same as leaf"), spec.spineSwitch },
        { m_coreSwitch, tr("same as spine"), spec.coreSwitch },
    };
    for (const auto& list : lists) {
        list.box->clear();
        list.box->addItem(list.defaultText, QString());
        for (const auto& s : catalog.switches()) {
            if (s.fabric != fabric)
                continue;
            list.box->addItem(qs(s.name), qs(s.id));
            list.box->setItemData(list.box->count() - 1, qs(s.name), Qt::ToolTipRole);
        }
        const QString id = qs(list.selected);
        selectData(list.box, id, catalog.findSwitch(list.selected) ? tr("%1 (other fabric)").arg(id) : tr("%1 (unknown)").arg(id));
    }
}

void SpecForm::fillNicChoices(core::Fabric fabric, const std::string& selected)
{
    const auto& catalog = m_controller.catalog();
    m_nic->clear();
    m_nic->addItem(tr("from node type"), QString());
    for (const auto& n : catalog.nics()) {
        if ((fabric == core::Fabric::InfiniBand ? n.ibRates : n.ethernetRates).empty())
            continue;
        m_nic->addItem(qs(n.name), qs(n.id));
        m_nic->setItemData(m_nic->count() - 1, qs(n.name), Qt::ToolTipRole);
    }
    const QString id = qs(selected);
    selectData(m_nic, id, catalog.findNic(selected) ? tr("%1 (other fabric)").arg(id) : tr("%1 (unknown)").arg(id));
}

void SpecForm::syncChoices(const core::PlanSpec& spec)
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    if (spec.fabric != m_shownFabric) {
        fillNicChoices(spec.fabric, spec.nic);
        fillSwitchChoices(spec.fabric, spec);
    }
    m_shownFabric = spec.fabric;
    const bool ib = spec.fabric == core::Fabric::InfiniBand;
    for (const Field& f : m_fields) {
        if (f.form != m_linkForm)
            continue;
        const bool ibField = f.editor == m_generation || f.editor == m_width;
        m_linkForm->setRowVisible(f.row, ibField == ib);
    }
    m_lossless->setVisible(!ib);
    m_addressing->setVisible(!ib);
    m_updating = wasUpdating;
}

int SpecForm::gpusPerNode(const core::PlanSpec& spec) const
{
    const core::NodeType* type = m_controller.catalog().findNodeType(spec.nodeType);
    return std::max(1, spec.gpusPerNode.value_or(type ? type->gpus : 8));
}

void SpecForm::updateDerived()
{
    const core::NodeType* type = m_controller.catalog().findNodeType(text(m_nodeType));
    m_gpusPerNode->setSpecialValueText(type ? tr("from node type (%1)").arg(type->gpus) : tr("from node type"));
    m_rails->setSpecialValueText(type ? tr("from node type (%1)").arg(type->rails) : tr("from node type"));
    m_nic->setItemText(0, type ? tr("from node type (%1)").arg(qs(type->nic)) : tr("from node type"));
    const int perNode = std::max(1, m_gpusPerNode->value() > 0 ? m_gpusPerNode->value() : type ? type->gpus : 8);
    const long long value = m_size->value();
    if (m_sizeMode->currentIndex() == 1) {
        const auto nodes = static_cast<int>((value + perNode - 1) / perNode);
        m_sizeDerived->setText(tr("= %L1 nodes of %2 GPUs").arg(nodes).arg(perNode));
    } else {
        m_sizeDerived->setText(tr("= %L1 GPUs").arg(value * perNode));
    }
}

void SpecForm::updateWidthLabels()
{
    const auto generation = core::parseIbGeneration(text(m_generation)).value_or(core::IbGeneration::NDR);
    for (int i = 0; i < m_width->count(); ++i) {
        const int width = m_width->itemData(i).toInt();
        const auto rate = core::ibRate(generation, width);
        m_width->setItemText(i, rate ? tr("%1x (%2 Gb/s)").arg(width).arg(rate->dataGbps) : tr("%1x (not offered)").arg(width));
    }
}

core::PlanSpec SpecForm::readSpec(QHash<QString, QString>& problems) const
{
    core::PlanSpec spec = m_controller.spec();
    spec.name = m_name->text().toStdString();
    spec.fabric = text(m_fabric) == "rocev2" ? core::Fabric::RoCEv2 : core::Fabric::InfiniBand;
    const bool fabricChanged = spec.fabric != m_shownFabric;
    spec.nodeType = text(m_nodeType);
    spec.gpusPerNode = positive(m_gpusPerNode);
    spec.rails = positive(m_rails);
    if (m_sizeMode->currentIndex() == 1) {
        spec.gpus = m_size->value();
        spec.nodes = static_cast<int>((*spec.gpus + gpusPerNode(spec) - 1) / gpusPerNode(spec));
    } else {
        spec.gpus.reset();
        spec.nodes = m_size->value();
    }
    readLink(spec);
    if (fabricChanged) {
        // The other fabric's parts do not carry over: take its defaults.
        spec.nic.clear();
        spec.leafSwitch.clear();
        spec.spineSwitch.clear();
        spec.coreSwitch.clear();
    } else {
        spec.nic = text(m_nic);
        spec.leafSwitch = text(m_leafSwitch);
        spec.spineSwitch = text(m_spineSwitch);
        spec.coreSwitch = text(m_coreSwitch);
    }
    readShape(spec, problems);
    readExtras(spec, problems);
    return spec;
}

void SpecForm::readLink(core::PlanSpec& spec) const
{
    if (spec.fabric == core::Fabric::InfiniBand) {
        spec.link.generation = core::parseIbGeneration(text(m_generation));
        spec.link.width = m_width->currentData().toInt();
        spec.link.speedGbps.reset();
        spec.link.lanes.reset();
    } else {
        spec.link.generation.reset();
        spec.link.width = 4;
        spec.link.speedGbps = m_speed->currentData().toInt();
        const int lanes = m_lanes->currentData().toInt();
        spec.link.lanes = lanes > 0 ? std::optional<int>(lanes) : std::nullopt;
    }
}

void SpecForm::readShape(core::PlanSpec& spec, QHash<QString, QString>& problems) const
{
    spec.suSize = positive(m_suSize);
    const struct {
        const QComboBox* box;
        QString path;
        core::Ratio* target;
    } ratios[] = {
        { m_leafRatio, QStringLiteral("oversubscription.leaf"), &spec.leafOversubscription },
        { m_spineRatio, QStringLiteral("oversubscription.spine"), &spec.spineOversubscription },
    };
    for (const auto& r : ratios) {
        if (auto ratio = core::parseRatio(r.box->currentText().trimmed().toStdString()))
            *r.target = *ratio;
        else
            problems.insert(r.path, tr("must be \"down:up\" like \"2:1\", got \"%1\"").arg(r.box->currentText()));
    }
    const int tiers = m_tiers->currentData().toInt();
    spec.tiers = tiers == 2 ? core::TierMode::Two : tiers == 3 ? core::TierMode::Three : core::TierMode::Auto;
    spec.planes = m_planes->value();
    spec.reservedLeafPorts = m_reserved->value();
    spec.managementPorts = m_management->value();
    spec.growToNodes = positive(m_growTo);
}

void SpecForm::readExtras(core::PlanSpec& spec, QHash<QString, QString>& problems) const
{
    const QString pattern = m_nodeNames->text().trimmed();
    if (!pattern.isEmpty() || spec.nodeNameList.empty()) {
        spec.nodeNameList.clear();
        spec.nodeNamePattern = pattern.isEmpty() ? std::string("node%03d") : pattern.toStdString();
    }
    core::RackLayout& r = spec.racks;
    r.nodesPerRack = m_nodesPerRack->value();
    r.leafPlacement = text(m_leafPlacement);
    r.rackWidthM = m_rackWidth->value();
    r.inRackM = m_inRack->value();
    r.slackM = m_slack->value();
    r.suPitchM = m_suPitch->value();
    r.spineDistanceM = m_spineDistance->value();
    r.coreDistanceM = m_coreDistance->value();
    spec.racksGiven = spec.racksGiven || r != core::RackLayout {};
    if (spec.fabric != core::Fabric::RoCEv2)
        return;
    core::LosslessProfile& l = spec.lossless;
    l.mode = text(m_losslessMode);
    if (auto list = parsePriorities(m_pfcPriorities->text()))
        l.pfcPriorities = *list;
    else
        problems.insert(QStringLiteral("lossless.pfc_priority"), tr("must be priorities from 0 to 7, separated by commas, like \"3\" or \"3, 4\""));
    l.ecn = m_ecn->isChecked();
    l.dcqcn = m_dcqcn->isChecked();
    l.trust = text(m_trust);
    l.roceDscp = m_roceDscp->value();
    l.cnpDscp = m_cnpDscp->value();
    l.mtu = m_mtu->value();
    spec.losslessGiven = spec.losslessGiven || l != core::LosslessProfile {};

    spec.addressingGiven = m_routed->isChecked();
    if (!spec.addressingGiven)
        return;
    core::AddressingSpec& a = spec.addressing;
    a.scheme = text(m_addressScheme);
    a.asn.scheme = text(m_asnScheme);
    const struct {
        QLineEdit* edit;
        core::Ipv4Prefix& prefix;
        const char* path;
    } ranges[] = { { m_fabricRange, a.fabric, "addressing.fabric" }, { m_loopbackRange, a.loopbacks, "addressing.loopbacks" } };
    for (const auto& range : ranges) {
        std::string problem;
        if (auto parsed = core::parseIpv4Prefix(range.edit->text().trimmed().toStdString(), problem))
            range.prefix = *parsed;
        else
            problems.insert(QLatin1String(range.path), qs(problem));
    }
    bool ok = false;
    const qulonglong base = m_asnBase->text().trimmed().toULongLong(&ok);
    if (ok && base <= 0xFFFFFFFFULL)
        a.asn.base = static_cast<std::uint32_t>(base);
    else
        problems.insert(QStringLiteral("addressing.asn.base"), tr("must be a private AS number: 4200000000 to 4294967294 or 64512 to 65534"));
}

void SpecForm::validate(const core::PlanSpec& spec, QHash<QString, QString>& problems) const
{
    // The spec file reader knows every rule that needs no catalog (grow_to above nodes, the
    // node name pattern, MTU values...): run the form's spec through it.
    const auto checked = core::parsePlanSpec(core::toJson(spec), "form");
    if (checked)
        return;
    for (const auto& e : checked.errors()) {
        const QString line = QString::fromStdString(e.toString());
        QString path, reason;
        if (splitProblem(line, path, reason)) {
            if (!problems.contains(path))
                problems.insert(path, reason);
        } else {
            problems.insert(QString(), line);
        }
    }
}

void SpecForm::fieldEdited(int index)
{
    if (m_updating)
        return;
    const Field& field = m_fields[static_cast<std::size_t>(index)];
    updateDerived();
    if (field.editor == m_generation)
        updateWidthLabels();
    QHash<QString, QString> problems;
    const core::PlanSpec after = readSpec(problems);
    syncChoices(after);
    validate(after, problems);
    m_localProblems = problems;
    const core::PlanSpec before = m_controller.spec();
    if (!problems.isEmpty() || after == before) {
        // A value the form refuses is marked and not planned.
        refreshMarks();
        return;
    }
    m_undo->push(new SpecEditCommand(*this, before, after, field.mergeId, tr("Edit %1").arg(field.label->text())));
}

void SpecForm::sizeModeChanged()
{
    if (m_updating)
        return;
    const core::PlanSpec& spec = m_controller.spec();
    QHash<QString, QString> ignored;
    const int perNode = gpusPerNode(readSpec(ignored));
    m_updating = true;
    if (m_sizeMode->currentIndex() == 1)
        m_size->setValue(static_cast<int>(std::min<long long>(1LL * spec.nodes * perNode, m_size->maximum())));
    else
        m_size->setValue(std::max(1, (m_size->value() + perNode - 1) / perNode));
    m_updating = false;
    for (int i = 0; i < static_cast<int>(m_fields.size()); ++i) {
        if (m_fields[static_cast<std::size_t>(i)].editor == m_size)
            fieldEdited(i);
    }
}

void SpecForm::applySpec(const core::PlanSpec& spec, bool show)
{
    m_applying = true;
    m_controller.setSpec(spec);
    m_applying = false;
    if (show) {
        showSpec(spec);
    } else {
        syncChoices(spec);
        m_localProblems.clear();
        updateDerived();
        refreshMarks();
    }
    emit specEdited(spec);
}

void SpecForm::controllerSpecChanged()
{
    if (m_applying)
        return;
    // A spec from elsewhere (a file, an example): the edit history no longer applies.
    m_undo->clear();
    showSpec(m_controller.spec());
}

} // namespace railyard::app
