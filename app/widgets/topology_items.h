// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <QCoreApplication>
#include <QColor>
#include <QGraphicsItem>
#include <QPen>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace railyard::app::topo {

/// Fixed rail palette (12 colours, no red: red means "failed"); rails beyond it repeat.
QColor railColor(int rail);
int railPaletteSize();
QColor failedColor();
QColor highlightColor();
QColor selectionColor();

enum ItemType { BoxType = QGraphicsItem::UserType + 1, WireType, FrameType };

/// A switch, a node, or (collapsed view) a group of them. Labels are drawn at a fixed screen
/// size and only when they fit, so they stay readable at every zoom.
class BoxItem : public QGraphicsItem {
public:
    enum class Role : std::uint8_t { Node, Management, Leaf, Spine, Core };
    BoxItem(const QRectF& rect, Role role, QColor fill, std::vector<std::uint32_t> devices);

    int type() const override { return BoxType; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    void setLabels(QString full, QString brief, QString detail = {});
    Role role() const { return m_role; }
    bool isSwitch() const { return m_role == Role::Leaf || m_role == Role::Spine || m_role == Role::Core; }
    const std::vector<std::uint32_t>& devices() const { return m_devices; }
    const QRectF& rect() const { return m_rect; }

    /// How many of the devices are failed / planned-not-installed; highlighted (finding).
    void setState(int failed, int planned, bool highlighted);
    int failedCount() const { return m_failed; }

private:
    QRectF m_rect;
    Role m_role;
    QColor m_fill;
    QColor m_text;
    std::vector<std::uint32_t> m_devices;
    QString m_full, m_brief, m_detail;
    int m_failed = 0;
    int m_planned = 0;
    bool m_highlighted = false;
};

/// The links of one tier and group, drawn as line segments; one segment per device pair
/// (expanded) or per group pair (collapsed, a bundle with its link count). Hit-testing
/// is per segment, so hover and context menus find the cable under the cursor.
class WireItem : public QGraphicsItem {
public:
    struct Segment {
        QLineF line;
        std::vector<std::uint32_t> links;
        int color = -1; ///< rail, or -1 for the neutral colour
        std::uint32_t failed = 0; ///< links failed or cut by a failed device
        std::uint32_t planned = 0;
        bool highlighted = false;
        bool selected = false; ///< touches the selected switch
    };
    enum class Style : std::uint8_t { Thin, Bundle };

    explicit WireItem(Style style);
    int type() const override { return WireType; }
    QRectF boundingRect() const override;
    bool contains(const QPointF& point) const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int addSegment(const QLineF& line, int color);
    Segment& segment(int index) { return m_segments[static_cast<std::size_t>(index)]; }
    const Segment& segment(int index) const { return m_segments[static_cast<std::size_t>(index)]; }
    int segmentCount() const { return static_cast<int>(m_segments.size()); }
    /// Segment within `tolerance` (item units) of `point`, or -1.
    int segmentAt(const QPointF& point) const;
    void setHitTolerance(qreal tolerance) { m_tolerance = tolerance; }
    /// Call after changing segment states or adding segments.
    void refresh();

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    struct Batch {
        QPen pen;
        std::vector<QLineF> lines;
    };
    QPen penFor(const Segment& s) const;

    Style m_style;
    std::vector<Segment> m_segments;
    std::vector<Batch> m_batches; ///< rebuilt on refresh(), reused by every paint
    std::vector<QLineF> m_visible; ///< scratch for paint(): the lines crossing the exposed area
    QRectF m_bounds;
    qreal m_tolerance = 3;
    int m_hovered = -1;
};

/// A light background box with a title: an SU, a pod, the spine or core layer.
class FrameItem : public QGraphicsItem {
public:
    /// `titleRoom`: scene units above the contents; the title shows only when it fits there.
    FrameItem(const QRectF& rect, QString title, qreal titleRoom);
    int type() const override { return FrameType; }
    QRectF boundingRect() const override;
    bool contains(const QPointF&) const override { return false; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF m_rect;
    QString m_title;
    qreal m_titleRoom;
};

/// The rail legend (palette swatches, failed/planned line keys, a line about the mode),
/// laid over the top-left corner of the view.
class RailLegend : public QWidget {
    Q_DECLARE_TR_FUNCTIONS(railyard::app::topo::RailLegend)

public:
    explicit RailLegend(QWidget* parent);
    void setContent(int rails, const QString& mode);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int m_rails = 0;
    QString m_mode;
};

} // namespace railyard::app::topo
