// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Building the spec form: groups, fields, tooltips and signal connections.
#include "app/widgets/spec_form.h"

#include "app/models/plan_controller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace railyard::app {

namespace {

    QString qs(std::string_view s)
    {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }

    QComboBox* comboBox(QWidget* parent)
    {
        auto* box = new QComboBox(parent);
        // Long catalog names must not widen the form past its column.
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
        return box;
    }

    QComboBox* ratioBox(QWidget* parent)
    {
        auto* box = comboBox(parent);
        box->setEditable(true);
        box->addItems({ QStringLiteral("1:1"), QStringLiteral("2:1"), QStringLiteral("3:1"), QStringLiteral("4:1") });
        return box;
    }

    QSpinBox* spinBox(QWidget* parent, int low, int high, const QString& special = {})
    {
        auto* box = new QSpinBox(parent);
        box->setRange(low, high);
        box->setGroupSeparatorShown(true);
        box->setSpecialValueText(special);
        return box;
    }

    QDoubleSpinBox* metres(QWidget* parent, int decimals)
    {
        auto* box = new QDoubleSpinBox(parent);
        box->setRange(0, 10'000);
        box->setDecimals(decimals);
        box->setSingleStep(decimals > 1 ? 0.1 : 1.0);
        //: Unit suffix of a distance in metres.
        box->setSuffix(SpecForm::tr(" m"));
        return box;
    }

} // namespace

void SpecForm::build()
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    m_errors = new QLabel(this);
    m_errors->setWordWrap(true);
    m_errors->setObjectName(QStringLiteral("specErrors"));
    m_errors->hide();
    column->addWidget(m_errors);
    buildCluster(column);
    buildLink(column);
    buildSwitches(column);
    buildShape(column);
    buildLossless(column);
    buildAddressing(column);
    buildRacks(column);
    column->addStretch(1);
    for (int i = 0; i < static_cast<int>(m_fields.size()); ++i)
        connectField(i);
    connect(m_sizeMode, &QComboBox::currentIndexChanged, this, &SpecForm::sizeModeChanged);
    connect(m_generation, &QComboBox::currentIndexChanged, this, &SpecForm::updateWidthLabels);
    alignLabels();
    // Marks: a red border for input errors, a quieter one for error findings.
    setStyleSheet(QStringLiteral("*[specMark=\"error\"] { border: 1px solid #c62828; border-radius: 2px; }"
                                 "*[specMark=\"finding\"] { border: 1px solid #e09a20; border-radius: 2px; }"
                                 "QLabel#fieldReason { color: #c62828; }"
                                 "QLabel#specErrors { color: #c62828; }"));
}

QFormLayout* SpecForm::addGroup(QVBoxLayout* column, const QString& title, QGroupBox** box)
{
    auto* group = new QGroupBox(title, this);
    auto* form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    column->addWidget(group);
    if (box)
        *box = group;
    return form;
}

int SpecForm::addField(QFormLayout* form, const QString& path, const QString& label, QWidget* editor, const QString& tip,
    QWidget* content)
{
    Field f;
    f.path = path;
    f.editor = editor;
    f.form = form;
    f.tip = tip;
    f.row = new QWidget(form->parentWidget());
    auto* rowLayout = new QVBoxLayout(f.row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->setSpacing(2);
    rowLayout->addWidget(content ? content : editor);
    f.reason = new QLabel(f.row);
    f.reason->setObjectName(QStringLiteral("fieldReason"));
    f.reason->setWordWrap(true);
    f.reason->hide();
    rowLayout->addWidget(f.reason);
    f.label = new QLabel(label, form->parentWidget());
    f.label->setBuddy(editor);
    f.label->setToolTip(tip);
    editor->setToolTip(tip);
    form->addRow(f.label, f.row);
    const bool typed = qobject_cast<QSpinBox*>(editor) || qobject_cast<QDoubleSpinBox*>(editor)
        || qobject_cast<QLineEdit*>(editor) || (qobject_cast<QComboBox*>(editor) && static_cast<QComboBox*>(editor)->isEditable());
    f.mergeId = typed ? static_cast<int>(m_fields.size()) + 1 : -1;
    m_fields.push_back(f);
    return static_cast<int>(m_fields.size()) - 1;
}

void SpecForm::connectField(int index)
{
    QWidget* editor = m_fields[static_cast<std::size_t>(index)].editor;
    auto edited = [this, index] { fieldEdited(index); };
    if (auto* spin = qobject_cast<QSpinBox*>(editor))
        connect(spin, &QSpinBox::valueChanged, this, edited);
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(editor))
        connect(dspin, &QDoubleSpinBox::valueChanged, this, edited);
    else if (auto* line = qobject_cast<QLineEdit*>(editor))
        connect(line, &QLineEdit::textChanged, this, edited);
    else if (auto* check = qobject_cast<QCheckBox*>(editor))
        connect(check, &QCheckBox::toggled, this, edited);
    else if (auto* box = qobject_cast<QComboBox*>(editor); box && box->isEditable())
        connect(box, &QComboBox::currentTextChanged, this, edited);
    else if (box)
        connect(box, &QComboBox::currentIndexChanged, this, edited);
}

void SpecForm::alignLabels()
{
    // One label column across the groups, so the fields line up.
    int width = 0;
    for (const Field& f : m_fields)
        width = std::max(width, f.label->sizeHint().width());
    for (const Field& f : m_fields)
        f.label->setMinimumWidth(width);
}

void SpecForm::buildCluster(QVBoxLayout* column)
{
    QFormLayout* form = addGroup(column, tr("Cluster"));
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("untitled"));
    addField(form, QStringLiteral("name"), tr("Name"), m_name, tr("Free text that names the design in reports and exports."));
    m_fabric = comboBox(this);
    m_fabric->addItem(tr("InfiniBand"), QStringLiteral("infiniband"));
    m_fabric->addItem(tr("RoCEv2 (Ethernet)"), QStringLiteral("rocev2"));
    addField(form, QStringLiteral("fabric"), tr("Fabric"), m_fabric,
        tr("InfiniBand: a credit-based lossless fabric run by a subnet manager. "
           "RoCEv2: RDMA over UDP/IP on Ethernet, kept lossless by PFC, ECN and DCQCN."));
    m_nodeType = comboBox(this);
    for (const auto& n : m_controller.catalog().nodeTypes()) {
        m_nodeType->addItem(qs(n.name), qs(n.id));
        m_nodeType->setItemData(m_nodeType->count() - 1, qs(n.name), Qt::ToolTipRole);
    }
    addField(form, QStringLiteral("node_type"), tr("Node type"), m_nodeType,
        tr("The GPU server from the catalog. It gives the GPUs per node, the compute NICs (one per rail) and the NIC model."));

    auto* size = new QWidget(this);
    auto* sizeRow = new QHBoxLayout(size);
    sizeRow->setContentsMargins(0, 0, 0, 0);
    m_sizeMode = comboBox(size);
    m_sizeMode->setMinimumContentsLength(5);
    m_sizeMode->addItem(tr("Nodes"), QStringLiteral("nodes"));
    m_sizeMode->addItem(tr("GPUs"), QStringLiteral("gpus"));
    m_sizeMode->setToolTip(tr("Give the cluster size in nodes (servers) or in GPUs; with GPUs, nodes = GPUs / GPUs per node, rounded up."));
    m_size = spinBox(size, 1, 10'000'000);
    m_size->setMinimumWidth(70); // its widest value would otherwise set the width of the whole form
    sizeRow->addWidget(m_sizeMode);
    sizeRow->addWidget(m_size, 1);
    auto* sizeBox = new QWidget(this);
    auto* sizeColumn = new QVBoxLayout(sizeBox);
    sizeColumn->setContentsMargins(0, 0, 0, 0);
    sizeColumn->setSpacing(2);
    sizeColumn->addWidget(size);
    m_sizeDerived = new QLabel(sizeBox);
    m_sizeDerived->setEnabled(false); // a quieter colour: derived, not editable
    sizeColumn->addWidget(m_sizeDerived);
    addField(form, QStringLiteral("nodes"), tr("Size"), m_size,
        tr("How many nodes (servers) the fabric connects, or how many GPUs."), sizeBox);

    m_gpusPerNode = spinBox(this, 0, 64, tr("from node type"));
    addField(form, QStringLiteral("gpus_per_node"), tr("GPUs per node"), m_gpusPerNode,
        tr("Overrides the node type's GPU count. Leave it at \"from node type\" unless the servers differ from the catalog."));
    m_rails = spinBox(this, 0, 64, tr("from node type"));
    addField(form, QStringLiteral("rails"), tr("Rails"), m_rails,
        tr("A rail is the set of NIC k of every node, wired to its own leaf switches, so GPU k talks to GPU k elsewhere in one hop. "
           "Rails = compute NICs per node; overrides the node type."));
    m_nic = comboBox(this);
    addField(form, QStringLiteral("nic"), tr("NIC"), m_nic, tr("The compute NIC model; by default the node type's."));
    m_nodeNames = new QLineEdit(this);
    m_nodeNames->setPlaceholderText(QStringLiteral("node%03d"));
    addField(form, QStringLiteral("node_names"), tr("Node names"), m_nodeNames,
        tr("A pattern with exactly one %0Nd, numbered from 1 in SU order: node%03d gives node001, node002 and so on."));
}

void SpecForm::buildLink(QVBoxLayout* column)
{
    m_linkForm = addGroup(column, tr("Link"));
    m_generation = comboBox(this);
    for (const char* g : { "EDR", "HDR", "NDR", "XDR" })
        m_generation->addItem(QString::fromLatin1(g), QString::fromLatin1(g));
    addField(m_linkForm, QStringLiteral("link.generation"), tr("Generation"), m_generation,
        tr("InfiniBand speed grade per lane: EDR 25, HDR 50, NDR 100, XDR 200 Gb/s."));
    m_width = comboBox(this);
    for (int w : { 1, 2, 4, 8 })
        m_width->addItem(tr("%1x").arg(w), w);
    addField(m_linkForm, QStringLiteral("link.width"), tr("Width"), m_width,
        tr("Lanes per port. NDR 2x is NDR200 (200 Gb/s): a QM9700 then has 128 ports instead of 64 at NDR 4x (400 Gb/s)."));
    m_speed = comboBox(this);
    for (int s : { 100, 200, 400, 800 })
        m_speed->addItem(tr("%1 GbE").arg(s), s);
    addField(m_linkForm, QStringLiteral("link.speed_gbps"), tr("Speed"), m_speed, tr("Ethernet port speed of each NIC port."));
    m_lanes = comboBox(this);
    m_lanes->addItem(tr("NIC's native"), 0);
    m_lanes->addItem(tr("1 lane"), 1);
    for (int l : { 2, 4, 8 })
        m_lanes->addItem(tr("%1 lanes").arg(l), l);
    addField(m_linkForm, QStringLiteral("link.lanes"), tr("Lanes"), m_lanes,
        tr("Ethernet lanes per port. 400G is 4 x 100G on ConnectX-7 but 8 x 50G on some switches; the two cannot be cabled together."));
}

void SpecForm::buildSwitches(QVBoxLayout* column)
{
    QFormLayout* form = addGroup(column, tr("Switches"));
    m_leafSwitch = comboBox(this);
    addField(form, QStringLiteral("leaf_switch"), tr("Leaf"), m_leafSwitch,
        tr("The leaf (rail) switch model; by default the catalog's switch for the fabric and speed."));
    m_spineSwitch = comboBox(this);
    addField(form, QStringLiteral("spine_switch"), tr("Spine"), m_spineSwitch, tr("The spine switch model; by default the leaf's."));
    m_coreSwitch = comboBox(this);
    addField(form, QStringLiteral("core_switch"), tr("Core"), m_coreSwitch,
        tr("The core switch model of a three-tier fabric; by default the spine's."));
}

void SpecForm::buildShape(QVBoxLayout* column)
{
    QFormLayout* form = addGroup(column, tr("Topology"));
    m_suSize = spinBox(this, 0, 1'000'000, tr("derived"));
    addField(form, QStringLiteral("su_size"), tr("SU size"), m_suSize,
        tr("A scalable unit (SU) is a group of nodes whose NIC k all share one rail-k leaf; the SU size is the leaf's node-facing ports. "
           "Derived by default from the leaf's ports and the oversubscription."));
    const QString ratioTip = tr("Oversubscription is the down:up bandwidth ratio at a switch tier: 1:1 is non-blocking, "
                                "2:1 gives half as much uplink as downlink bandwidth.");
    m_leafRatio = ratioBox(this);
    addField(form, QStringLiteral("oversubscription.leaf"), tr("Leaf ratio"), m_leafRatio, ratioTip);
    m_spineRatio = ratioBox(this);
    addField(form, QStringLiteral("oversubscription.spine"), tr("Spine ratio"), m_spineRatio, ratioTip);
    m_tiers = comboBox(this);
    m_tiers->addItem(tr("auto"), 0);
    m_tiers->addItem(tr("2 (leaf, spine)"), 2);
    m_tiers->addItem(tr("3 (leaf, spine, core)"), 3);
    addField(form, QStringLiteral("tiers"), tr("Tiers"), m_tiers,
        tr("Switch layers between nodes: two (leaf and spine) or three (with a core). Auto picks two while one spine layer can connect every leaf."));
    m_planes = spinBox(this, 1, 2);
    addField(form, QStringLiteral("planes"), tr("Planes"), m_planes,
        tr("Independent copies of the rail fabric. With two, each NIC port is split across two planes, e.g. 800G as 2 x 400G."));
    m_reserved = spinBox(this, 0, 512);
    addField(form, QStringLiteral("reserved_leaf_ports"), tr("Reserved ports"), m_reserved,
        tr("Ports per leaf kept free for management, storage or growth; they do not carry planned links."));
    m_management = spinBox(this, 0, 512);
    addField(form, QStringLiteral("management_ports"), tr("Mgmt ports"), m_management,
        tr("Ports of fabric-management appliances (such as UFM) attached to the leaves of SU 1; counted as node-leaf cables."));
    m_growTo = spinBox(this, 0, 1'000'000, tr("none"));
    addField(form, QStringLiteral("grow_to.nodes"), tr("Grow to"), m_growTo,
        tr("The final size in nodes when building in phases: spines, cores and their cabling are planned for it, "
           "and the plan marks what is installed now. Must be more than the nodes."));
}

void SpecForm::buildLossless(QVBoxLayout* column)
{
    QFormLayout* form = addGroup(column, tr("Lossless profile"), &m_lossless);
    m_lossless->setToolTip(tr("RoCEv2 only: how the Ethernet fabric avoids dropping RDMA traffic."));
    m_losslessMode = comboBox(this);
    m_losslessMode->addItem(tr("lossless"), QStringLiteral("lossless"));
    m_losslessMode->addItem(tr("PFC only"), QStringLiteral("pfc-only"));
    m_losslessMode->addItem(tr("lossy"), QStringLiteral("lossy"));
    addField(form, QStringLiteral("lossless.mode"), tr("Mode"), m_losslessMode,
        tr("Lossless: PFC on every hop, ECN marking at switches, DCQCN at NICs. PFC only: no ECN. "
           "Lossy: ECN and DCQCN without PFC, relying on NIC retransmission."));
    m_pfcPriorities = new QLineEdit(this);
    m_pfcPriorities->setPlaceholderText(tr("3"));
    addField(form, QStringLiteral("lossless.pfc_priority"), tr("PFC priority"), m_pfcPriorities,
        tr("PFC (priority flow control) pauses one traffic class when a buffer fills instead of dropping. "
           "The priority (0 to 7) that carries RoCE; several separated by commas."));
    m_ecn = new QCheckBox(tr("marking at switches"), this);
    addField(form, QStringLiteral("lossless.ecn"), tr("ECN"), m_ecn,
        tr("ECN (explicit congestion notification): switches mark packets when a queue builds up instead of dropping them."));
    m_dcqcn = new QCheckBox(tr("rate control at NICs"), this);
    addField(form, QStringLiteral("lossless.dcqcn"), tr("DCQCN"), m_dcqcn,
        tr("DCQCN: a NIC that receives ECN-marked packets sends CNPs back, and the sender slows down."));
    m_trust = comboBox(this);
    m_trust->addItem(tr("DSCP"), QStringLiteral("dscp"));
    m_trust->addItem(tr("PCP (VLAN)"), QStringLiteral("pcp"));
    addField(form, QStringLiteral("lossless.trust"), tr("Trust"), m_trust,
        tr("Which packet field switches and NICs trust to pick the priority: DSCP in the IP header (works without VLANs) or the VLAN PCP."));
    m_roceDscp = spinBox(this, 0, 63);
    addField(form, QStringLiteral("lossless.roce_dscp"), tr("RoCE DSCP"), m_roceDscp,
        tr("DSCP value of RoCE data packets (0 to 63), mapped to the PFC priority."));
    m_cnpDscp = spinBox(this, 0, 63);
    addField(form, QStringLiteral("lossless.cnp_dscp"), tr("CNP DSCP"), m_cnpDscp,
        tr("DSCP value of congestion notification packets (CNPs), usually a strict-priority class."));
    m_mtu = spinBox(this, 256, 9216);
    m_mtu->setGroupSeparatorShown(false);
    //: Unit suffix of an MTU in bytes.
    m_mtu->setSuffix(tr(" B"));
    addField(form, QStringLiteral("lossless.mtu"), tr("MTU"), m_mtu,
        tr("An RDMA path MTU (256, 512, 1024, 2048 or 4096) or an Ethernet interface MTU from 1500 to 9216."));
}

void SpecForm::buildAddressing(QVBoxLayout* column)
{
    QFormLayout* form = addGroup(column, tr("Addressing"), &m_addressing);
    m_addressing->setToolTip(tr("RoCEv2 only: a routed (L3) fabric, its address ranges and BGP AS numbers."));
    m_routed = new QCheckBox(tr("routed (L3, eBGP)"), this);
    addField(form, QStringLiteral("addressing"), tr("Routing"), m_routed,
        tr("Every link gets its own addresses and every switch a loopback and an AS number; the Network intent page then "
           "generates the switch and host configuration. Off: the plan has no addresses."));
    m_addressScheme = comboBox(this);
    m_addressScheme->addItem(tr("/31 per link"), QStringLiteral("p2p31"));
    m_addressScheme->addItem(tr("subnet per leaf"), QStringLiteral("rail_subnets"));
    addField(form, QStringLiteral("addressing.scheme"), tr("Scheme"), m_addressScheme,
        tr("/31 per link: each NIC-leaf link is its own /31 (the leaf side takes the even address). Subnet per leaf: the "
           "NICs of one leaf share a subnet with the leaf as gateway; switch-to-switch links stay /31."));
    m_fabricRange = new QLineEdit(this);
    m_fabricRange->setPlaceholderText(QStringLiteral("10.0.0.0/10"));
    addField(form, QStringLiteral("addressing.fabric"), tr("Fabric range"), m_fabricRange,
        tr("IPv4 prefix the link /31s and the leaf subnets come from, like 10.0.0.0/10. A 128K-GPU fabric needs about 400,000 /31s."));
    m_loopbackRange = new QLineEdit(this);
    m_loopbackRange->setPlaceholderText(QStringLiteral("10.255.0.0/16"));
    addField(form, QStringLiteral("addressing.loopbacks"), tr("Loopbacks"), m_loopbackRange,
        tr("IPv4 prefix of the switches' loopbacks (one /32 each, also the BGP router id)."));
    m_asnScheme = comboBox(this);
    m_asnScheme->addItem(tr("per leaf"), QStringLiteral("per_leaf"));
    m_asnScheme->addItem(tr("per tier"), QStringLiteral("per_tier"));
    addField(form, QStringLiteral("addressing.asn.scheme"), tr("AS numbers"), m_asnScheme,
        tr("Per leaf: a unique AS number per leaf, one per spine group and core plane (RFC 7938). Per tier: one for all "
           "leaves, one for the spines, one for the cores (the leaves then allow their own AS in paths)."));
    m_asnBase = new QLineEdit(this);
    m_asnBase->setPlaceholderText(QStringLiteral("4200000000"));
    addField(form, QStringLiteral("addressing.asn.base"), tr("First ASN"), m_asnBase,
        tr("First AS number, private only: 4200000000 to 4294967294 (4-byte) or 64512 to 65534 (2-byte)."));
    connect(m_routed, &QCheckBox::toggled, this, &SpecForm::updateAddressingEnabled);
}

void SpecForm::updateAddressingEnabled()
{
    for (QWidget* w : std::initializer_list<QWidget*> { m_addressScheme, m_fabricRange, m_loopbackRange, m_asnScheme, m_asnBase })
        w->setEnabled(m_routed->isChecked());
}

void SpecForm::buildRacks(QVBoxLayout* column)
{
    QFormLayout* outer = addGroup(column, tr("Rack layout"));
    m_racksToggle = new QToolButton(this);
    m_racksToggle->setCheckable(true);
    m_racksToggle->setAutoRaise(true);
    m_racksToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_racksToggle->setArrowType(Qt::RightArrow);
    m_racksToggle->setText(tr("Show"));
    m_racksToggle->setToolTip(tr("Where nodes and switches sit; cable lengths follow from it."));
    outer->addRow(m_racksToggle);
    m_racksBody = new QWidget(this);
    auto* form = new QFormLayout(m_racksBody);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    outer->addRow(m_racksBody);
    m_racksBody->hide();
    connect(m_racksToggle, &QToolButton::toggled, this, &SpecForm::setRacksExpanded);

    m_nodesPerRack = spinBox(this, 1, 1000);
    addField(form, QStringLiteral("racks.nodes_per_rack"), tr("Nodes per rack"), m_nodesPerRack, tr("GPU servers in one rack."));
    m_leafPlacement = comboBox(this);
    m_leafPlacement->addItem(tr("row (network rack)"), QStringLiteral("row"));
    m_leafPlacement->addItem(tr("rack (top of rack)"), QStringLiteral("rack"));
    addField(form, QStringLiteral("racks.leaf_placement"), tr("Leaves in"), m_leafPlacement,
        tr("Row: the leaves of an SU sit in a network rack in the middle of its row. Rack: in the node racks, top of rack."));
    m_rackWidth = metres(this, 2);
    addField(form, QStringLiteral("racks.rack_width_m"), tr("Rack width"), m_rackWidth, tr("Distance between neighbouring racks."));
    m_inRack = metres(this, 1);
    addField(form, QStringLiteral("racks.in_rack_m"), tr("In-rack run"), m_inRack,
        tr("Vertical cable run at each end: up to the tray and down into the rack."));
    m_slack = metres(this, 1);
    addField(form, QStringLiteral("racks.slack_m"), tr("Slack"), m_slack, tr("Added to every cable."));
    m_suPitch = metres(this, 1);
    addField(form, QStringLiteral("racks.su_pitch_m"), tr("SU pitch"), m_suPitch, tr("Distance between neighbouring SU rows."));
    m_spineDistance = metres(this, 1);
    addField(form, QStringLiteral("racks.spine_distance_m"), tr("To spines"), m_spineDistance,
        tr("From an SU row to the spine area."));
    m_coreDistance = metres(this, 1);
    addField(form, QStringLiteral("racks.core_distance_m"), tr("To cores"), m_coreDistance,
        tr("From the spine area to the core area."));
}

} // namespace railyard::app
