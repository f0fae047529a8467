// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_grid.h"

#include "app/models/live_findings_model.h"
#include "core/text.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace railyard::app {

namespace {

    constexpr int kMargin = 4;
    constexpr int kStripe = 4; ///< connection state stripe left of a node's cells
    constexpr int kGap = 10;   ///< between columns of nodes
    constexpr std::size_t kPaintSamples = 1000;

    const QColor kNoData(0xd8, 0xd8, 0xd8);
    const QColor kLost(0x55, 0x55, 0x55);
    const QColor kGood(0x3c, 0xa0, 0x5a);
    const QColor kWarn(0xe8, 0x9a, 0x1c);
    const QColor kBad(0xc8, 0x2a, 0x2a);

    QColor mix(const QColor& a, const QColor& b, double t)
    {
        t = std::clamp(t, 0.0, 1.0);
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t), static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
    }

    /// 0 idle (pale) .. 1 line rate (deep blue).
    QColor throughputColour(double share)
    {
        static const QColor low(0xf4, 0xf1, 0xe8), mid(0x7f, 0xb2, 0xd8), high(0x12, 0x4a, 0x94);
        return share < 0.5 ? mix(low, mid, share * 2) : mix(mid, high, (share - 0.5) * 2);
    }

    /// The strongest congestion signal of a cell against its threshold (1 = at the threshold).
    double congestionLevel(const LiveCell& c)
    {
        static const live::CongestionThresholds t;
        return std::max({ c.xmitWaitPerS / t.xmitWaitMinPerS, c.ecnMarkedPerS / t.ecnMarkedPerS, c.pfcPausePerS / t.pausePerS });
    }

    QColor congestionColour(double level)
    {
        if (level <= 0)
            return kGood;
        // Logarithmic: a hundredth of the threshold is a tint, the threshold is amber, ten times it red.
        const double x = std::clamp((std::log10(level) + 2) / 3, 0.0, 1.0);
        return x < 2.0 / 3 ? mix(kGood, kWarn, x * 1.5) : mix(kWarn, kBad, (x - 2.0 / 3) * 3);
    }

    QColor linkColour(NodeLink link)
    {
        switch (link) {
        case NodeLink::Waiting: return kNoData;
        case NodeLink::Connected: return kGood;
        case NodeLink::Slow: return kWarn;
        case NodeLink::Lost: return kBad;
        }
        return kNoData;
    }

    QString fixed(double v, int decimals)
    {
        return QString::fromStdString(core::formatFixed(v, decimals));
    }

} // namespace

LiveGrid::LiveGrid(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QSize LiveGrid::sizeHint() const
{
    return { 640, 420 };
}

QSize LiveGrid::minimumSizeHint() const
{
    return { 200, 120 };
}

void LiveGrid::setFrame(std::shared_ptr<const LiveFrame> frame)
{
    const bool shape = !m_frame || !frame || m_frame->nodes.size() != frame->nodes.size() || m_frame->rails != frame->rails;
    m_frame = std::move(frame);
    if (shape)
        relayout();
    update();
}

void LiveGrid::setColour(Colour colour)
{
    m_colour = colour;
    update();
}

void LiveGrid::setMarks(std::map<std::string, core::Severity> marks)
{
    m_marks = std::move(marks);
    update();
}

void LiveGrid::select(int node, int rail)
{
    m_selectedNode = node;
    m_selectedRail = node < 0 ? -1 : rail;
    update();
}

int LiveGrid::nodeIndex(const std::string& name) const
{
    if (!m_frame)
        return -1;
    for (std::size_t i = 0; i < m_frame->nodes.size(); ++i)
        if (m_frame->nodes[i].node == name)
            return static_cast<int>(i);
    return -1;
}

void LiveGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void LiveGrid::relayout()
{
    m_layout = {};
    if (!m_frame || m_frame->nodes.empty())
        return;
    const int n = static_cast<int>(m_frame->nodes.size());
    const int rails = m_frame->rails;
    const int w = width() - 2 * kMargin, h = height() - 2 * kMargin;
    const QFontMetrics fm(font());
    int longest = 0;
    for (const NodeConnection& node : m_frame->nodes)
        longest = std::max(longest, fm.horizontalAdvance(QString::fromStdString(node.node)));
    // The largest cell for which every node fits; names and the rail header only where there is room.
    for (int cell = 28; cell >= 1; --cell) {
        Layout l;
        l.cell = cell;
        l.label = cell >= fm.height() - 2 ? longest + 6 : 0;
        l.header = cell >= 10 ? fm.height() + 2 : 0;
        l.blockWidth = l.label + kStripe + 1 + rails * cell + kGap;
        l.columns = std::max(1, (w + kGap) / l.blockWidth);
        l.rowsPerColumn = (n + l.columns - 1) / l.columns;
        if (l.header + l.rowsPerColumn * cell <= h || cell == 1) {
            // Use as few columns as the height allows, so the grid reads top to bottom.
            l.rowsPerColumn = std::max(l.rowsPerColumn, std::min(n, (h - l.header) / cell));
            l.columns = (n + l.rowsPerColumn - 1) / std::max(1, l.rowsPerColumn);
            m_layout = l;
            return;
        }
    }
}

QRect LiveGrid::cellRect(int node, int rail) const
{
    const Layout& l = m_layout;
    if (!m_frame || l.cell == 0 || l.rowsPerColumn == 0 || node < 0 || node >= static_cast<int>(m_frame->nodes.size()))
        return {};
    const int column = node / l.rowsPerColumn, row = node % l.rowsPerColumn;
    const int x0 = kMargin + column * l.blockWidth + l.label + kStripe + 1;
    const int y = kMargin + l.header + row * l.cell;
    if (rail < 0)
        return QRect(x0 - kStripe - 1 - l.label, y, l.label + kStripe + 1 + m_frame->rails * l.cell, l.cell);
    return QRect(x0 + rail * l.cell, y, l.cell, l.cell);
}

std::pair<int, int> LiveGrid::cellAt(QPoint p) const
{
    const Layout& l = m_layout;
    if (!m_frame || l.cell == 0 || l.rowsPerColumn == 0)
        return { -1, -1 };
    const int column = (p.x() - kMargin) / l.blockWidth;
    const int row = (p.y() - kMargin - l.header) / l.cell;
    if (p.x() < kMargin || p.y() < kMargin + l.header || row >= l.rowsPerColumn)
        return { -1, -1 };
    const int node = column * l.rowsPerColumn + row;
    if (node < 0 || node >= static_cast<int>(m_frame->nodes.size()))
        return { -1, -1 };
    const int x = p.x() - kMargin - column * l.blockWidth - l.label - kStripe - 1;
    const int rail = x < 0 ? -1 : x / l.cell;
    return { node, rail < m_frame->rails ? rail : -1 };
}

std::optional<core::Severity> LiveGrid::markOf(int node, int rail) const
{
    if (m_marks.empty() || !m_frame)
        return std::nullopt;
    const std::string& name = m_frame->nodes[static_cast<std::size_t>(node)].node;
    std::optional<core::Severity> worst;
    for (const std::string& key : { name, name + "/" + std::to_string(rail) })
        if (const auto it = m_marks.find(key); it != m_marks.end() && (!worst || it->second < *worst))
            worst = it->second;
    return worst;
}

QColor LiveGrid::cellColour(int node, int rail) const
{
    if (!m_frame || node < 0 || node >= static_cast<int>(m_frame->nodes.size()) || rail < 0 || rail >= m_frame->rails)
        return kNoData;
    const NodeConnection& n = m_frame->nodes[static_cast<std::size_t>(node)];
    const LiveCell& c = m_frame->cell(static_cast<std::size_t>(node), rail);
    if (n.link == NodeLink::Lost)
        return kLost;
    if (m_colour == Colour::Health) {
        const auto mark = markOf(node, rail);
        if (c.linkErrors > 0 || mark == core::Severity::Error)
            return kBad;
        if (mark == core::Severity::Warning || n.link == NodeLink::Slow)
            return kWarn;
        return c.present ? kGood : kNoData;
    }
    if (!c.present)
        return kNoData;
    if (m_colour == Colour::Congestion)
        return congestionColour(congestionLevel(c));
    return throughputColour(m_frame->lineRateGbps > 0 ? c.txGbps / m_frame->lineRateGbps : 0);
}

QString LiveGrid::cellText(int node, int rail) const
{
    if (!m_frame || node < 0 || node >= static_cast<int>(m_frame->nodes.size()))
        return {};
    const NodeConnection& n = m_frame->nodes[static_cast<std::size_t>(node)];
    QString text = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(n.node).toHtmlEscaped());
    if (rail >= 0)
        text += tr(", rail %1").arg(rail);
    text += QStringLiteral("<br>") + tr("Agent: %1").arg(LiveNodesModel::linkText(n.link));
    if (n.link != NodeLink::Waiting)
        text += tr(" (%1 ms)").arg(n.latencyMs);
    if (!n.lastError.empty())
        text += QStringLiteral("<br>") + tr("Last error: %1").arg(QString::fromStdString(n.lastError).toHtmlEscaped());
    if (rail < 0 || rail >= m_frame->rails)
        return text;
    const LiveCell& c = m_frame->cell(static_cast<std::size_t>(node), rail);
    if (c.port >= 0) {
        const live::PortRates& p = m_frame->sweep.ports[static_cast<std::size_t>(c.port)];
        text += QStringLiteral("<br>") + tr("Port: %1 port %2, leaf %3").arg(QString::fromStdString(p.device)).arg(p.port).arg(QString::fromStdString(p.leaf));
    }
    if (!c.present) {
        text += QStringLiteral("<br>") + tr("No rates yet for this port.");
    } else {
        const double share = m_frame->lineRateGbps > 0 ? 100.0 * c.txGbps / m_frame->lineRateGbps : 0;
        text += QStringLiteral("<br>") + tr("Sent %1 Gb/s (%2 % of %3), received %4 Gb/s").arg(fixed(c.txGbps, 1), fixed(share, 0), fixed(m_frame->lineRateGbps, 0), fixed(c.rxGbps, 1));
        text += QStringLiteral("<br>") + tr("XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s").arg(fixed(c.xmitWaitPerS, 0), fixed(c.ecnMarkedPerS, 0), fixed(c.cnpPerS, 0), fixed(c.pfcPausePerS, 0));
        text += QStringLiteral("<br>") + tr("Link errors this interval: %1").arg(c.linkErrors);
    }
    if (const auto mark = markOf(node, rail))
        text += QStringLiteral("<br>") + (*mark == core::Severity::Error ? tr("Check: error findings here") : tr("Check: warnings here"));
    return text;
}

void LiveGrid::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const Layout& l = m_layout;
    if (!m_frame || l.cell == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
            tr("Not connected. Press Demo fabric to emulate the current plan, or open the agents.json of a fabric."));
        return;
    }
    const int rails = m_frame->rails;
    const int n = static_cast<int>(m_frame->nodes.size());
    const int inset = l.cell >= 6 ? 1 : 0; // a hairline between cells when there is room for it
    painter.setPen(palette().color(QPalette::Text));
    for (int column = 0; column < l.columns && l.header > 0; ++column) {
        for (int r = 0; r < rails; ++r) {
            const QRect c = cellRect(column * l.rowsPerColumn, r);
            painter.drawText(QRect(c.x(), kMargin, l.cell, l.header), Qt::AlignCenter, QString::number(r));
        }
    }
    for (int node = 0; node < n; ++node) {
        const QRect row = cellRect(node, -1);
        if (!row.intersects(rect()))
            continue;
        const NodeConnection& info = m_frame->nodes[static_cast<std::size_t>(node)];
        if (l.label > 0) {
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRect(row.x(), row.y(), l.label - 4, l.cell), Qt::AlignVCenter | Qt::AlignRight, QString::fromStdString(info.node));
        }
        painter.fillRect(QRect(row.x() + l.label, row.y() + inset, kStripe, l.cell - inset), linkColour(info.link));
        for (int r = 0; r < rails; ++r)
            painter.fillRect(cellRect(node, r).adjusted(0, 0, -inset, -inset), cellColour(node, r));
    }
    if (m_selectedNode >= 0 && m_selectedNode < n) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(m_selectedNode, m_selectedRail).adjusted(-1, -1, 0, 0));
    }
    m_paintMs.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    if (m_paintMs.size() > kPaintSamples)
        m_paintMs.pop_front();
}

void LiveGrid::mousePressEvent(QMouseEvent* event)
{
    const auto [node, rail] = cellAt(event->position().toPoint());
    if (node < 0)
        return;
    select(node, rail);
    emit cellSelected(node, rail);
}

bool LiveGrid::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [node, rail] = cellAt(help->pos());
        if (node < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), cellText(node, rail), this, cellRect(node, rail));
        return true;
    }
    return QWidget::event(event);
}

} // namespace railyard::app
