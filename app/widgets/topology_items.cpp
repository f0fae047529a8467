// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/topology_items.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <array>
#include <cmath>

namespace railyard::app::topo {

namespace {

    // Tableau 10 without its red, then four more that stay apart from those and from red.
    constexpr std::array<QRgb, 12> kRailPalette = { 0xff4e79a7, 0xfff28e2b, 0xff76b7b2, 0xff59a14f, 0xffedc948,
        0xffb07aa1, 0xffff9da7, 0xff9c755f, 0xff1f3a93, 0xff8cd17d, 0xff6b6ecf, 0xff17becf };

    constexpr qreal kLabelPx = 11;
    constexpr std::size_t kFaintBundles = 256;

    const QFont& labelFont()
    {
        static const QFont font = [] {
            QFont f;
            f.setPixelSize(static_cast<int>(kLabelPx));
            return f;
        }();
        return font;
    }

    const QFont& titleFont()
    {
        static const QFont font = [] {
            QFont f;
            f.setPixelSize(13);
            f.setBold(true);
            return f;
        }();
        return font;
    }

    qreal lodOf(const QPainter* painter, const QStyleOptionGraphicsItem* option)
    {
        return std::max<qreal>(option->levelOfDetailFromTransform(painter->worldTransform()), 1e-6);
    }

    QColor textOn(const QColor& fill)
    {
        const double y = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
        return y > 0.6 ? QColor(0x1d, 0x25, 0x2c) : QColor(Qt::white);
    }

    qreal distanceToSegment(const QPointF& p, const QLineF& l)
    {
        const QPointF d = l.p2() - l.p1();
        const qreal len2 = d.x() * d.x() + d.y() * d.y();
        qreal t = len2 > 0 ? ((p.x() - l.x1()) * d.x() + (p.y() - l.y1()) * d.y()) / len2 : 0;
        t = std::clamp<qreal>(t, 0, 1);
        const QPointF q = l.p1() + t * d;
        return std::hypot(p.x() - q.x(), p.y() - q.y());
    }

} // namespace

QColor railColor(int rail)
{
    if (rail < 0)
        return QColor(0x7d, 0x8b, 0x99);
    return QColor::fromRgba(kRailPalette[static_cast<std::size_t>(rail) % kRailPalette.size()]);
}

int railPaletteSize()
{
    return static_cast<int>(kRailPalette.size());
}

QColor failedColor() { return QColor(0xd6, 0x27, 0x28); }
QColor highlightColor() { return QColor(0xff, 0x8c, 0x00); }
QColor selectionColor() { return QColor(0x1f, 0x6f, 0xeb); }

// --- BoxItem ---------------------------------------------------------------------------

BoxItem::BoxItem(const QRectF& rect, Role role, QColor fill, std::vector<std::uint32_t> devices)
    : m_rect(rect)
    , m_role(role)
    , m_fill(fill)
    , m_text(textOn(fill))
    , m_devices(std::move(devices))
{
    setCacheMode(DeviceCoordinateCache);
    setZValue(isSwitch() ? 3 : 2);
    if (isSwitch())
        setFlag(ItemIsSelectable);
}

QRectF BoxItem::boundingRect() const
{
    return m_rect.adjusted(-4, -4, 4, 4);
}

void BoxItem::setLabels(QString full, QString brief, QString detail)
{
    m_full = std::move(full);
    m_brief = std::move(brief);
    m_detail = std::move(detail);
    update();
}

void BoxItem::setState(int failed, int planned, bool highlighted)
{
    if (failed == m_failed && planned == m_planned && highlighted == m_highlighted)
        return;
    m_failed = failed;
    m_planned = planned;
    m_highlighted = highlighted;
    update();
}

void BoxItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = lodOf(painter, option);
    const bool allPlanned = m_planned > 0 && m_planned == static_cast<int>(m_devices.size());
    QColor fill = m_fill;
    if (allPlanned || m_failed > 0)
        fill.setAlpha(allPlanned ? 80 : 110);
    QPen border(m_fill.darker(140), 1);
    border.setCosmetic(true);
    if (m_planned > 0)
        border.setStyle(Qt::DashLine);
    if (m_failed > 0) {
        border.setColor(failedColor());
        border.setWidthF(2);
        border.setStyle(Qt::DashLine);
    }
    painter->setPen(border);
    painter->setBrush(fill);
    const qreal radius = std::min<qreal>(3, m_rect.height() / 6);
    painter->drawRoundedRect(m_rect, radius, radius);

    if (m_failed > 0) {
        QPen cross(failedColor(), 2);
        cross.setCosmetic(true);
        painter->setPen(cross);
        painter->drawLine(m_rect.topLeft(), m_rect.bottomRight());
        painter->drawLine(m_rect.topRight(), m_rect.bottomLeft());
    }
    if (m_highlighted || (option->state & QStyle::State_Selected)) {
        QPen ring(m_highlighted ? highlightColor() : selectionColor(), 3);
        ring.setCosmetic(true);
        painter->setPen(ring);
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(m_rect.adjusted(-2 / lod, -2 / lod, 2 / lod, 2 / lod), radius, radius);
    }

    // Labels at a fixed screen size: the longest that fits, or none.
    const QSizeF screen = m_rect.size() * lod;
    if (screen.height() < kLabelPx + 2)
        return;
    const QFontMetricsF fm(labelFont());
    const qreal room = screen.width() - 4;
    const QString* text = nullptr;
    if (!m_full.isEmpty() && fm.horizontalAdvance(m_full) <= room)
        text = &m_full;
    else if (!m_brief.isEmpty() && fm.horizontalAdvance(m_brief) <= room)
        text = &m_brief;
    if (!text)
        return;
    const bool twoLines = !m_detail.isEmpty() && screen.height() >= 2 * kLabelPx + 6
        && fm.horizontalAdvance(m_detail) <= room;
    painter->save();
    painter->translate(m_rect.center());
    painter->scale(1 / lod, 1 / lod);
    painter->setFont(labelFont());
    painter->setPen(allPlanned || m_failed > 0 ? QColor(0x1d, 0x25, 0x2c) : m_text);
    const QRectF box(-screen.width() / 2, -screen.height() / 2, screen.width(), screen.height());
    if (twoLines) {
        const qreal h = fm.height();
        painter->drawText(QRectF(box.left(), -h, box.width(), h), Qt::AlignCenter, *text);
        painter->drawText(QRectF(box.left(), 0, box.width(), h), Qt::AlignCenter, m_detail);
    } else {
        painter->drawText(box, Qt::AlignCenter, *text);
    }
    painter->restore();
}

// --- WireItem --------------------------------------------------------------------------

WireItem::WireItem(Style style)
    : m_style(style)
{
    setZValue(style == Style::Bundle ? 1 : 0);
    setAcceptHoverEvents(true);
    // paint() draws only the lines crossing the exposed rectangle: panning stays cheap.
    setFlag(ItemUsesExtendedStyleOption);
}

QRectF WireItem::boundingRect() const
{
    return m_bounds;
}

QPainterPath WireItem::shape() const
{
    QPainterPath path;
    path.addRect(m_bounds);
    return path;
}

bool WireItem::contains(const QPointF& point) const
{
    return segmentAt(point) >= 0;
}

int WireItem::addSegment(const QLineF& line, int color)
{
    prepareGeometryChange();
    Segment s;
    s.line = line;
    s.color = color;
    m_segments.push_back(std::move(s));
    const QRectF r = QRectF(line.p1(), line.p2()).normalized().adjusted(-12, -12, 12, 12);
    m_bounds = m_bounds.isNull() ? r : m_bounds.united(r);
    return static_cast<int>(m_segments.size()) - 1;
}

int WireItem::segmentAt(const QPointF& point) const
{
    if (!m_bounds.contains(point))
        return -1;
    int best = -1;
    qreal bestDistance = m_tolerance;
    for (std::size_t i = 0; i < m_segments.size(); ++i) {
        const qreal d = distanceToSegment(point, m_segments[i].line);
        if (d <= bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QPen WireItem::penFor(const Segment& s) const
{
    const auto n = static_cast<double>(std::max<std::size_t>(1, s.links.size()));
    qreal width = m_style == Style::Bundle ? std::min(1.0 + std::log2(n) * 0.45, 4.0) : 1.0;
    QColor color = railColor(s.color);
    color.setAlpha(s.color >= 0 ? 150 : 120);
    if (m_style == Style::Bundle && m_segments.size() > kFaintBundles) {
        // Hundreds of long bundles (pods to cores) would hide the boxes: keep them a light wash.
        color.setAlpha(24);
        width = 1;
    }
    Qt::PenStyle style = Qt::SolidLine;
    if (s.planned > 0 && s.planned == s.links.size()) {
        color.setAlpha(70);
        style = Qt::DashLine;
    }
    if (s.selected) {
        color = selectionColor();
        width += 0.8;
    }
    if (s.failed > 0) {
        color = failedColor();
        width = std::max<qreal>(width, 1.6);
        style = Qt::DashLine;
    }
    if (s.highlighted) {
        color = highlightColor();
        width += 1.8;
    }
    QPen pen(color, width, style, Qt::FlatCap);
    pen.setCosmetic(true);
    return pen;
}

void WireItem::refresh()
{
    // Draw order: normal first, then selected, failed, highlighted on top.
    std::vector<std::size_t> order(m_segments.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto rank = [&](std::size_t i) {
        const auto& s = m_segments[i];
        return s.highlighted ? 3 : s.failed > 0 ? 2 : s.selected ? 1 : 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
    // Consecutive segments with the same pen share a batch; batches and their line arrays
    // are reused across refreshes.
    std::size_t used = 0;
    for (std::size_t i : order) {
        const QPen pen = penFor(m_segments[i]);
        if (used == 0 || !(m_batches[used - 1].pen == pen)) {
            if (used == m_batches.size())
                m_batches.emplace_back();
            m_batches[used].pen = pen;
            m_batches[used].lines.clear();
            ++used;
        }
        m_batches[used - 1].lines.push_back(m_segments[i].line);
    }
    m_batches.resize(used);
    update();
}

void WireItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const bool wash = m_style == Style::Bundle && m_segments.size() > kFaintBundles;
    painter->setRenderHint(QPainter::Antialiasing, !wash && (m_style == Style::Bundle || m_segments.size() < 4000));
    const QRectF exposed = option->exposedRect.adjusted(-2, -2, 2, 2);
    const bool culling = !exposed.contains(m_bounds);
    std::vector<QLineF>& visible = m_visible;
    for (const auto& b : m_batches) {
        painter->setPen(b.pen);
        if (!culling) {
            painter->drawLines(b.lines.data(), static_cast<int>(b.lines.size()));
            continue;
        }
        visible.clear();
        for (const QLineF& line : b.lines) {
            if (QRectF(line.p1(), line.p2()).normalized().adjusted(-1, -1, 1, 1).intersects(exposed))
                visible.push_back(line);
        }
        painter->drawLines(visible.data(), static_cast<int>(visible.size()));
    }
    if (m_hovered >= 0) {
        QPen pen(highlightColor(), 3, Qt::SolidLine, Qt::RoundCap);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLine(m_segments[static_cast<std::size_t>(m_hovered)].line);
    }
    if (m_style != Style::Bundle || m_segments.size() > kFaintBundles)
        return;
    // Link counts at the middle of bundles long enough on screen.
    const qreal lod = lodOf(painter, option);
    const QTransform world = painter->worldTransform();
    painter->save();
    painter->setWorldTransform(QTransform());
    painter->setFont(labelFont());
    const QFontMetricsF fm(labelFont());
    for (const auto& s : m_segments) {
        if (s.links.size() < 2 || s.line.length() * lod < 70)
            continue;
        const QString text = s.failed > 0 ? QStringLiteral("%1 (%2 \u2717)").arg(s.links.size()).arg(s.failed)
                                          : QString::number(s.links.size());
        const QPointF mid = world.map(s.line.pointAt(0.5));
        const QRectF r(mid.x() - fm.horizontalAdvance(text) / 2 - 3, mid.y() - fm.height() / 2,
            fm.horizontalAdvance(text) + 6, fm.height());
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 220));
        painter->drawRoundedRect(r, 3, 3);
        painter->setPen(s.failed > 0 ? failedColor() : QColor(0x3a, 0x45, 0x50));
        painter->drawText(r, Qt::AlignCenter, text);
    }
    painter->restore();
}

void WireItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    const int hovered = segmentAt(event->pos());
    if (hovered != m_hovered) {
        m_hovered = hovered;
        update();
    }
}

void WireItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*)
{
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
    }
}

// --- FrameItem -------------------------------------------------------------------------

FrameItem::FrameItem(const QRectF& rect, QString title, qreal titleRoom)
    : m_rect(rect)
    , m_title(std::move(title))
    , m_titleRoom(titleRoom)
{
    setZValue(-1);
}

QRectF FrameItem::boundingRect() const
{
    return m_rect;
}

void FrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    QPen pen(QColor(0xd5, 0xdb, 0xe1), 1);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(QColor(0xf3, 0xf5, 0xf8));
    painter->drawRoundedRect(m_rect, 8, 8);
    const qreal lod = lodOf(painter, option);
    const QFontMetricsF fm(titleFont());
    if (m_title.isEmpty() || m_rect.width() * lod < fm.horizontalAdvance(m_title) + 12 || m_titleRoom * lod < fm.height() + 8)
        return;
    painter->save();
    painter->translate(m_rect.topLeft());
    painter->scale(1 / lod, 1 / lod);
    painter->setFont(titleFont());
    painter->setPen(QColor(0x4a, 0x55, 0x61));
    painter->drawText(QPointF(8, 4 + fm.ascent()), m_title);
    painter->restore();
}

// --- RailLegend ------------------------------------------------------------------------

RailLegend::RailLegend(QWidget* parent)
    : QWidget(parent)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    QFont f = font();
    f.setPixelSize(11);
    setFont(f);
}

void RailLegend::setContent(int rails, const QString& mode)
{
    m_rails = rails;
    m_mode = mode;
    const QFontMetrics fm(font());
    const int swatches = 70 + rails * 34;
    const int keys = fm.horizontalAdvance(m_mode) + 20;
    resize(std::max({ swatches + 170, keys, 200 }), 2 * fm.height() + 18);
    update();
}

void RailLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QColor(0xd5, 0xdb, 0xe1));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    const QFontMetrics fm(font());
    const int y = 6 + fm.ascent();
    const QColor ink(0x4a, 0x55, 0x61);
    int x = 8;
    p.setPen(ink);
    p.drawText(x, y, tr("Rails"));
    x += fm.horizontalAdvance(tr("Rails")) + 8;
    for (int r = 0; r < m_rails; ++r) {
        p.setPen(Qt::NoPen);
        p.setBrush(railColor(r));
        p.drawRoundedRect(QRectF(x, y - fm.ascent() + 1, 12, 12), 2, 2);
        p.setPen(ink);
        p.drawText(x + 15, y, QString::number(r));
        x += 34;
    }
    auto key = [&](const QColor& c, const QString& text) {
        p.setPen(QPen(c, 2, Qt::DashLine));
        p.drawLine(x + 2, y - 4, x + 24, y - 4);
        p.setPen(ink);
        p.drawText(x + 28, y, text);
        x += 34 + fm.horizontalAdvance(text);
    };
    x += 6;
    key(failedColor(), tr("failed"));
    key(QColor(0x7d, 0x8b, 0x99, 110), tr("planned"));
    p.setPen(QColor(0x6a, 0x75, 0x81));
    p.drawText(8, y + fm.height() + 4, m_mode);
}

} // namespace railyard::app::topo
