// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_test_result.h"

#include "app/models/live_history_model.h"
#include "app/models/run_results.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace railyard::app {

namespace {

    /// The widest the result table takes of the row it shares with the chart.
    constexpr int kTableWidth = 640;

    QString qs(const std::string& s) { return QString::fromStdString(s); }

    QColor launchColour(int launch)
    {
        // One hue per rail, dark grey for the run over every rail.
        return launch < 0 ? QColor(0x33, 0x33, 0x33) : QColor::fromHsv((launch * 360 / 8 + 200) % 360, 200, 200);
    }

    QTableWidgetItem* item(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
    {
        auto* i = new QTableWidgetItem(text);
        i->setTextAlignment(align);
        i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        return i;
    }

    QString figure(const std::optional<double>& v, int digits)
    {
        return v ? QString::number(*v, 'f', digits) : QStringLiteral("-");
    }

    QTableWidget* table(QWidget* parent, const QStringList& headers)
    {
        auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
        t->setHorizontalHeaderLabels(headers);
        t->verticalHeader()->hide();
        t->horizontalHeader()->setStretchLastSection(true);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->setWordWrap(false);
        // Compact rows: the page shares the workspace's lower half with its tab bar.
        t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
        return t;
    }

} // namespace

namespace {

    /// The position of `bytes` on the size axis: log4, so that each nccl-tests step (x4) is one unit.
    double sizePosition(double bytes) { return std::log(std::max(1.0, bytes)) / std::log(4.0); }

    /// "1K", "4M", "1G": the size of a power of 4 the way nccl-tests' -b/-e take it.
    QString sizeLabel(double position)
    {
        const auto bytes = static_cast<std::uint64_t>(std::llround(std::pow(4.0, position)));
        constexpr std::pair<std::uint64_t, const char*> units[] = { { 1ULL << 40, "T" }, { 1ULL << 30, "G" }, { 1ULL << 20, "M" }, { 1ULL << 10, "K" } };
        for (const auto& [unit, suffix] : units)
            if (bytes >= unit && bytes % unit == 0)
                return QString::number(bytes / unit) + QLatin1String(suffix);
        return QString::number(bytes);
    }

} // namespace

struct LiveBusbwChart::Private {
    QChart* chart = nullptr;
    QCategoryAxis* x = nullptr;
    QValueAxis* y = nullptr;
    std::map<int, QLineSeries*> lines;
    QLineSeries* bound = nullptr;
    double boundGBs = 0;
};

void setReadingNoteRow(QTableWidget* table, int row, int labelColumn, int whereColumn, const live::ReadingNote& note)
{
    QStringList nodes;
    for (const std::string& node : note.nodes)
        nodes << qs(node);
    const QString where = nodes.size() > 3
        ? LiveTestResultView::tr("%1 nodes: %2, ...").arg(nodes.size()).arg(nodes.mid(0, 3).join(QStringLiteral(", ")))
        : nodes.join(QStringLiteral(", "));
    for (int c = 0; c < table->columnCount(); ++c)
        table->setItem(row, c, item(QString()));
    table->item(row, labelColumn)->setText(LiveTestResultView::tr("note"));
    table->item(row, whereColumn)->setText(where);
    table->item(row, whereColumn)->setToolTip(nodes.join(QStringLiteral(", ")));
    table->item(row, whereColumn + 1)->setText(qs(note.text));
    table->item(row, whereColumn + 1)->setToolTip(qs(note.text));
    for (int c = 0; c < table->columnCount(); ++c)
        table->item(row, c)->setForeground(table->palette().color(QPalette::PlaceholderText));
}

LiveBusbwChart::LiveBusbwChart(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->chart = new QChart();
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->chart->setMargins(QMargins(4, 4, 4, 4));
    // Sizes on a log4 scale, labelled as nccl-tests' sizes (1M, 4M, ...).
    d->x = new QCategoryAxis(d->chart);
    d->x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    d->x->setTitleText(tr("message size (B)"));
    d->y = new QValueAxis(d->chart);
    d->y->setTitleText(tr("busbw (GB/s)"));
    d->y->setLabelFormat(QStringLiteral("%.0f"));
    d->chart->addAxis(d->x, Qt::AlignBottom);
    d->chart->addAxis(d->y, Qt::AlignLeft);
    d->bound = new QLineSeries(d->chart);
    d->bound->setName(tr("plan's bound"));
    QPen pen(QColor(0xc0, 0x39, 0x2b));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    d->bound->setPen(pen);
    d->chart->addSeries(d->bound);
    d->bound->attachAxis(d->x);
    d->bound->attachAxis(d->y);
    auto* view = new QChartView(d->chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    setData({}, std::nullopt);
}

LiveBusbwChart::~LiveBusbwChart() = default;

void LiveBusbwChart::setData(const std::map<int, std::vector<std::pair<std::uint64_t, double>>>& busbw, std::optional<double> boundGBs)
{
    double lo = 1 << 20, hi = 1 << 30, top = boundGBs.value_or(0);
    bool any = false;
    for (const auto& [launch, points] : busbw)
        for (const auto& [bytes, gbs] : points) {
            lo = any ? std::min(lo, static_cast<double>(bytes)) : static_cast<double>(bytes);
            hi = any ? std::max(hi, static_cast<double>(bytes)) : static_cast<double>(bytes);
            top = std::max(top, gbs);
            any = true;
        }
    if (hi <= lo)
        hi = lo * 4;
    for (auto& [launch, line] : d->lines)
        if (!busbw.count(launch)) {
            d->chart->removeSeries(line);
            delete line;
            line = nullptr;
        }
    std::erase_if(d->lines, [](const auto& entry) { return entry.second == nullptr; });
    for (const auto& [launch, points] : busbw) {
        QLineSeries*& line = d->lines[launch];
        if (!line) {
            line = new QLineSeries(d->chart);
            line->setName(launch < 0 ? tr("busbw, all rails") : tr("busbw, rail %1").arg(launch));
            line->setPen(QPen(launchColour(launch), 2));
            line->setPointsVisible(true);
            d->chart->addSeries(line);
            line->attachAxis(d->x);
            line->attachAxis(d->y);
        }
        QList<QPointF> list;
        for (const auto& [bytes, gbs] : points)
            list.append(QPointF(sizePosition(static_cast<double>(bytes)), gbs));
        line->replace(list);
    }
    d->boundGBs = boundGBs.value_or(0);
    d->bound->setVisible(boundGBs.has_value());
    const double from = std::floor(sizePosition(lo)), to = std::ceil(sizePosition(hi));
    d->bound->replace(boundGBs ? QList<QPointF> { { from, *boundGBs }, { to, *boundGBs } } : QList<QPointF> {});
    for (const QString& label : d->x->categoriesLabels())
        d->x->remove(label);
    // A label per step while they fit (up to 8), else every other one.
    const int every = to - from > 8 ? 2 : 1;
    for (double p = from; p <= to; p += every)
        d->x->append(sizeLabel(p), p);
    d->x->setRange(from, to);
    d->y->setRange(0, std::max(1.0, top * 1.05));
    d->y->applyNiceNumbers();
}

void LiveBusbwChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Small (the result page at 1280x800): the plot keeps the room, the axis titles go.
    const bool roomy = height() >= 240 && width() >= 420;
    d->x->setTitleVisible(roomy);
    d->y->setTitleVisible(roomy);
    d->y->setTickCount(height() >= 180 ? 5 : 3);
}

int LiveBusbwChart::pointCount(int launch) const
{
    const auto it = d->lines.find(launch);
    return it == d->lines.end() ? 0 : static_cast<int>(it->second->count());
}

double LiveBusbwChart::boundGBs() const
{
    return d->boundGBs;
}

LiveTestResultView::LiveTestResultView(QWidget* parent)
    : QWidget(parent)
{
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = new LiveBusbwChart(this);
    m_chart->setMinimumSize(340, 160);
    m_table = table(this, { tr("Test"), tr("Rail"), tr("Measured"), tr("Expected"), tr("% of bound"), tr("Verdict") });
    m_findings = table(this, { tr("Severity"), tr("Code"), tr("Where"), tr("Finding and what to do") });
    auto* split = new QSplitter(Qt::Vertical, this);
    m_top = new QSplitter(Qt::Horizontal, split);
    m_top->addWidget(m_table);
    m_top->addWidget(m_chart);
    m_top->setStretchFactor(0, 0);
    m_top->setStretchFactor(1, 1);
    split->addWidget(m_top);
    split->addWidget(m_findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_header);
    layout->addWidget(split, 1);
    clear();
}

void LiveTestResultView::clear()
{
    m_header->setText(tr("No run shown: run a test, or open one in History."));
    m_table->setRowCount(0);
    m_findings->setRowCount(0);
    m_chart->setData({}, std::nullopt);
    m_chart->hide();
}

void LiveTestResultView::showRun(const core::store::RunRecord& run)
{
    clear();
    const QDateTime started = QDateTime::fromString(qs(run.startedAt), Qt::ISODateWithMs).toLocalTime();
    QString head = tr("<b>%1</b> on %2, %3: %4 <i>(%5)</i>")
                       .arg(qs(run.kind).toHtmlEscaped(), qs(run.plan.empty() ? std::string("-") : run.plan).toHtmlEscaped(),
                           QLocale().toString(started, QLocale::ShortFormat), runVerdictText(run.exitStatus, run.complete),
                           qs(run.summary).toHtmlEscaped());
    if (run.id > 0)
        head += tr(" &mdash; run %1 of the project").arg(run.id);
    const nlohmann::json doc = nlohmann::json::parse(run.resultJson, nullptr, false);
    const core::Result<live::RunTable> table = live::runTableOf(run.kind, doc);
    if (!table) {
        m_header->setText(head + QStringLiteral("<br>") + qs(table.error().message + "; " + table.error().hint).toHtmlEscaped());
        return;
    }
    m_header->setText(head);
    m_table->setHorizontalHeaderLabels({ tr("Test"), tr("Rail"), qs(table->measuredName), qs(table->expectedName), tr("% of bound"), tr("Verdict") });
    m_table->setRowCount(static_cast<int>(table->rows.size()));
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    const int digits = run.kind == "check" ? 0 : 2; // a check counts findings
    for (int i = 0; i < static_cast<int>(table->rows.size()); ++i) {
        const live::RunRow& r = table->rows[static_cast<std::size_t>(i)];
        m_table->setItem(i, 0, item(qs(r.key)));
        m_table->setItem(i, 1, item(r.rail ? QString::number(*r.rail) : QString(), right));
        m_table->setItem(i, 2, item(figure(r.measured, digits), right));
        m_table->setItem(i, 3, item(figure(r.expected, digits), right));
        m_table->setItem(i, 4, item(figure(r.percent, 1), right));
        auto* verdict = item(qs(r.verdict));
        if (r.verdict == "low" || r.verdict == "failed" || r.verdict == "unreachable")
            verdict->setForeground(QColor(0xc0, 0x39, 0x2b));
        m_table->setItem(i, 5, verdict);
    }
    // The table as wide as its columns need (the last one too, before it stretches; at most
    // kTableWidth), the chart the rest of the row.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->resizeColumnsToContents();
    const int wanted = m_table->horizontalHeader()->length() + 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
    m_table->setMinimumWidth(std::min(wanted, kTableWidth));
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int findings = static_cast<int>(table->findings.size());
    m_findings->setRowCount(findings + static_cast<int>(table->notes.size()));
    for (int i = 0; i < findings; ++i) {
        const core::Finding& f = table->findings[static_cast<std::size_t>(i)];
        m_findings->setItem(i, 0, item(qs(std::string(core::toString(f.severity)))));
        m_findings->setItem(i, 1, item(qs(f.code)));
        m_findings->setItem(i, 2, item(qs(f.where)));
        auto* message = item(qs(f.message));
        message->setToolTip(qs(f.message));
        m_findings->setItem(i, 3, message);
    }
    // A check's reading notes after its findings: what the nodes' sysfs or outputs did not give.
    for (int i = 0; i < static_cast<int>(table->notes.size()); ++i)
        setReadingNoteRow(m_findings, findings + i, 0, 2, table->notes[static_cast<std::size_t>(i)]);
    m_findings->resizeColumnsToContents();
    if (live::isCollectiveKind(run.kind)) {
        std::map<int, std::vector<std::pair<std::uint64_t, double>>> busbw;
        std::optional<double> bound;
        for (const live::RunRow& r : table->rows) {
            if (r.expected)
                bound = r.expected;
            if (r.bytes && r.measured)
                busbw[r.rail.value_or(-1)].emplace_back(*r.bytes, *r.measured);
        }
        m_chart->setData(busbw, bound);
        m_chart->show();
    }
}

} // namespace railyard::app
