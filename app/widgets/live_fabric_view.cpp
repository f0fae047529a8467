// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_fabric_view.h"

#include "core/text.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

namespace railyard::app {

namespace {

    constexpr int kMargin = 6;
    constexpr int kGap = 12; ///< between blocks of leaves
    constexpr std::size_t kPaintSamples = 1000;
    constexpr int kLoadBuckets = 6; ///< load colours the links are batched in (one drawLines each)

    const QColor kNoData(0xc4, 0xc4, 0xc4);
    const QColor kSwitch(0x9a, 0xa4, 0xb0); ///< spines and cores: no counters of their own here
    const QColor kCongested(0xe6, 0x6a, 0x12);
    const QColor kErroring(0xc8, 0x2a, 0x2a);
    const QColor kLink(0xb8, 0xc0, 0xc8);

    QColor mix(const QColor& a, const QColor& b, double t)
    {
        t = std::clamp(t, 0.0, 1.0);
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t), static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
    }

    /// 0 idle (pale) .. 1 the uplinks' capacity (deep blue).
    QColor loadColour(double share)
    {
        static const QColor low(0xf0, 0xee, 0xe6), mid(0x7f, 0xb2, 0xd8), high(0x12, 0x4a, 0x94);
        return share < 0.5 ? mix(low, mid, share * 2) : mix(mid, high, (share - 0.5) * 2);
    }

    QString fixed(double v, int decimals)
    {
        return QString::fromStdString(core::formatFixed(v, decimals));
    }

    QString esc(const std::string& s)
    {
        return QString::fromStdString(s).toHtmlEscaped();
    }

    QString tierName(core::SwitchTier tier)
    {
        switch (tier) {
        case core::SwitchTier::Leaf: return LiveFabricView::tr("leaf");
        case core::SwitchTier::Spine: return LiveFabricView::tr("spine");
        case core::SwitchTier::Core: return LiveFabricView::tr("core");
        }
        return {};
    }

    QString healthText(live::Health health)
    {
        switch (health) {
        case live::Health::Unknown: return LiveFabricView::tr("no rates yet");
        case live::Health::Healthy: return LiveFabricView::tr("healthy");
        case live::Health::Congested: return LiveFabricView::tr("congested");
        case live::Health::Pausing: return LiveFabricView::tr("pausing (PFC)");
        case live::Health::Erroring: return LiveFabricView::tr("erroring");
        }
        return {};
    }

    bool unhealthy(const live::GroupRates* r)
    {
        return r && (r->health == live::Health::Congested || r->health == live::Health::Pausing || r->health == live::Health::Erroring);
    }

} // namespace

LiveFabricView::LiveFabricView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

LiveFabricView::~LiveFabricView() = default;

QSize LiveFabricView::sizeHint() const
{
    return { 640, 360 };
}

QSize LiveFabricView::minimumSizeHint() const
{
    return { 240, 160 };
}

QColor LiveFabricView::congestionColour()
{
    return kCongested;
}

QColor LiveFabricView::erroringColour()
{
    return kErroring;
}

void LiveFabricView::setPlan(std::shared_ptr<const core::Plan> plan)
{
    m_plan = std::move(plan);
    m_switches.clear();
    m_leafOfDevice.clear();
    m_rowLabels.clear();
    m_columnLabels.clear();
    m_leafRows = m_leafColumns = 0;
    m_pairs = 0;
    m_selected = -1;
    if (m_plan) {
        const core::Plan& p = *m_plan;
        m_leafOfDevice.assign(p.devices.size(), -1);
        // Leaves: a row per (SU, n-th leaf of its rail there), a column per (plane, rail).
        std::map<std::pair<int, int>, int> rows, columns;
        std::map<std::tuple<int, int, int>, int> seen; // (su, plane, rail) -> leaves so far
        std::array<int, 3> perTier {};
        for (std::uint32_t d = 0; d < p.devices.size(); ++d) {
            const core::Device& dev = p.devices[d];
            if (dev.kind != core::DeviceKind::Switch || !dev.installed)
                continue;
            Switch s;
            s.name = dev.name;
            s.tier = dev.tier;
            s.su = dev.su;
            s.rail = dev.rail;
            s.plane = dev.plane;
            s.pod = dev.pod;
            if (dev.tier == core::SwitchTier::Leaf) {
                const int k = seen[{ dev.su, dev.plane, dev.rail }]++;
                rows.emplace(std::pair { dev.su, k }, 0);
                columns.emplace(std::pair { dev.plane, dev.rail }, 0);
                s.row = k; // resolved below
            } else {
                s.column = perTier[static_cast<std::size_t>(dev.tier)]++;
            }
            m_leafOfDevice[d] = static_cast<int>(m_switches.size());
            m_switches.push_back(std::move(s));
        }
        int i = 0;
        for (auto& [key, index] : rows) {
            index = i++;
            m_rowLabels.push_back(key.second == 0 ? tr("SU %1").arg(key.first) : tr("SU %1.%2").arg(key.first).arg(key.second + 1));
        }
        i = 0;
        const bool planes = columns.size() > 0 && columns.begin()->first.first != columns.rbegin()->first.first;
        for (auto& [key, index] : columns) {
            index = i++;
            m_columnLabels.push_back(planes ? tr("p%1 r%2").arg(key.first).arg(key.second) : tr("r%1").arg(key.second));
        }
        m_leafRows = static_cast<int>(rows.size());
        m_leafColumns = static_cast<int>(columns.size());
        for (std::uint32_t d = 0; d < p.devices.size(); ++d) {
            const int s = m_leafOfDevice[d];
            if (s < 0 || m_switches[static_cast<std::size_t>(s)].tier != core::SwitchTier::Leaf)
                continue;
            Switch& leaf = m_switches[static_cast<std::size_t>(s)];
            leaf.row = rows.at({ p.devices[d].su, leaf.row });
            leaf.column = columns.at({ p.devices[d].plane, p.devices[d].rail });
        }
        // Links between switches, counted per pair (parallel links are one line).
        std::map<std::pair<int, int>, int> pairs;
        for (const core::Link& l : p.links) {
            if (!l.installed)
                continue;
            if (l.tier == core::LinkTier::NodeLeaf) {
                if (const int s = m_leafOfDevice[l.b.device]; s >= 0)
                    ++m_switches[static_cast<std::size_t>(s)].downlinks;
                continue;
            }
            const int lo = m_leafOfDevice[l.a.device], hi = m_leafOfDevice[l.b.device];
            if (lo < 0 || hi < 0)
                continue;
            ++pairs[{ lo, hi }];
            ++m_switches[static_cast<std::size_t>(lo)].uplinks;
            ++m_switches[static_cast<std::size_t>(hi)].downlinks;
        }
        for (const auto& [pair, links] : pairs) {
            m_switches[static_cast<std::size_t>(pair.first)].up.push_back({ pair.second, links });
            m_switches[static_cast<std::size_t>(pair.second)].down.push_back({ pair.first, links });
        }
        m_pairs = pairs.size();
    }
    m_rates.assign(m_switches.size(), nullptr);
    relayout();
    setFrame(m_frame);
}

void LiveFabricView::setFrame(std::shared_ptr<const LiveFrame> frame)
{
    m_frame = std::move(frame);
    std::fill(m_rates.begin(), m_rates.end(), nullptr);
    if (m_frame && !m_switches.empty()) {
        // sweep.leaves is in plan order, as m_switches: one pass, with a lookup only where they differ.
        std::size_t s = 0;
        for (const live::GroupRates& g : m_frame->sweep.leaves) {
            while (s < m_switches.size() && m_switches[s].name != g.name)
                ++s;
            if (s == m_switches.size()) {
                s = 0;
                const int i = switchIndex(g.name);
                if (i >= 0)
                    m_rates[static_cast<std::size_t>(i)] = &g;
                continue;
            }
            m_rates[s] = &g;
        }
    }
    update();
}

int LiveFabricView::switchIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < m_switches.size(); ++i)
        if (m_switches[i].name == name)
            return static_cast<int>(i);
    return -1;
}

const std::string& LiveFabricView::switchName(int index) const
{
    static const std::string none;
    return index >= 0 && index < switchCount() ? m_switches[static_cast<std::size_t>(index)].name : none;
}

void LiveFabricView::select(int index)
{
    m_selected = index >= 0 && index < switchCount() ? index : -1;
    update();
}

const live::GroupRates* LiveFabricView::ratesOf(int index) const
{
    return index >= 0 && index < static_cast<int>(m_rates.size()) ? m_rates[static_cast<std::size_t>(index)] : nullptr;
}

double LiveFabricView::hostShare(int index) const
{
    const live::GroupRates* r = ratesOf(index);
    if (!r || r->ports == 0 || !m_plan || m_plan->summary.port.dataGbps <= 0)
        return -1;
    const Switch& s = m_switches[static_cast<std::size_t>(index)];
    // Against the uplinks where there are any; a lone leaf per rail against its host ports.
    const int links = s.uplinks > 0 ? s.uplinks : std::max(1, r->ports);
    return r->txGbps / (links * m_plan->summary.port.dataGbps);
}

QColor LiveFabricView::uplinkColour(int index) const
{
    const live::GroupRates* r = ratesOf(index);
    if (r && (r->health == live::Health::Congested || r->health == live::Health::Pausing))
        return kCongested;
    if (r && r->health == live::Health::Erroring)
        return kErroring;
    const double share = hostShare(index);
    return share < 0 ? kNoData : loadColour(share);
}

QColor LiveFabricView::switchColour(int index) const
{
    if (index < 0 || index >= switchCount())
        return kNoData;
    if (m_switches[static_cast<std::size_t>(index)].tier != core::SwitchTier::Leaf)
        return kSwitch;
    return uplinkColour(index);
}

void LiveFabricView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void LiveFabricView::relayout()
{
    m_rects.assign(m_switches.size(), QRect());
    m_spineBand = m_coreBand = {};
    if (m_switches.empty())
        return;
    const QFontMetrics fm(font());
    const int line = fm.height();
    const int w = width() - 2 * kMargin;
    const int tierLabel = std::max(fm.horizontalAdvance(tr("Spines")), fm.horizontalAdvance(tr("Cores"))) + 8;
    const int legend = line + 6;
    int counts[3] = { 0, 0, 0 };
    for (const Switch& s : m_switches)
        ++counts[static_cast<int>(s.tier)];
    const int bandWidth = std::max(1, w - tierLabel);
    const int gapH = std::max(24, height() / 8);
    int y = kMargin;
    // Cores, then spines: rows of boxes at least 4 px wide.
    for (const core::SwitchTier tier : { core::SwitchTier::Core, core::SwitchTier::Spine }) {
        const int n = counts[static_cast<int>(tier)];
        if (n == 0)
            continue;
        const int perRow = std::max(1, std::min(n, bandWidth / 4));
        const int rows = (n + perRow - 1) / perRow;
        const int boxW = std::clamp(bandWidth / perRow, 4, 80);
        const int boxH = rows == 1 ? std::min(20, std::max(8, line)) : std::max(3, 40 / rows);
        const int x0 = kMargin + tierLabel + (bandWidth - boxW * perRow) / 2;
        for (std::size_t i = 0; i < m_switches.size(); ++i) {
            const Switch& s = m_switches[i];
            if (s.tier != tier)
                continue;
            const int r = s.column / perRow, c = s.column % perRow;
            m_rects[i] = QRect(x0 + c * boxW, y + r * boxH, boxW, boxH);
        }
        (tier == core::SwitchTier::Core ? m_coreBand : m_spineBand) = QRect(kMargin, y, w, rows * boxH);
        y += rows * boxH + gapH;
    }
    // Leaves: a grid, wrapped into blocks when the SUs do not fit the height at 3 px a row.
    m_leafTop = y;
    const int header = line + 2;
    const int available = std::max(3, height() - kMargin - legend - m_leafTop - header);
    const int rows = std::max(1, m_leafRows), columns = std::max(1, m_leafColumns);
    m_blocks = std::max(1, (rows * 3 + available - 1) / available);
    m_rowsPerBlock = (rows + m_blocks - 1) / m_blocks;
    m_cellH = std::clamp(available / m_rowsPerBlock, 3, 26);
    int longest = 0;
    for (const QString& label : m_rowLabels)
        longest = std::max(longest, fm.horizontalAdvance(label));
    m_label = m_cellH >= line - 2 ? longest + 6 : 0;
    m_cellW = std::clamp((w - m_blocks * (m_label + kGap)) / (m_blocks * columns), 3, 72);
    m_blockWidth = m_label + columns * m_cellW + kGap;
    const int x0 = kMargin + std::max(0, (w - m_blocks * m_blockWidth + kGap) / 2);
    for (std::size_t i = 0; i < m_switches.size(); ++i) {
        const Switch& s = m_switches[i];
        if (s.tier != core::SwitchTier::Leaf)
            continue;
        const int block = s.row / m_rowsPerBlock, row = s.row % m_rowsPerBlock;
        m_rects[i] = QRect(x0 + block * m_blockWidth + m_label + s.column * m_cellW, m_leafTop + header + row * m_cellH, m_cellW, m_cellH);
    }
}

QRect LiveFabricView::switchRect(int index) const
{
    return index >= 0 && index < static_cast<int>(m_rects.size()) ? m_rects[static_cast<std::size_t>(index)] : QRect();
}

int LiveFabricView::switchAt(QPoint point) const
{
    for (std::size_t i = 0; i < m_rects.size(); ++i)
        if (m_rects[i].contains(point))
            return static_cast<int>(i);
    return -1;
}

QString LiveFabricView::switchText(int index) const
{
    if (index < 0 || index >= switchCount())
        return {};
    const Switch& s = m_switches[static_cast<std::size_t>(index)];
    QString text = QStringLiteral("<b>%1</b> (%2").arg(esc(s.name), tierName(s.tier));
    if (s.su > 0)
        text += tr(", SU %1").arg(s.su);
    if (s.rail >= 0)
        text += tr(", rail %1").arg(s.rail);
    if (s.plane > 0)
        text += tr(", plane %1").arg(s.plane);
    if (s.pod > 0)
        text += tr(", pod %1").arg(s.pod);
    text += QStringLiteral(")");
    const double line = m_plan ? m_plan->summary.port.dataGbps : 0;
    if (s.tier == core::SwitchTier::Leaf) {
        text += QStringLiteral("<br>") + tr("%1 host port(s) below; %2 uplink(s) to %3 switch(es) above (%4 Gb/s)").arg(s.downlinks).arg(s.uplinks).arg(s.up.size()).arg(fixed(s.uplinks * line, 0));
        const live::GroupRates* r = ratesOf(index);
        if (!r) {
            text += QStringLiteral("<br>") + tr("No rates yet from its hosts' ports.");
            return text;
        }
        text += QStringLiteral("<br>") + tr("Verdict: %1").arg(healthText(r->health));
        if (!r->reason.empty())
            text += QStringLiteral(": ") + esc(r->reason);
        text += QStringLiteral("<br>") + tr("Its %1 host port(s) send %2 Gb/s into it and receive %3 Gb/s").arg(r->ports).arg(fixed(r->txGbps, 0), fixed(r->rxGbps, 0));
        if (const double share = hostShare(index); share >= 0)
            text += QStringLiteral("<br>")
                + (s.uplinks > 0 ? tr("= %1 % of its uplink capacity (what can leave the leaf; the uplinks' own counters are not read here)").arg(fixed(100 * share, 0))
                                 : tr("= %1 % of its host ports' line rate (no uplinks: one leaf per rail)").arg(fixed(100 * share, 0)));
        text += QStringLiteral("<br>") + tr("XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s, link errors %5").arg(fixed(r->xmitWaitPerS, 0), fixed(r->ecnMarkedPerS, 0), fixed(r->cnpSentPerS, 0), fixed(r->pfcPausePerS, 0)).arg(r->linkErrors);
        return text;
    }
    int linksDown = 0;
    QStringList bad;
    for (const Peer& p : s.down) {
        linksDown += p.links;
        if (unhealthy(ratesOf(p.other)))
            bad << QString::fromStdString(m_switches[static_cast<std::size_t>(p.other)].name);
    }
    text += QStringLiteral("<br>") + tr("%1 link(s) down to %2 switch(es); %3 link(s) up to %4").arg(linksDown).arg(s.down.size()).arg(s.uplinks).arg(s.up.size());
    if (!bad.isEmpty())
        text += QStringLiteral("<br>") + tr("Unhealthy leaves below: %1").arg(bad.mid(0, 8).join(QStringLiteral(", ")).toHtmlEscaped() + (bad.size() > 8 ? QStringLiteral(", ...") : QString()));
    text += QStringLiteral("<br><i>") + tr("Its own ports' load needs the switch counters (live watch --switches); the hosts' agents do not see it.") + QStringLiteral("</i>");
    return text;
}

QString LiveFabricView::switchHtml(int index, const std::vector<LiveFinding>& findings) const
{
    if (index < 0 || index >= switchCount() || !m_plan)
        return tr("<p>Click a switch in the leaf/spine view to see its ports and findings.</p>");
    const core::Plan& p = *m_plan;
    const Switch& s = m_switches[static_cast<std::size_t>(index)];
    QString html = QStringLiteral("<h3>%1</h3><p>").arg(esc(s.name)) + switchText(index).section(QStringLiteral("<br>"), 1) + QStringLiteral("</p>");
    // The host ports' rates of the last sweep on this leaf, by node.
    std::unordered_map<std::string, const live::PortRates*> hostPorts;
    if (m_frame && s.tier == core::SwitchTier::Leaf)
        for (const live::PortRates& r : m_frame->sweep.ports)
            if (r.leaf == s.name)
                hostPorts.emplace(r.node, &r);
    QString below, above;
    int belowRows = 0, aboveRows = 0;
    constexpr int kMaxRows = 128;
    for (const core::Link& l : p.links) {
        if (!l.installed)
            continue;
        const bool down = m_leafOfDevice[l.b.device] == index;
        const bool up = m_leafOfDevice[l.a.device] == index;
        if (down && ++belowRows <= kMaxRows) {
            QString rates = QStringLiteral("<td></td><td></td>");
            if (l.tier == core::LinkTier::NodeLeaf) {
                const auto it = hostPorts.find(p.devices[l.a.device].name);
                if (it != hostPorts.end())
                    rates = QStringLiteral("<td align=right>%1</td><td align=right>%2</td>")
                                .arg(it->second->txGbps ? fixed(*it->second->txGbps, 1) : QStringLiteral("–"), it->second->rxGbps ? fixed(*it->second->rxGbps, 1) : QStringLiteral("–"));
            }
            below += QStringLiteral("<tr><td>%1</td><td>%2</td>%3</tr>").arg(l.b.port).arg(esc(p.portName(l.a))).arg(rates);
        }
        if (up && ++aboveRows <= kMaxRows)
            above += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td></tr>").arg(l.a.port).arg(esc(p.portName(l.b))).arg(fixed(p.summary.port.dataGbps, 0));
    }
    const auto more = [](int rows) { return rows > kMaxRows ? tr("<p>... and %1 more.</p>").arg(rows - kMaxRows) : QString(); };
    if (belowRows > 0)
        html += QStringLiteral("<h4>%1</h4><table cellspacing=0 cellpadding=2><tr><th>%2</th><th>%3</th><th align=right>%4</th><th align=right>%5</th></tr>%6</table>%7")
                    .arg(tr("Below (%1 ports)").arg(belowRows), tr("Port"), tr("Cabled to"), tr("Tx Gb/s"), tr("Rx Gb/s"), below, more(belowRows));
    if (aboveRows > 0)
        html += QStringLiteral("<h4>%1</h4><table cellspacing=0 cellpadding=2><tr><th>%2</th><th>%3</th><th align=right>%4</th></tr>%5</table>%6")
                    .arg(tr("Above (%1 uplinks)").arg(aboveRows), tr("Port"), tr("Cabled to"), tr("Line Gb/s"), above, more(aboveRows));
    QString list;
    for (const LiveFinding& f : findings) {
        const std::string& where = f.finding.where;
        if (where != s.name && where.rfind(s.name + "/", 0) != 0)
            continue;
        list += QStringLiteral("<li><b>%1 %2</b>: %3</li>")
                    .arg(f.finding.severity == core::Severity::Error ? tr("error") : f.finding.severity == core::Severity::Warning ? tr("warning") : tr("info"),
                        esc(f.finding.code), esc(f.finding.message));
    }
    html += QStringLiteral("<h4>%1</h4>").arg(tr("Findings"));
    html += list.isEmpty() ? tr("<p>None about this switch.</p>") : QStringLiteral("<ul>") + list + QStringLiteral("</ul>");
    return html;
}

void LiveFabricView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    m_linesPainted = 0;
    if (m_switches.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, tr("The plan has no switches to show yet."));
        return;
    }
    const QFontMetrics fm(font());
    const QColor text = palette().color(QPalette::Text);
    // Links, batched by colour (one drawLines per colour): every pair when they are few enough to
    // read; otherwise only the unhealthy leaves' and the selected switch's.
    const bool all = m_pairs <= kMaxLines;
    std::vector<QLine> grey, congested, erroring, selected;
    std::array<std::vector<QLine>, kLoadBuckets> load;
    for (std::size_t i = 0; i < m_switches.size(); ++i) {
        const Switch& s = m_switches[i];
        const QRect& from = m_rects[i];
        const live::GroupRates* r = s.tier == core::SwitchTier::Leaf ? m_rates[i] : nullptr;
        const bool bad = unhealthy(r);
        const bool chosen = static_cast<int>(i) == m_selected;
        if (!all && !bad && !chosen)
            continue;
        for (const Peer& p : s.up) {
            const QRect& to = m_rects[static_cast<std::size_t>(p.other)];
            // Leaves' links end above the rail labels, so that the labels stay readable.
            const int top = s.tier == core::SwitchTier::Leaf ? std::min(from.top(), m_leafTop) : from.top();
            const QLine segment(from.center().x(), top, to.center().x(), to.bottom());
            if (chosen || p.other == m_selected)
                selected.push_back(segment);
            else if (r && (r->health == live::Health::Congested || r->health == live::Health::Pausing))
                congested.push_back(segment);
            else if (r && r->health == live::Health::Erroring)
                erroring.push_back(segment);
            else if (const double share = s.tier == core::SwitchTier::Leaf ? hostShare(static_cast<int>(i)) : -1; share >= 0)
                load[static_cast<std::size_t>(std::clamp(static_cast<int>(share * kLoadBuckets), 0, kLoadBuckets - 1))].push_back(segment);
            else
                grey.push_back(segment);
        }
        if (!all && chosen)
            for (const Peer& p : s.down) {
                const QRect& to = m_rects[static_cast<std::size_t>(p.other)];
                selected.push_back(QLine(to.center().x(), m_switches[static_cast<std::size_t>(p.other)].tier == core::SwitchTier::Leaf ? std::min(to.top(), m_leafTop) : to.top(),
                    from.center().x(), from.bottom()));
            }
    }
    const auto draw = [&](const std::vector<QLine>& lines, const QColor& colour, qreal width) {
        if (lines.empty())
            return;
        painter.setPen(QPen(colour, width));
        painter.drawLines(lines.data(), static_cast<int>(lines.size()));
        m_linesPainted += lines.size();
    };
    draw(grey, kLink, 0);
    for (int b = 0; b < kLoadBuckets; ++b)
        draw(load[static_cast<std::size_t>(b)], loadColour((b + 0.5) / kLoadBuckets), 0);
    draw(erroring, kErroring, 1.5);
    draw(congested, kCongested, 1.5);
    draw(selected, palette().color(QPalette::Highlight), 2);

    // Switches.
    const int inset = m_cellW >= 6 && m_cellH >= 6 ? 1 : 0;
    for (std::size_t i = 0; i < m_switches.size(); ++i) {
        // Spines and cores side by side: a 1 px gap wherever a box is wide enough to keep one.
        const int gap = m_switches[i].tier == core::SwitchTier::Leaf ? inset : (m_rects[i].width() >= 4 ? 1 : 0);
        painter.fillRect(m_rects[i].adjusted(0, 0, -gap, -std::min(gap, inset + 1)), switchColour(static_cast<int>(i)));
    }
    // Labels: the tiers, the SUs and the rails, where there is room for them.
    painter.setPen(text);
    if (!m_coreBand.isEmpty())
        painter.drawText(QRect(m_coreBand.left(), m_coreBand.top(), 200, std::max(m_coreBand.height(), fm.height())), Qt::AlignLeft | Qt::AlignVCenter, tr("Cores"));
    if (!m_spineBand.isEmpty())
        painter.drawText(QRect(m_spineBand.left(), m_spineBand.top(), 200, std::max(m_spineBand.height(), fm.height())), Qt::AlignLeft | Qt::AlignVCenter, tr("Spines"));
    const int x0 = kMargin + std::max(0, (width() - 2 * kMargin - m_blocks * m_blockWidth + kGap) / 2);
    for (int block = 0; block < m_blocks; ++block) {
        const int bx = x0 + block * m_blockWidth;
        if (m_cellW >= fm.horizontalAdvance(QStringLiteral("r00")))
            for (int c = 0; c < m_leafColumns && c < static_cast<int>(m_columnLabels.size()); ++c)
                painter.drawText(QRect(bx + m_label + c * m_cellW, m_leafTop, m_cellW, fm.height()), Qt::AlignCenter, m_columnLabels[static_cast<std::size_t>(c)]);
        if (m_label > 0)
            for (int row = 0; row < m_rowsPerBlock; ++row) {
                const int index = block * m_rowsPerBlock + row;
                if (index >= static_cast<int>(m_rowLabels.size()))
                    break;
                painter.drawText(QRect(bx, m_leafTop + fm.height() + 2 + row * m_cellH, m_label - 4, m_cellH), Qt::AlignRight | Qt::AlignVCenter,
                    m_rowLabels[static_cast<std::size_t>(index)]);
            }
    }
    if (m_selected >= 0) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(m_rects[static_cast<std::size_t>(m_selected)].adjusted(-1, -1, 0, 0));
    }
    // Legend, bottom left.
    const int ly = height() - kMargin - fm.height();
    int lx = kMargin;
    const auto key = [&](const QColor& colour, const QString& label) {
        painter.fillRect(QRect(lx, ly + 2, 12, fm.height() - 4), colour);
        lx += 16;
        painter.setPen(text);
        painter.drawText(QRect(lx, ly, fm.horizontalAdvance(label) + 2, fm.height()), Qt::AlignVCenter, label);
        lx += fm.horizontalAdvance(label) + 14;
    };
    key(loadColour(0.05), tr("idle"));
    key(loadColour(1), tr("hosts' traffic at the uplinks' capacity"));
    key(kCongested, tr("congested or pausing"));
    key(kErroring, tr("erroring"));
    key(kNoData, tr("no rates"));
    if (!all) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(QRect(lx, ly, std::max(0, width() - lx - kMargin), fm.height()), Qt::AlignVCenter | Qt::AlignLeft,
            tr("%1 switch pairs: links drawn for the selected switch and unhealthy leaves").arg(m_pairs));
    }
    m_paintMs.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    if (m_paintMs.size() > kPaintSamples)
        m_paintMs.pop_front();
}

void LiveFabricView::mousePressEvent(QMouseEvent* event)
{
    const int index = switchAt(event->position().toPoint());
    if (index < 0)
        return;
    select(index);
    emit switchSelected(index);
}

bool LiveFabricView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = switchAt(help->pos());
        if (index < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), switchText(index), this, switchRect(index));
        return true;
    }
    return QWidget::event(event);
}

} // namespace railyard::app
