// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>

namespace railyard::app {

/// The one place that knows the chart library (STYLE §6.4): a line chart of up to two
/// series against a shared x axis, the first on a left axis, the second on a right axis.
/// Qt Charts is deprecated from Qt 6.10; moving to Qt Graphs changes only this file.
class ChartAdapter : public QWidget {
    Q_OBJECT
public:
    enum Series { Left = 0, Right = 1 };

    explicit ChartAdapter(QWidget* parent = nullptr);
    ~ChartAdapter() override;

    void setTitle(const QString& title);
    /// Axis titles; also names the series in the legend.
    void setAxisTitles(const QString& x, const QString& left, const QString& right);
    /// Logarithmic x axis (base 2) for sizes that span an order of magnitude or more.
    void setLogarithmicX(bool log);
    /// Removes every point; axes keep their titles.
    void clear();
    /// Adds one point to a series; axes grow to fit. Points may arrive out of x order.
    void addPoint(Series series, QPointF point);
    /// Replaces a series in bulk.
    void setPoints(Series series, const QList<QPointF>& points);
    QList<QPointF> points(Series series) const;
    /// A line under the chart ("Planning 3 of 8 sizes...").
    void setNote(const QString& note);
    QString note() const;

signals:
    void pointsChanged();

private:
    void rescale();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace railyard::app
