// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/topology_view.h"

#include "app/widgets/topology_items.h"
#include "app/widgets/topology_layout.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <QAction>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QGraphicsScene>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

namespace railyard::app {

namespace {

    constexpr std::size_t kExpandedMaxDevices = 2000;
    constexpr std::size_t kExpandedMaxLinks = 20000;
    constexpr double kMaxScale = 8;

    QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

    QString metres(float m) { return QString::number(static_cast<double>(m), 'g', 4); }

    /// A spec field named by a finding, as the devices it concerns.
    enum class FieldTarget { None, Nodes, Leaves, Spines, Cores, Management, Switches };

    FieldTarget fieldTarget(const QString& where)
    {
        const QString w = where.toLower();
        if (w.contains(QLatin1String("management")))
            return FieldTarget::Management;
        if (w.contains(QLatin1String("leaf")) || w == QLatin1String("rails"))
            return FieldTarget::Leaves;
        if (w.contains(QLatin1String("spine")))
            return FieldTarget::Spines;
        if (w.contains(QLatin1String("core")))
            return FieldTarget::Cores;
        if (w == QLatin1String("tiers") || w == QLatin1String("planes") || w == QLatin1String("sizing"))
            return FieldTarget::Switches;
        static const char* const nodeFields[] = { "nodes", "gpus", "node_type", "su_size", "racks", "rack", "nic", "rack_layout" };
        for (const char* f : nodeFields) {
            if (w == QLatin1String(f) || w.startsWith(QLatin1String(f) + QLatin1Char('.')))
                return FieldTarget::Nodes;
        }
        return FieldTarget::None;
    }

    bool matches(FieldTarget t, const core::Device& d)
    {
        using core::DeviceKind;
        using core::SwitchTier;
        switch (t) {
        case FieldTarget::Nodes: return d.kind == DeviceKind::Node;
        case FieldTarget::Management: return d.kind == DeviceKind::Management;
        case FieldTarget::Leaves: return d.kind == DeviceKind::Switch && d.tier == SwitchTier::Leaf;
        case FieldTarget::Spines: return d.kind == DeviceKind::Switch && d.tier == SwitchTier::Spine;
        case FieldTarget::Cores: return d.kind == DeviceKind::Switch && d.tier == SwitchTier::Core;
        case FieldTarget::Switches: return d.kind == DeviceKind::Switch;
        case FieldTarget::None: break;
        }
        return false;
    }

} // namespace

struct TopologyView::Private {
    std::shared_ptr<const core::Plan> plan;
    bool collapsed = false;
    topo::SceneMap map;
    std::unordered_map<std::string, std::uint32_t> byName;
    std::vector<std::uint8_t> deviceFailed, linkFailed, deviceLit, linkLit, deviceSelected;
    std::vector<std::uint32_t> failedDevices;
    std::vector<std::size_t> failedLinks;
    int litCount = 0;
    bool userZoomed = false;
    topo::RailLegend* legend = nullptr;

    const core::Plan* p() const { return plan.get(); }
    struct Hit {
        topo::BoxItem* box = nullptr;
        topo::WireItem* wire = nullptr;
        int segment = -1;
    };
    Hit hitAt(const QGraphicsView& view, const QPoint& viewPos) const
    {
        const QPointF scenePos = view.mapToScene(viewPos);
        for (QGraphicsItem* item : view.items(viewPos)) {
            if (item->type() == topo::BoxType)
                return { static_cast<topo::BoxItem*>(item), nullptr, -1 };
            if (item->type() == topo::WireType) {
                auto* wire = static_cast<topo::WireItem*>(item);
                const int s = wire->segmentAt(wire->mapFromScene(scenePos));
                if (s >= 0)
                    return { nullptr, wire, s };
            }
        }
        return {};
    }
};

TopologyView::TopologyView(QWidget* parent)
    : QGraphicsView(parent)
    , d(std::make_unique<Private>())
{
    auto* scene = new QGraphicsScene(this);
    scene->setBackgroundBrush(QColor(0xfb, 0xfc, 0xfd));
    setScene(scene);
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlag(QGraphicsView::DontAdjustForAntialiasing);
    setCacheMode(QGraphicsView::CacheBackground);
    setDragMode(QGraphicsView::ScrollHandDrag);
    // Panning is by dragging; scroll bars would only eat room and fight fit-to-view.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    d->legend = new topo::RailLegend(this);
    d->legend->hide();

    auto* in = new QAction(tr("Zoom In"), this);
    in->setShortcuts({ QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn });
    auto* out = new QAction(tr("Zoom Out"), this);
    out->setShortcuts({ QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence::ZoomOut });
    auto* fit = new QAction(tr("Fit to View"), this);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    for (QAction* a : { in, out, fit }) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    connect(in, &QAction::triggered, this, &TopologyView::zoomIn);
    connect(out, &QAction::triggered, this, &TopologyView::zoomOut);
    connect(fit, &QAction::triggered, this, &TopologyView::fitToView);
    connect(scene, &QGraphicsScene::selectionChanged, this, &TopologyView::refreshStates);
}

TopologyView::~TopologyView()
{
    // The scene is destroyed after this class's part of the view: clearing its selection then
    // must not call back into it.
    scene()->disconnect(this);
}

void TopologyView::setPlan(std::shared_ptr<const core::Plan> plan)
{
    const bool hadFailures = !d->failedDevices.empty() || !d->failedLinks.empty();
    d->plan = std::move(plan);
    const std::size_t devices = d->plan ? d->plan->devices.size() : 0;
    const std::size_t links = d->plan ? d->plan->links.size() : 0;
    d->byName.clear();
    for (std::uint32_t i = 0; i < devices; ++i)
        d->byName.emplace(d->plan->devices[i].name, i);
    d->deviceFailed.assign(devices, 0);
    d->deviceLit.assign(devices, 0);
    d->deviceSelected.assign(devices, 0);
    d->linkFailed.assign(links, 0);
    d->linkLit.assign(links, 0);
    d->failedDevices.clear();
    d->failedLinks.clear();
    d->litCount = 0;
    d->collapsed = devices > kExpandedMaxDevices || links > kExpandedMaxLinks;
    d->userZoomed = false;
    rebuild();
    if (hadFailures)
        emitFailures();
}

void TopologyView::setCollapsed(bool collapsed)
{
    if (collapsed == d->collapsed)
        return;
    d->collapsed = collapsed;
    d->userZoomed = false;
    rebuild();
}

bool TopologyView::isCollapsed() const
{
    return d->collapsed;
}

void TopologyView::rebuild()
{
    const QSignalBlocker blocker(scene());
    scene()->clear();
    d->map = {};
    std::fill(d->deviceSelected.begin(), d->deviceSelected.end(), 0);
    if (!d->plan) {
        d->legend->hide();
        return;
    }
    d->map = topo::buildScene(*scene(), *d->plan, d->collapsed);
    const QRectF bounds = scene()->itemsBoundingRect();
    const qreal margin = std::max(bounds.width(), bounds.height()) * 0.08;
    scene()->setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));
    refreshStates();
    d->legend->setContent(d->plan->summary.rails,
        d->collapsed ? tr("Collapsed: one box per SU and rail, bundles show link counts")
                     : tr("Hover a cable for its ports; right-click to mark failed"));
    d->legend->move(viewport()->geometry().topLeft() + QPoint(8, 8));
    d->legend->show();
    fitToView();
}

void TopologyView::refreshStates()
{
    const core::Plan* plan = d->p();
    if (!plan)
        return;
    std::fill(d->deviceSelected.begin(), d->deviceSelected.end(), 0);
    for (QGraphicsItem* item : scene()->selectedItems()) {
        if (item->type() == topo::BoxType) {
            for (auto dev : static_cast<topo::BoxItem*>(item)->devices())
                d->deviceSelected[dev] = 1;
        }
    }
    for (auto* box : d->map.boxes) {
        int failed = 0, planned = 0;
        bool lit = false;
        for (auto dev : box->devices()) {
            failed += d->deviceFailed[dev];
            planned += plan->devices[dev].installed ? 0 : 1;
            lit = lit || d->deviceLit[dev];
        }
        box->setState(failed, planned, lit);
    }
    for (auto* wire : d->map.wires) {
        for (int s = 0; s < wire->segmentCount(); ++s) {
            auto& seg = wire->segment(s);
            seg.failed = seg.planned = 0;
            seg.highlighted = seg.selected = false;
            for (auto i : seg.links) {
                const auto& l = plan->links[i];
                seg.failed += (d->linkFailed[i] || d->deviceFailed[l.a.device] || d->deviceFailed[l.b.device]) ? 1 : 0;
                seg.planned += l.installed ? 0 : 1;
                seg.highlighted = seg.highlighted || d->linkLit[i];
                seg.selected = seg.selected || d->deviceSelected[l.a.device] || d->deviceSelected[l.b.device];
            }
        }
        wire->refresh();
    }
}

void TopologyView::highlight(const QString& where)
{
    std::fill(d->deviceLit.begin(), d->deviceLit.end(), 0);
    std::fill(d->linkLit.begin(), d->linkLit.end(), 0);
    d->litCount = 0;
    const core::Plan* plan = d->p();
    const QString w = where.trimmed();
    if (plan && !w.isEmpty()) {
        const qsizetype slash = w.indexOf(QLatin1Char('/'));
        const auto found = d->byName.find((slash >= 0 ? w.left(slash) : w).toStdString());
        if (found != d->byName.end()) {
            d->deviceLit[found->second] = 1;
            if (slash >= 0) {
                const std::string port = w.toStdString();
                for (std::size_t i = 0; i < plan->links.size(); ++i) {
                    const auto& l = plan->links[i];
                    if ((l.a.device == found->second && plan->portName(l.a) == port)
                        || (l.b.device == found->second && plan->portName(l.b) == port))
                        d->linkLit[i] = 1;
                }
            }
        } else if (const FieldTarget t = fieldTarget(w); t != FieldTarget::None) {
            for (std::size_t i = 0; i < plan->devices.size(); ++i)
                d->deviceLit[i] = matches(t, plan->devices[i]) ? 1 : 0;
        }
        d->litCount = static_cast<int>(std::count(d->deviceLit.begin(), d->deviceLit.end(), 1));
    }
    refreshStates();
    if (d->litCount == 0)
        return;
    QRectF lit;
    for (auto* box : d->map.boxes) {
        for (auto dev : box->devices()) {
            if (d->deviceLit[dev]) {
                lit = lit.united(box->sceneBoundingRect());
                break;
            }
        }
    }
    ensureVisible(lit, 40, 40);
}

int TopologyView::itemCount() const
{
    return static_cast<int>(scene()->items().size());
}

int TopologyView::highlightedCount() const
{
    return d->litCount;
}

const std::vector<std::uint32_t>& TopologyView::failedDevices() const
{
    return d->failedDevices;
}

const std::vector<std::size_t>& TopologyView::failedLinks() const
{
    return d->failedLinks;
}

void TopologyView::setDeviceFailed(std::uint32_t device, bool failed)
{
    if (device >= d->deviceFailed.size() || (d->deviceFailed[device] != 0) == failed)
        return;
    d->deviceFailed[device] = failed ? 1 : 0;
    emitFailures();
}

void TopologyView::setLinkFailed(std::size_t link, bool failed)
{
    if (link >= d->linkFailed.size() || (d->linkFailed[link] != 0) == failed)
        return;
    d->linkFailed[link] = failed ? 1 : 0;
    emitFailures();
}

void TopologyView::setFailures(std::vector<std::uint32_t> devices, std::vector<std::size_t> links)
{
    std::fill(d->deviceFailed.begin(), d->deviceFailed.end(), 0);
    std::fill(d->linkFailed.begin(), d->linkFailed.end(), 0);
    for (auto dev : devices) {
        if (dev < d->deviceFailed.size())
            d->deviceFailed[dev] = 1;
    }
    for (auto l : links) {
        if (l < d->linkFailed.size())
            d->linkFailed[l] = 1;
    }
    emitFailures();
}

void TopologyView::clearFailures()
{
    setFailures({}, {});
}

/// Rebuilds the sorted failure lists from the flags; emits only when they changed.
void TopologyView::emitFailures()
{
    std::vector<std::uint32_t> devices;
    for (std::uint32_t i = 0; i < d->deviceFailed.size(); ++i) {
        if (d->deviceFailed[i])
            devices.push_back(i);
    }
    std::vector<std::size_t> links;
    for (std::size_t i = 0; i < d->linkFailed.size(); ++i) {
        if (d->linkFailed[i])
            links.push_back(i);
    }
    if (devices == d->failedDevices && links == d->failedLinks)
        return;
    d->failedDevices = std::move(devices);
    d->failedLinks = std::move(links);
    refreshStates();
    emit failuresChanged(d->failedDevices, d->failedLinks);
}

void TopologyView::zoomIn()
{
    scaleBy(1.25);
}

void TopologyView::zoomOut()
{
    scaleBy(0.8);
}

void TopologyView::fitToView()
{
    if (!d->plan)
        return;
    const QRectF bounds = scene()->itemsBoundingRect();
    // Leave room for the legend above the drawing.
    const qreal top = (d->legend->height() + 16) / std::max<qreal>(1, viewport()->height()) * bounds.height();
    fitInView(bounds.adjusted(-20, -20 - top, 20, 20), Qt::KeepAspectRatio);
    d->userZoomed = false;
    for (auto* wire : d->map.wires)
        wire->setHitTolerance(4 / std::max<qreal>(transform().m11(), 1e-6));
}

void TopologyView::scaleBy(double factor)
{
    const double current = transform().m11();
    const QRectF bounds = scene()->itemsBoundingRect();
    const double fit = std::min(viewport()->width() / std::max<qreal>(1, bounds.width()),
        viewport()->height() / std::max<qreal>(1, bounds.height()));
    const double target = std::clamp(current * factor, fit * 0.5, std::max(kMaxScale, fit));
    if (std::abs(target - current) < 1e-9)
        return;
    scale(target / current, target / current);
    d->userZoomed = true;
    for (auto* wire : d->map.wires)
        wire->setHitTolerance(4 / target);
}

void TopologyView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0 || (event->modifiers() & Qt::ShiftModifier)) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    scaleBy(std::pow(1.0015, delta));
    event->accept();
}

void TopologyView::mousePressEvent(QMouseEvent* event)
{
    QGraphicsView::mousePressEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const auto hit = d->hitAt(*this, event->position().toPoint());
    if (hit.box && hit.box->isSwitch() && hit.box->devices().size() == 1)
        emit switchActivated(hit.box->devices().front());
}

void TopologyView::contextMenuEvent(QContextMenuEvent* event)
{
    if (!d->plan)
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto hit = d->hitAt(*this, event->pos());
    if (hit.box && hit.box->isSwitch()) {
        const std::vector<std::uint32_t> devices = hit.box->devices();
        const int n = static_cast<int>(devices.size());
        const bool anyFailed = hit.box->failedCount() > 0;
        auto apply = [this, devices](bool failed) {
            for (auto dev : devices)
                d->deviceFailed[dev] = failed ? 1 : 0;
            emitFailures();
        };
        if (hit.box->failedCount() < n)
            connect(menu->addAction(n == 1 ? tr("Mark Failed") : tr("Mark %n Switches Failed", nullptr, n)), &QAction::triggered, this,
                [apply] { apply(true); });
        if (anyFailed)
            connect(menu->addAction(n == 1 ? tr("Restore") : tr("Restore %n Switches", nullptr, n)), &QAction::triggered, this,
                [apply] { apply(false); });
    } else if (hit.wire) {
        const std::vector<std::uint32_t> links = hit.wire->segment(hit.segment).links;
        const int n = static_cast<int>(links.size());
        const auto failedNow = std::count_if(links.begin(), links.end(), [&](auto i) { return d->linkFailed[i] != 0; });
        auto apply = [this, links](bool failed, bool justOne) {
            for (auto i : links) {
                if (justOne && d->linkFailed[i])
                    continue;
                d->linkFailed[i] = failed ? 1 : 0;
                if (justOne)
                    break;
            }
            emitFailures();
        };
        if (failedNow < n) {
            connect(menu->addAction(n == 1 ? tr("Mark Cable Failed") : tr("Mark All %n Cables Failed", nullptr, n)), &QAction::triggered,
                this, [apply] { apply(true, false); });
            if (n > 1)
                connect(menu->addAction(tr("Mark One Cable Failed")), &QAction::triggered, this, [apply] { apply(true, true); });
        }
        if (failedNow > 0)
            connect(menu->addAction(n == 1 ? tr("Restore Cable") : tr("Restore %n Cables", nullptr, n)), &QAction::triggered, this,
                [apply] { apply(false, false); });
    }
    if (!d->failedDevices.empty() || !d->failedLinks.empty())
        connect(menu->addAction(tr("Restore All")), &QAction::triggered, this, &TopologyView::clearFailures);
    menu->addSeparator();
    QAction* collapsed = menu->addAction(tr("Collapsed View"));
    collapsed->setCheckable(true);
    collapsed->setChecked(d->collapsed);
    connect(collapsed, &QAction::toggled, this, &TopologyView::setCollapsed);
    for (QAction* a : actions())
        menu->addAction(a);
    menu->popup(event->globalPos());
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    d->legend->move(viewport()->geometry().topLeft() + QPoint(8, 8));
    if (!d->userZoomed)
        fitToView();
}

void TopologyView::showEvent(QShowEvent* event)
{
    QGraphicsView::showEvent(event);
    if (!d->userZoomed)
        fitToView();
}

bool TopologyView::viewportEvent(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QGraphicsView::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, viewport());
    }
    return true;
}

QString TopologyView::toolTipAt(const QPoint& viewPos) const
{
    const core::Plan* plan = d->p();
    if (!plan)
        return {};
    const auto hit = d->hitAt(*this, viewPos);
    if (hit.box) {
        const auto& devices = hit.box->devices();
        const auto& first = plan->devices[devices.front()];
        QString text;
        if (devices.size() == 1 && first.kind == core::DeviceKind::Switch) {
            text = tr("<b>%1</b><br>%2 %3, %4 ports: %5 used, %6 reserved, %7 free")
                       .arg(qs(first.name), qs(core::toString(first.tier)), qs(first.model))
                       .arg(first.ports).arg(first.portsUsed).arg(first.portsReserved).arg(first.portsFree());
        } else if (devices.size() == 1) {
            text = tr("<b>%1</b><br>%2, SU %3").arg(qs(first.name), qs(first.model)).arg(first.su);
        } else {
            text = tr("<b>%n device(s)</b>", nullptr, static_cast<int>(devices.size()));
            for (std::size_t i = 0; i < std::min<std::size_t>(devices.size(), 4); ++i)
                text += QStringLiteral("<br>") + qs(plan->devices[devices[i]].name);
            if (devices.size() > 4)
                text += tr("<br>\u2026 and %n more", nullptr, static_cast<int>(devices.size() - 4));
        }
        if (hit.box->failedCount() > 0)
            text += tr("<br><font color='#d62728'>failed (what-if)</font>");
        if (!first.installed)
            text += tr("<br>planned for growth, not installed");
        return text;
    }
    if (!hit.wire)
        return {};
    const auto& links = hit.wire->segment(hit.segment).links;
    auto cable = [&](std::uint32_t i) {
        const auto& l = plan->links[i];
        QString line = tr("%1 <-> %2, %3 %4 m").arg(qs(plan->portName(l.a)), qs(plan->portName(l.b)),
            qs(core::toString(l.medium)), metres(l.lengthM));
        if (d->linkFailed[i] || d->deviceFailed[l.a.device] || d->deviceFailed[l.b.device])
            line += tr(" (failed)");
        else if (!l.installed)
            line += tr(" (planned)");
        return line;
    };
    if (links.size() == 1)
        return cable(links.front());
    QString text = tr("<b>%n cable(s)</b>", nullptr, static_cast<int>(links.size()));
    for (std::size_t i = 0; i < std::min<std::size_t>(links.size(), 6); ++i)
        text += QStringLiteral("<br>") + cable(links[i]).toHtmlEscaped();
    if (links.size() > 6)
        text += tr("<br>\u2026 and %n more", nullptr, static_cast<int>(links.size() - 6));
    return text;
}

} // namespace railyard::app
