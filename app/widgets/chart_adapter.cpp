// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/chart_adapter.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace railyard::app {

struct ChartAdapter::Private {
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QLabel* note = nullptr;
    std::array<QLineSeries*, 2> series {};
    QAbstractAxis* x = nullptr;
    std::array<QValueAxis*, 2> y {};
    bool logX = false;
};

namespace {

    /// Round `value` up to a "nice" axis end: 1, 2, 2.5 or 5 times a power of ten.
    double niceCeil(double value)
    {
        if (value <= 0)
            return 1;
        const double power = std::pow(10.0, std::floor(std::log10(value)));
        for (double step : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
            if (value <= step * power)
                return step * power;
        }
        return 10 * power;
    }

} // namespace

ChartAdapter::ChartAdapter(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->chart = new QChart();
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->chart->setMargins(QMargins(4, 4, 4, 4));
    const std::array<QColor, 2> colours { QColor(0x1f, 0x5f, 0xa8), QColor(0xc0, 0x5a, 0x10) };
    for (int i = 0; i < 2; ++i) {
        auto* s = new QLineSeries(d->chart);
        s->setPointsVisible(true);
        QPen pen(colours[static_cast<std::size_t>(i)]);
        pen.setWidth(2);
        s->setPen(pen);
        d->chart->addSeries(s);
        d->series[static_cast<std::size_t>(i)] = s;
        auto* axis = new QValueAxis(d->chart);
        axis->setLabelFormat(QStringLiteral("%.0f"));
        axis->setLinePenColor(colours[static_cast<std::size_t>(i)]);
        axis->setLabelsColor(colours[static_cast<std::size_t>(i)]);
        axis->setTitleBrush(colours[static_cast<std::size_t>(i)]);
        d->chart->addAxis(axis, i == 0 ? Qt::AlignLeft : Qt::AlignRight);
        s->attachAxis(axis);
        d->y[static_cast<std::size_t>(i)] = axis;
    }
    setLogarithmicX(false);

    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setMinimumHeight(260);
    d->note = new QLabel(this);
    d->note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view, 1);
    layout->addWidget(d->note);
}

ChartAdapter::~ChartAdapter() = default;

void ChartAdapter::setTitle(const QString& title)
{
    d->chart->setTitle(title);
}

void ChartAdapter::setAxisTitles(const QString& x, const QString& left, const QString& right)
{
    d->x->setTitleText(x);
    d->y[Left]->setTitleText(left);
    d->y[Right]->setTitleText(right);
    d->series[Left]->setName(left);
    d->series[Right]->setName(right);
}

void ChartAdapter::setLogarithmicX(bool log)
{
    if (d->x && d->logX == log)
        return;
    d->logX = log;
    const QString title = d->x ? d->x->titleText() : QString();
    if (d->x) {
        for (auto* s : d->series)
            s->detachAxis(d->x);
        d->chart->removeAxis(d->x);
        delete d->x;
    }
    if (log) {
        auto* axis = new QLogValueAxis(d->chart);
        axis->setBase(2);
        axis->setLabelFormat(QStringLiteral("%.0f"));
        axis->setMinorTickCount(-1);
        d->x = axis;
    } else {
        auto* axis = new QValueAxis(d->chart);
        axis->setLabelFormat(QStringLiteral("%.0f"));
        d->x = axis;
    }
    d->x->setTitleText(title);
    d->chart->addAxis(d->x, Qt::AlignBottom);
    for (auto* s : d->series)
        s->attachAxis(d->x);
    rescale();
}

void ChartAdapter::clear()
{
    for (auto* s : d->series)
        s->clear();
    rescale();
    emit pointsChanged();
}

void ChartAdapter::addPoint(Series series, QPointF point)
{
    QList<QPointF> list = points(series);
    list.append(point);
    std::sort(list.begin(), list.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    setPoints(series, list);
}

void ChartAdapter::setPoints(Series series, const QList<QPointF>& list)
{
    d->series[series]->replace(list);
    rescale();
    emit pointsChanged();
}

QList<QPointF> ChartAdapter::points(Series series) const
{
    return d->series[series]->points();
}

void ChartAdapter::setNote(const QString& note)
{
    d->note->setText(note);
}

QString ChartAdapter::note() const
{
    return d->note->text();
}

void ChartAdapter::rescale()
{
    double minX = 0, maxX = 0;
    bool any = false;
    for (std::size_t i = 0; i < 2; ++i) {
        double maxY = 0;
        for (const QPointF& p : d->series[i]->points()) {
            maxY = std::max(maxY, p.y());
            minX = any ? std::min(minX, p.x()) : p.x();
            maxX = any ? std::max(maxX, p.x()) : p.x();
            any = true;
        }
        d->y[i]->setRange(0, niceCeil(maxY * 1.05));
    }
    if (!any) {
        d->x->setRange(1, 2);
        return;
    }
    if (d->logX)
        d->x->setRange(std::max(1.0, minX / 1.25), maxX * 1.25);
    else {
        const double pad = std::max(1.0, (maxX - minX) * 0.05);
        auto* axis = static_cast<QValueAxis*>(d->x);
        axis->setRange(std::max(0.0, minX - pad), maxX + pad);
        axis->applyNiceNumbers();
    }
}

} // namespace railyard::app
