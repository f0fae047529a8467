// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/topology_layout.h"

#include "app/widgets/topology_items.h"

#include <QCoreApplication>
#include <QGraphicsScene>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace railyard::app::topo {

namespace {

    using core::DeviceKind;
    using core::SwitchTier;

    /// The translation context of this file's free functions (lupdate reads it from here).
    class TopologyText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::TopologyView)
    };

    /// Geometry in scene units. Labels are drawn at screen size, so these only set proportions.
    struct Dims {
        qreal nodeW, nodeH, nodePitch; ///< expanded nodes
        qreal leafW, leafH, leafPitch; ///< a leaf (expanded) or a leaf group (collapsed)
        qreal switchH, switchMaxW;     ///< spines and cores
        qreal cellPad, suGap, towerGap;
        qreal yLeaf, yNode, coreRise;  ///< below a tower's spine row; cores above the first row
    };
    constexpr Dims kExpanded { 14, 40, 18, 64, 36, 76, 36, 84, 20, 24, 70, 380, 700, 380 };
    constexpr Dims kCollapsed { 0, 44, 0, 30, 46, 36, 40, 0, 12, 14, 60, 130, 250, 420 };

    QColor nodeColor() { return QColor(0x8a, 0x97, 0xa4); }
    QColor managementColor() { return QColor(0xc8, 0xb0, 0x7a); }
    QColor spineColor() { return QColor(0x3c, 0x5a, 0x78); }
    QColor coreColor() { return QColor(0x2e, 0x3a, 0x47); }

    QString qs(const std::string& s) { return QString::fromStdString(s); }

    /// Trailing number of a device name ("node007" -> "7"), for the shortest labels.
    QString trailingNumber(const std::string& name)
    {
        std::size_t i = name.size();
        while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
            --i;
        return i == name.size() ? QString() : QString::number(std::stoi(name.substr(i)));
    }

    class Builder {
    public:
        Builder(QGraphicsScene& scene, const core::Plan& plan, bool collapsed)
            : m_scene(scene)
            , m_plan(plan)
            , m_collapsed(collapsed)
            , m_dims(collapsed ? kCollapsed : kExpanded)
            , m_planes(std::max(1, plan.summary.planes))
        {
        }

        SceneMap run()
        {
            m_map.boxOfDevice.assign(m_plan.devices.size(), -1);
            m_map.linkRef.assign(m_plan.links.size(), {});
            classify();
            layoutTowers();
            buildWires();
            for (auto* w : m_map.wires)
                w->refresh();
            return std::move(m_map);
        }

    private:
        const core::Device& dev(std::uint32_t d) const { return m_plan.devices[d]; }

        void classify()
        {
            const bool threeTier = m_plan.summary.tiers >= 3;
            for (std::uint32_t d = 0; d < m_plan.devices.size(); ++d) {
                const auto& v = dev(d);
                const int su = std::max(1, v.su);
                if (v.kind != DeviceKind::Switch) {
                    m_nodesOfSu[su].push_back(d);
                } else if (v.tier == SwitchTier::Leaf) {
                    m_leavesOfSu[su].push_back(d);
                    m_towerOfSu[su] = threeTier ? v.pod : 0;
                } else if (v.tier == SwitchTier::Spine) {
                    m_spinesOfTower[threeTier ? v.pod : 0].push_back(d);
                } else {
                    m_cores.push_back(d);
                }
            }
            for (const auto& [su, nodes] : m_nodesOfSu)
                m_towerOfSu.try_emplace(su, 0);
            for (const auto& [su, tower] : m_towerOfSu)
                m_towers[tower].push_back(su);
            for (const auto& [tower, spines] : m_spinesOfTower)
                m_towers.try_emplace(tower);
            for (auto& [su, leaves] : m_leavesOfSu)
                std::stable_sort(leaves.begin(), leaves.end(), [&](auto a, auto b) {
                    return std::tie(dev(a).plane, dev(a).rail) < std::tie(dev(b).plane, dev(b).rail);
                });
            for (auto& [tower, spines] : m_spinesOfTower)
                std::stable_sort(spines.begin(), spines.end(), [&](auto a, auto b) { return dev(a).plane < dev(b).plane; });
            coreGroups();
        }

        /// Cores fall into groups by the rank (within its pod) of the spines they serve.
        void coreGroups()
        {
            std::vector<int> rank(m_plan.devices.size(), 0);
            for (const auto& [tower, spines] : m_spinesOfTower) {
                std::map<int, int> next;
                for (auto s : spines)
                    rank[s] = next[dev(s).plane]++;
            }
            m_coreGroup.assign(m_plan.devices.size(), 1 << 30);
            for (const auto& l : m_plan.links) {
                if (l.tier == core::LinkTier::SpineCore)
                    m_coreGroup[l.b.device] = std::min(m_coreGroup[l.b.device], rank[l.a.device]);
            }
            std::stable_sort(m_cores.begin(), m_cores.end(), [&](auto a, auto b) {
                return std::tie(dev(a).plane, m_coreGroup[a]) < std::tie(dev(b).plane, m_coreGroup[b]);
            });
        }

        int addBox(const QRectF& rect, BoxItem::Role role, QColor fill, std::vector<std::uint32_t> devices)
        {
            for (auto d : devices)
                m_map.boxOfDevice[d] = static_cast<std::int32_t>(m_map.boxes.size());
            auto* box = new BoxItem(rect, role, fill, std::move(devices));
            m_scene.addItem(box);
            m_map.boxes.push_back(box);
            return static_cast<int>(m_map.boxes.size()) - 1;
        }

        void addFrame(const QRectF& rect, const QString& title, qreal titleRoom)
        {
            m_scene.addItem(new FrameItem(rect, title, titleRoom));
        }

        /// Consecutive runs of `devices` that share `key` (collapsed groups), or one run each.
        template <typename Key>
        std::vector<std::vector<std::uint32_t>> runs(const std::vector<std::uint32_t>& devices, Key key) const
        {
            std::vector<std::vector<std::uint32_t>> out;
            for (std::size_t i = 0; i < devices.size(); ++i) {
                if (!m_collapsed || i == 0 || key(devices[i]) != key(devices[i - 1]))
                    out.emplace_back();
                out.back().push_back(devices[i]);
            }
            return out;
        }

        std::vector<std::vector<std::uint32_t>> leafGroups(int su) const
        {
            return runs(m_leavesOfSu.count(su) ? m_leavesOfSu.at(su) : std::vector<std::uint32_t> {},
                [&](std::uint32_t d) { return std::pair(dev(d).plane, dev(d).rail); });
        }

        qreal cellWidth(int su) const
        {
            const auto groups = leafGroups(su).size();
            const auto nodes = m_nodesOfSu.count(su) ? m_nodesOfSu.at(su).size() : 0;
            const qreal planeGaps = m_planes > 1 ? (m_planes - 1) * m_dims.leafPitch / 2 : 0;
            qreal w = static_cast<qreal>(groups) * m_dims.leafPitch + planeGaps;
            if (!m_collapsed)
                w = std::max(w, static_cast<qreal>(nodes) * m_dims.nodePitch);
            return std::max<qreal>(w, m_collapsed ? 110 : 60) + 2 * m_dims.cellPad;
        }

        qreal towerWidth(const std::vector<int>& sus) const
        {
            qreal w = 0;
            for (int su : sus)
                w += cellWidth(su) + m_dims.suGap;
            return std::max<qreal>(w - m_dims.suGap, 200);
        }

        void layoutTowers()
        {
            const bool threeTier = m_plan.summary.tiers >= 3;
            qreal columnW = 0;
            for (const auto& [tower, sus] : m_towers)
                columnW = std::max(columnW, towerWidth(sus));
            const qreal towerH = m_dims.yNode + m_dims.nodeH + 60;
            int columns = static_cast<int>(m_towers.size());
            if (m_collapsed && m_towers.size() > 4) {
                const double n = static_cast<double>(m_towers.size());
                columns = std::max(1, static_cast<int>(std::lround(std::sqrt(n * towerH * 1.7 / (columnW + m_dims.towerGap)))));
            }
            int i = 0;
            qreal x = 0, right = 0;
            for (const auto& [tower, sus] : m_towers) {
                const int row = i / columns;
                if (i % columns == 0)
                    x = 0;
                const qreal w = towerWidth(sus);
                layoutTower(tower, sus, QPointF(x, row * (towerH + 60)), w);
                if (threeTier)
                    addFrame(QRectF(x - 14, row * (towerH + 60) - 50, w + 28, towerH + 36), TopologyText::tr("Pod %1").arg(tower), 50);
                x += (m_collapsed && columns > 1 ? columnW : w) + m_dims.towerGap;
                right = std::max(right, x - m_dims.towerGap);
                ++i;
            }
            layoutCores(right);
        }

        void layoutTower(int tower, const std::vector<int>& sus, QPointF origin, qreal width)
        {
            qreal x = origin.x();
            for (int su : sus) {
                const qreal w = cellWidth(su);
                layoutCell(su, QRectF(x, origin.y(), w, 0));
                x += w + m_dims.suGap;
            }
            const auto it = m_spinesOfTower.find(tower);
            if (it == m_spinesOfTower.end())
                return;
            const auto groups = runs(it->second, [&](std::uint32_t d) { return dev(d).plane; });
            layoutSwitchRow(groups, origin.x(), width, origin.y(), BoxItem::Role::Spine);
            if (m_plan.summary.tiers < 3 && !m_collapsed)
                addFrame(QRectF(origin.x() - 14, origin.y() - 50, width + 28, m_dims.switchH + 64), TopologyText::tr("Spines"), 50);
        }

        void layoutCell(int su, const QRectF& cell)
        {
            const auto groups = leafGroups(su);
            const qreal planeGap = m_planes > 1 ? m_dims.leafPitch / 2 : 0;
            qreal used = static_cast<qreal>(groups.size()) * m_dims.leafPitch + (m_planes - 1) * planeGap;
            qreal x = cell.x() + (cell.width() - used) / 2 + (m_dims.leafPitch - m_dims.leafW) / 2;
            const qreal y = cell.y() + m_dims.yLeaf;
            for (std::size_t g = 0; g < groups.size(); ++g) {
                const auto& first = dev(groups[g].front());
                if (g > 0 && first.plane != dev(groups[g - 1].front()).plane)
                    x += planeGap;
                const int n = static_cast<int>(groups[g].size());
                const int b = addBox(QRectF(x, y, m_dims.leafW, m_dims.leafH), BoxItem::Role::Leaf, railColor(first.rail), groups[g]);
                const QString rail = m_planes > 1 ? TopologyText::tr("P%1 R%2").arg(first.plane).arg(first.rail) : TopologyText::tr("R%1").arg(first.rail);
                if (m_collapsed)
                    m_map.boxes[b]->setLabels(rail, QString::number(first.rail), n > 1 ? TopologyText::tr("\u00d7%1").arg(n) : QString());
                else
                    m_map.boxes[b]->setLabels(qs(first.name), rail);
                x += m_dims.leafPitch;
            }
            const auto nodesIt = m_nodesOfSu.find(su);
            const std::vector<std::uint32_t> none;
            const auto& nodes = nodesIt == m_nodesOfSu.end() ? none : nodesIt->second;
            const qreal yNode = cell.y() + m_dims.yNode;
            if (m_collapsed) {
                const auto mgmt = std::count_if(nodes.begin(), nodes.end(), [&](auto d) { return dev(d).kind == DeviceKind::Management; });
                const int b = addBox(QRectF(cell.x() + m_dims.cellPad / 2, yNode, cell.width() - m_dims.cellPad, m_dims.nodeH),
                    BoxItem::Role::Node, nodeColor(), nodes);
                const int count = static_cast<int>(nodes.size() - static_cast<std::size_t>(mgmt));
                QString full = TopologyText::tr("SU %1 \u00b7 %n node(s)", nullptr, count).arg(su);
                if (mgmt > 0)
                    full += TopologyText::tr(" + %n mgmt", nullptr, static_cast<int>(mgmt));
                m_map.boxes[b]->setLabels(full, TopologyText::tr("SU %1").arg(su), QString());
                return;
            }
            qreal nx = cell.x() + (cell.width() - static_cast<qreal>(nodes.size()) * m_dims.nodePitch) / 2
                + (m_dims.nodePitch - m_dims.nodeW) / 2;
            for (auto d : nodes) {
                const bool mgmt = dev(d).kind == DeviceKind::Management;
                const int b = addBox(QRectF(nx, yNode, m_dims.nodeW, m_dims.nodeH), mgmt ? BoxItem::Role::Management : BoxItem::Role::Node,
                    mgmt ? managementColor() : nodeColor(), { d });
                m_map.boxes[b]->setLabels(qs(dev(d).name), trailingNumber(dev(d).name));
                nx += m_dims.nodePitch;
            }
            addFrame(QRectF(cell.x(), cell.y() + m_dims.yLeaf - 50, cell.width(), m_dims.yNode - m_dims.yLeaf + m_dims.nodeH + 62),
                TopologyText::tr("SU %1").arg(su), 50);
        }

        /// Spines or cores: one box per switch (expanded) or per group, spread over [left, left+width].
        void layoutSwitchRow(const std::vector<std::vector<std::uint32_t>>& groups, qreal left, qreal width, qreal y, BoxItem::Role role)
        {
            if (groups.empty())
                return;
            const qreal n = static_cast<qreal>(groups.size());
            const qreal pitch = width / n;
            const qreal w = m_collapsed ? pitch - 16 : std::min(m_dims.switchMaxW, pitch * 0.85);
            for (std::size_t i = 0; i < groups.size(); ++i) {
                const qreal cx = left + pitch * (static_cast<qreal>(i) + 0.5);
                const auto& first = dev(groups[i].front());
                const int b = addBox(QRectF(cx - w / 2, y, w, m_dims.switchH), role,
                    role == BoxItem::Role::Spine ? spineColor() : coreColor(), groups[i]);
                const int count = static_cast<int>(groups[i].size());
                if (!m_collapsed) {
                    m_map.boxes[b]->setLabels(qs(first.name), trailingNumber(first.name));
                } else if (role == BoxItem::Role::Spine) {
                    const QString full = m_planes > 1 ? TopologyText::tr("Plane %1 \u00b7 %n spine(s)", nullptr, count).arg(first.plane) : TopologyText::tr("%n spine(s)", nullptr, count);
                    m_map.boxes[b]->setLabels(full, QString::number(count));
                } else {
                    m_map.boxes[b]->setLabels(TopologyText::tr("%n core(s)", nullptr, count), QString::number(count));
                }
            }
        }

        void layoutCores(qreal right)
        {
            if (m_cores.empty())
                return;
            const auto groups = runs(m_cores, [&](std::uint32_t d) { return std::pair(dev(d).plane, m_coreGroup[d]); });
            const qreal y = -m_dims.coreRise;
            layoutSwitchRow(groups, 0, right, y, BoxItem::Role::Core);
            addFrame(QRectF(-14, y - 50, right + 28, m_dims.switchH + 64), TopologyText::tr("Cores"), 50);
        }

        /// Where a link meets a box: spread over the edge by port (expanded), or straight up/down (collapsed).
        QLineF segmentLine(const core::Link& l, const QRectF& lower, const QRectF& upper) const
        {
            if (m_collapsed) {
                qreal x1 = lower.center().x(), x2 = upper.center().x();
                if (upper.left() <= x1 && x1 <= upper.right())
                    x2 = x1;
                else if (lower.left() <= x2 && x2 <= lower.right())
                    x1 = x2;
                return QLineF(x1, lower.top(), x2, upper.bottom());
            }
            auto frac = [&](const core::PortRef& p, bool up) {
                const auto& v = dev(p.device);
                if (v.kind == DeviceKind::Node) {
                    const int rails = std::max(1, m_plan.summary.rails);
                    return (p.port * m_planes + p.plane + 0.5) / (rails * m_planes);
                }
                const auto& [lo, hi] = up ? m_upPorts[p.device] : m_downPorts[p.device];
                return hi >= lo ? (p.port - lo + 0.5) / (hi - lo + 1) : 0.5;
            };
            const qreal inset = 3;
            return QLineF(lower.left() + inset + frac(l.a, true) * (lower.width() - 2 * inset), lower.top(),
                upper.left() + inset + frac(l.b, false) * (upper.width() - 2 * inset), upper.bottom());
        }

        void portRanges()
        {
            m_upPorts.assign(m_plan.devices.size(), { 1 << 30, -1 });
            m_downPorts.assign(m_plan.devices.size(), { 1 << 30, -1 });
            for (const auto& l : m_plan.links) {
                auto& up = m_upPorts[l.a.device];
                up = { std::min<int>(up.first, l.a.port), std::max<int>(up.second, l.a.port) };
                auto& down = m_downPorts[l.b.device];
                down = { std::min<int>(down.first, l.b.port), std::max<int>(down.second, l.b.port) };
            }
        }

        void buildWires()
        {
            if (!m_collapsed)
                portRanges();
            std::map<std::pair<int, int>, int> wireOf;        // (tier, group) -> wire
            std::unordered_map<std::uint64_t, SceneMap::LinkRef> segmentOf; // box pair -> segment
            const auto style = m_collapsed ? WireItem::Style::Bundle : WireItem::Style::Thin;
            for (std::size_t i = 0; i < m_plan.links.size(); ++i) {
                const auto& l = m_plan.links[i];
                const int ba = m_map.boxOfDevice[l.a.device], bb = m_map.boxOfDevice[l.b.device];
                if (ba < 0 || bb < 0)
                    continue;
                const std::uint64_t key = (static_cast<std::uint64_t>(ba) << 32) | static_cast<std::uint32_t>(bb);
                auto it = segmentOf.find(key);
                if (it == segmentOf.end()) {
                    const auto& lower = dev(l.a.device);
                    // Spine-core bundles of a collapsed plan share one item per plane: drawn as a light wash.
                    const int group = l.tier != core::LinkTier::SpineCore ? std::max(1, lower.su)
                        : m_collapsed                                      ? lower.plane
                                                                           : lower.pod * 64 + lower.plane;
                    auto [w, fresh] = wireOf.try_emplace({ static_cast<int>(l.tier), group }, static_cast<int>(m_map.wires.size()));
                    if (fresh) {
                        m_map.wires.push_back(new WireItem(style));
                        m_scene.addItem(m_map.wires.back());
                    }
                    const int color = l.tier == core::LinkTier::NodeLeaf ? dev(l.b.device).rail : -1;
                    auto* wire = m_map.wires[static_cast<std::size_t>(w->second)];
                    const int s = wire->addSegment(segmentLine(l, m_map.boxes[ba]->rect(), m_map.boxes[bb]->rect()), color);
                    it = segmentOf.emplace(key, SceneMap::LinkRef { w->second, s }).first;
                }
                m_map.linkRef[i] = it->second;
                m_map.wires[static_cast<std::size_t>(it->second.wire)]->segment(it->second.segment).links.push_back(static_cast<std::uint32_t>(i));
            }
        }

        QGraphicsScene& m_scene;
        const core::Plan& m_plan;
        bool m_collapsed;
        Dims m_dims;
        int m_planes;
        SceneMap m_map;
        std::map<int, std::vector<std::uint32_t>> m_nodesOfSu, m_leavesOfSu, m_spinesOfTower;
        std::map<int, int> m_towerOfSu;
        std::map<int, std::vector<int>> m_towers; ///< pod (3 tiers) or 0 -> its SUs
        std::vector<std::uint32_t> m_cores;
        std::vector<int> m_coreGroup;
        std::vector<std::pair<int, int>> m_upPorts, m_downPorts;
    };

} // namespace

SceneMap buildScene(QGraphicsScene& scene, const core::Plan& plan, bool collapsed)
{
    return Builder(scene, plan, collapsed).run();
}

} // namespace railyard::app::topo
