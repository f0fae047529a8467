// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_rail_chart.h"

#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScrollBar>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace railyard::app {

namespace {

    const std::array<QColor, 8> kRailColours { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
        QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf) };

    constexpr std::size_t kPaintSamples = 1000;

    /// A chart view that times its own paints (the benchmark's figure) and hands wheel turns on.
    class TimedChartView : public QChartView {
    public:
        using QChartView::QChartView;
        std::deque<double> paintMs;
        std::function<void(int steps)> zoom; ///< wheel up (> 0): a shorter window

    protected:
        void wheelEvent(QWheelEvent* event) override
        {
            const int steps = event->angleDelta().y() / 120;
            if (zoom && steps != 0) {
                zoom(steps);
                event->accept();
                return;
            }
            QChartView::wheelEvent(event);
        }

        void paintEvent(QPaintEvent* event) override
        {
            QElapsedTimer timer;
            timer.start();
            QChartView::paintEvent(event);
            paintMs.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
            if (paintMs.size() > kPaintSamples)
                paintMs.pop_front();
        }
    };

    double niceCeil(double value)
    {
        if (value <= 0)
            return 1;
        const double power = std::pow(10.0, std::floor(std::log10(value)));
        for (double step : { 1.0, 2.0, 2.5, 5.0, 10.0 })
            if (value <= step * power)
                return step * power;
        return 10 * power;
    }

    /// The y axis from 0 to `top`: labels with as many decimals as its tick step needs (0, 0.25,
    /// 0.5, ... for a top of 1, not "0 0 1 1 1").
    void setYRange(QValueAxis* y, double top)
    {
        y->setRange(0, top);
        const double step = top / std::max(1, y->tickCount() - 1);
        int decimals = 0;
        for (double scaled = step; decimals < 6 && std::abs(scaled - std::round(scaled)) > 1e-9 * std::max(1.0, scaled); scaled *= 10)
            ++decimals;
        y->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    }

} // namespace

struct LiveRailChart::Private {
    Kind kind = Kind::Throughput;
    bool roce = false;
    double lineRate = 0;
    double window = 300;
    bool paused = false;
    const std::vector<std::deque<RailSample>>* series = nullptr; ///< the session's, last given
    double now = 0;              ///< the newest time shown while live (frozen while paused)
    std::optional<double> end;   ///< the window's end when scrolled back; none: it follows the newest sample
    QScrollBar* scroll = nullptr;
    QChart* chart = nullptr;
    TimedChartView* view = nullptr;
    QValueAxis* x = nullptr;
    QValueAxis* y = nullptr;
    std::vector<QLineSeries*> primary, secondary; ///< per rail
    QLineSeries* reference = nullptr;
};

LiveRailChart::LiveRailChart(Kind kind, QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->kind = kind;
    d->chart = new QChart();
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = d->chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    d->chart->legend()->setFont(small);
    d->chart->setMargins(QMargins(2, 2, 2, 2));
    d->x = new QValueAxis(d->chart);
    d->x->setLabelFormat(tr("%.0f s"));
    d->y = new QValueAxis(d->chart);
    d->y->setTitleText(kind == Kind::Throughput ? tr("Gb/s per port") : tr("per second"));
    setToolTip(kind == Kind::Throughput ? tr("Each rail's mean throughput per port: sent solid, received dashed; the plan's line rate dashed grey")
                                        : tr("Each rail's congestion signals, summed over its ports"));
    d->chart->addAxis(d->x, Qt::AlignBottom);
    d->chart->addAxis(d->y, Qt::AlignLeft);
    d->view = new TimedChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing, false); // thousands of segments: sharp and fast
    d->view->setMinimumHeight(160);
    d->view->zoom = [this](int steps) { zoomBy(steps); };
    // Scrolled back through the kept samples (LiveSession::kSeriesCapacity); at its right end the
    // window follows the newest sample again.
    d->scroll = new QScrollBar(Qt::Horizontal, this);
    d->scroll->setToolTip(tr("Scroll back through the samples kept; at the right end the chart follows the newest. The mouse wheel on the chart zooms."));
    d->scroll->setRange(0, 0);
    connect(d->scroll, &QScrollBar::valueChanged, this, [this](int value) {
        if (!d->series)
            return;
        const double oldest = oldestSample();
        const double latest = std::max(d->window, d->now);
        const double end = oldest + d->window + value;
        d->end = value >= d->scroll->maximum() || end >= latest ? std::nullopt : std::optional<double>(end);
        redraw();
        emit viewChanged(d->window, d->end);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(d->view, 1);
    layout->addWidget(d->scroll);
}

LiveRailChart::~LiveRailChart() = default;

void LiveRailChart::configure(int rails, bool roce, double lineRateGbps)
{
    d->chart->removeAllSeries();
    d->primary.clear();
    d->secondary.clear();
    d->reference = nullptr;
    d->roce = roce;
    d->lineRate = lineRateGbps;
    if (d->kind == Kind::Congestion)
        d->y->setTitleText(roce ? tr("ECN marks, PFC pauses /s") : tr("XmitWait ticks/s"));
    auto add = [&](const QString& name, const QColor& colour, bool dashed, bool legend) {
        auto* s = new QLineSeries(d->chart);
        s->setName(name);
        QPen pen(colour);
        pen.setWidthF(1.5);
        if (dashed)
            pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        d->chart->addSeries(s);
        s->attachAxis(d->x);
        s->attachAxis(d->y);
        if (!legend)
            for (QLegendMarker* m : d->chart->legend()->markers(s))
                m->setVisible(false);
        return s;
    };
    for (int r = 0; r < rails; ++r) {
        const QColor colour = kRailColours[static_cast<std::size_t>(r) % kRailColours.size()];
        d->primary.push_back(add(tr("rail %1").arg(r), colour, false, true));
        const bool second = d->kind == Kind::Throughput || roce;
        d->secondary.push_back(second ? add(QString(), colour, true, false) : nullptr);
    }
    if (d->kind == Kind::Throughput && lineRateGbps > 0)
        d->reference = add(tr("line rate"), QColor(0x60, 0x60, 0x60), true, true);
    d->x->setRange(0, d->window);
    setYRange(d->y, d->kind == Kind::Throughput && lineRateGbps > 0 ? niceCeil(lineRateGbps * 1.1) : 1);
}

void LiveRailChart::setSeries(const std::vector<std::deque<RailSample>>& series, double now)
{
    d->series = &series;
    if (d->paused)
        return;
    d->now = now;
    redraw();
}

double LiveRailChart::oldestSample() const
{
    double oldest = d->now;
    if (d->series)
        for (const auto& rail : *d->series)
            if (!rail.empty())
                oldest = std::min(oldest, rail.front().t);
    return oldest;
}

void LiveRailChart::redraw()
{
    // The window [to - window, to]: up to the newest sample, or where it was scrolled back to.
    const double latest = std::max(d->window, d->now);
    const double oldest = oldestSample();
    const double to = d->end ? std::clamp(*d->end, std::min(latest, oldest + d->window), latest) : latest;
    const double from = to - d->window;
    double top = d->kind == Kind::Throughput ? d->lineRate * 1.1 : 0;
    for (std::size_t r = 0; r < d->primary.size(); ++r) {
        QList<QPointF> a, b;
        if (d->series && r < d->series->size()) {
            const std::deque<RailSample>& rail = (*d->series)[r];
            // The samples are in time order: start at the first inside the window.
            auto it = std::lower_bound(rail.begin(), rail.end(), from, [](const RailSample& s, double t) { return s.t < t; });
            for (; it != rail.end() && it->t <= to; ++it) {
                const RailSample& s = *it;
                // A rail's aggregate over its ports: per-port figures are in the grid.
                double first = 0, second = 0;
                if (d->kind == Kind::Throughput) {
                    first = s.txGbps;
                    second = s.rxGbps;
                } else if (d->roce) {
                    first = s.ecnMarkedPerS;
                    second = s.pfcPausePerS;
                } else {
                    first = s.xmitWaitPerS;
                }
                a.append({ s.t, first });
                b.append({ s.t, second });
                top = std::max({ top, first, second });
            }
        }
        d->primary[r]->replace(a);
        if (d->secondary[r])
            d->secondary[r]->replace(b);
    }
    if (d->reference)
        d->reference->replace(QList<QPointF> { { from, d->lineRate }, { to, d->lineRate } });
    d->x->setRange(from, to);
    setYRange(d->y, niceCeil(top));
    // The scroll bar: whole seconds from the oldest sample's window to the newest.
    const QSignalBlocker quiet(d->scroll);
    const int span = static_cast<int>(std::max(0.0, std::floor(latest - (oldest + d->window))));
    d->scroll->setRange(0, span);
    d->scroll->setPageStep(static_cast<int>(d->window));
    d->scroll->setSingleStep(std::max(1, static_cast<int>(d->window / 10)));
    d->scroll->setValue(d->end ? static_cast<int>(std::round(to - d->window - oldest)) : span);
}

void LiveRailChart::zoomBy(int steps)
{
    // Each wheel step: a window 1.5 times shorter (up) or longer (down), 10 s to the samples kept.
    const double factor = std::pow(1.5, -steps);
    setView(std::clamp(d->window * factor, 10.0, static_cast<double>(LiveSession::kSeriesCapacity)), d->end);
    emit viewChanged(d->window, d->end);
}

void LiveRailChart::setView(double windowSeconds, std::optional<double> end)
{
    d->window = std::max(10.0, windowSeconds);
    d->end = end;
    redraw();
}

std::optional<double> LiveRailChart::viewEnd() const
{
    return d->end;
}

std::pair<double, double> LiveRailChart::visibleRange() const
{
    return { d->x->min(), d->x->max() };
}

QScrollBar* LiveRailChart::scrollBar() const
{
    return d->scroll;
}

void LiveRailChart::setWindowSeconds(double seconds)
{
    d->window = std::max(10.0, seconds);
}

double LiveRailChart::windowSeconds() const
{
    return d->window;
}

void LiveRailChart::setPaused(bool paused)
{
    d->paused = paused;
}

bool LiveRailChart::isPaused() const
{
    return d->paused;
}

int LiveRailChart::pointCount(int rail) const
{
    return rail >= 0 && rail < static_cast<int>(d->primary.size()) ? static_cast<int>(d->primary[static_cast<std::size_t>(rail)]->count()) : 0;
}

const std::deque<double>& LiveRailChart::paintTimesMs() const
{
    return d->view->paintMs;
}

} // namespace railyard::app
