// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/compare_view.h"

#include "app/models/plan_controller.h"
#include "app/widgets/chart_adapter.h"
#include "core/progress.h"
#include "planner/planner.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace railyard::app {

namespace {

    constexpr int kDiffersRole = Qt::UserRole + 1;

    QString num(long long n)
    {
        return QLocale().toString(n);
    }

    QString rate(double gbps)
    {
        return gbps >= 1000 ? QLocale().toString(gbps / 1000, 'f', 1) + QStringLiteral(" Tb/s")
                            : QLocale().toString(gbps, 'g', 4) + QStringLiteral(" Gb/s");
    }

    struct Counts {
        int errors = 0;
        int warnings = 0;
    };

    Counts countFindings(const core::Plan& plan)
    {
        Counts c;
        for (const auto& f : plan.findings) {
            c.errors += f.severity == core::Severity::Error;
            c.warnings += f.severity == core::Severity::Warning;
        }
        return c;
    }

    /// Row labels of the comparison table; rowValues() returns one value per label.
    QStringList rowLabels()
    {
        return { CompareView::tr("Fabric"), CompareView::tr("Nodes"), CompareView::tr("GPUs"), CompareView::tr("SUs"),
            CompareView::tr("Tiers"), CompareView::tr("Leaf switches"), CompareView::tr("Spine switches"),
            CompareView::tr("Core switches"), CompareView::tr("Node-leaf links"), CompareView::tr("Leaf-spine links"),
            CompareView::tr("Spine-core links"), CompareView::tr("Transceivers"), CompareView::tr("Bisection"),
            CompareView::tr("Per GPU"), CompareView::tr("Oversubscription (leaf, spine)"), CompareView::tr("Power"),
            CompareView::tr("Cost"), CompareView::tr("Errors"), CompareView::tr("Warnings") };
    }

    QStringList rowValues(const core::Plan& p)
    {
        const auto& s = p.summary;
        const Counts c = countFindings(p);
        const QLocale l;
        return { QString::fromStdString(s.port.label()), num(s.nodes), num(s.gpus), num(s.suCount), num(s.tiers),
            num(s.switches.leaf), num(s.switches.spine), num(s.switches.core), num(s.cables.nodeLeaf),
            num(s.cables.leafSpine), num(s.cables.spineCore), num(s.transceivers), rate(s.bisectionGbps),
            rate(s.perGpuGbps),
            CompareView::tr("%1:1, %2:1").arg(l.toString(s.leafOversubscription, 'g', 3), l.toString(s.spineOversubscription, 'g', 3)),
            CompareView::tr("%1 kW").arg(l.toString(s.powerW / 1000, 'f', 1)),
            s.costUsd ? QStringLiteral("$") + l.toString(*s.costUsd, 'f', 0) : CompareView::tr("not priced"), num(c.errors),
            num(c.warnings) };
    }

    QString pinTitle(const core::Plan& p)
    {
        QString name = QString::fromStdString(p.spec.name);
        if (name.isEmpty())
            name = CompareView::tr("Untitled plan");
        const QString shortName = name.size() > 26 ? name.left(24).trimmed() + QChar(0x2026) : name;
        return CompareView::tr("%1\n%n node(s)", nullptr, p.summary.nodes).arg(shortName);
    }

} // namespace

CompareView::CompareView(PlanController& controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_stop(std::make_shared<std::stop_source>())
{
    m_pool.setMaxThreadCount(1); // one sweep at a time; planning is CPU-bound

    m_pin = new QPushButton(tr("Pin current plan"), this);
    m_pin->setToolTip(tr("Keep the plan shown now as a column of the comparison (up to %1)").arg(kMaxPins));
    m_remove = new QPushButton(tr("Remove pin"), this);
    m_remove->setToolTip(tr("Remove the selected column"));
    m_clear = new QPushButton(tr("Remove all"), this);
    m_pinCount = new QLabel(this);
    m_pinCount->setWordWrap(true); // the hint must not widen the page
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_pin);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_clear);
    buttons->addSpacing(12);
    buttons->addWidget(m_pinCount, 1);

    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectColumns);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);

    m_chart = new ChartAdapter(this);
    m_chart->setTitle(tr("Growth at the current design choices"));

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(buttons);
    topLayout->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_pin, &QPushButton::clicked, this, &CompareView::pinCurrent);
    connect(m_remove, &QPushButton::clicked, this, [this] { removePin(m_table->currentColumn()); });
    connect(m_clear, &QPushButton::clicked, this, [this] {
        m_pins.clear();
        rebuildTable();
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &CompareView::updateButtons);
    connect(&m_controller, &PlanController::planReady, this, &CompareView::planArrived);
    connect(&m_controller, &PlanController::specChanged, this, [this] {
        cancelSweep();
        m_chartDirty = true;
    });
    rebuildTable();
}

CompareView::~CompareView()
{
    m_stop->request_stop();
    m_pool.waitForDone();
}

bool CompareView::pinCurrent()
{
    const auto plan = m_controller.plan();
    if (!plan || pinCount() >= kMaxPins || std::find(m_pins.begin(), m_pins.end(), plan) != m_pins.end())
        return false;
    m_pins.push_back(plan);
    rebuildTable();
    return true;
}

void CompareView::removePin(int column)
{
    if (column < 0 || column >= pinCount())
        return;
    m_pins.erase(m_pins.begin() + column);
    rebuildTable();
}

bool CompareView::differs(int row, int column) const
{
    const QTableWidgetItem* item = m_table->item(row, column);
    return item && item->data(kDiffersRole).toBool();
}

void CompareView::rebuildTable()
{
    const QStringList labels = rowLabels();
    m_table->clear();
    m_table->setRowCount(static_cast<int>(labels.size()));
    m_table->setColumnCount(pinCount());
    m_table->setVerticalHeaderLabels(labels);
    std::vector<QStringList> values;
    for (const auto& plan : m_pins)
        values.push_back(rowValues(*plan));
    QFont bold = m_table->font();
    bold.setBold(true);
    for (int c = 0; c < pinCount(); ++c) {
        auto* header = new QTableWidgetItem(pinTitle(*m_pins[static_cast<std::size_t>(c)]));
        header->setToolTip(QString::fromStdString(m_pins[static_cast<std::size_t>(c)]->spec.name));
        m_table->setHorizontalHeaderItem(c, header);
        const QStringList& column = values[static_cast<std::size_t>(c)];
        for (int r = 0; r < labels.size(); ++r) {
            auto* item = new QTableWidgetItem(column.value(r));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            const bool differs = c > 0 && column.value(r) != values.front().value(r);
            item->setData(kDiffersRole, differs);
            if (differs) {
                item->setBackground(QColor(0xff, 0xe9, 0xa8));
                item->setForeground(QColor(0x4a, 0x33, 0x00));
                item->setFont(bold);
                item->setToolTip(tr("First pin: %1").arg(values.front().value(r)));
            }
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    for (int c = 0; c < pinCount(); ++c)
        m_table->setColumnWidth(c, std::max(m_table->columnWidth(c), 150));
    updateButtons();
}

void CompareView::updateButtons()
{
    m_pin->setEnabled(m_controller.plan() && pinCount() < kMaxPins);
    m_remove->setEnabled(m_table->currentColumn() >= 0 && !m_table->selectedItems().isEmpty());
    m_clear->setEnabled(pinCount() > 0);
    m_pinCount->setText(pinCount() == 0 ? tr("Pin plans to compare them; cells that differ from the first pin are highlighted.")
                                        : tr("%1 of %2 pinned").arg(pinCount()).arg(kMaxPins));
}

std::vector<int> CompareView::sweepSizes(int nodes, int suSize)
{
    std::vector<int> sizes;
    if (nodes <= 0)
        return sizes;
    const int su = std::clamp(suSize, 1, nodes);
    const int suCount = (nodes + su - 1) / su;
    if (suCount == 1) {
        for (int k = 1; k <= 8; ++k)
            sizes.push_back(std::max(1, nodes * k / 8));
    } else if (suCount <= 8) {
        for (int k = 1; k < suCount; ++k)
            sizes.push_back(k * su);
        sizes.push_back(nodes);
    } else {
        for (int i = 0; i < 7; ++i)
            sizes.push_back(su * static_cast<int>(std::lround(std::pow(suCount, i / 7.0))));
        sizes.push_back(nodes);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

core::PlanSpec CompareView::resizedSpec(const core::PlanSpec& spec, int nodes)
{
    core::PlanSpec s = spec;
    s.nodes = nodes;
    s.gpus.reset();
    s.growToNodes.reset();
    s.nodeNameList.clear();
    if (s.suSize && *s.suSize > nodes)
        s.suSize = nodes;
    return s;
}

void CompareView::cancelSweep()
{
    m_stop->request_stop();
    ++m_generation;
    if (m_sweeping) {
        m_sweeping = false;
        m_chart->setNote(tr("Sweep cancelled: the spec changed."));
    }
}

void CompareView::refreshChart()
{
    cancelSweep();
    const auto plan = m_controller.plan();
    if (!plan)
        return;
    const core::PlanSpec spec = m_controller.spec();
    const std::vector<int> sizes = sweepSizes(plan->summary.nodes, plan->summary.suSize);
    m_chartDirty = false;
    m_sweptSpec = spec;
    m_priced = plan->summary.costUsd.has_value();
    m_sweepTotal = static_cast<int>(sizes.size());
    m_sweepDone = 0;
    m_sweepErrors.clear();
    m_sweeping = true;
    m_chart->clear();
    m_chart->setLogarithmicX(!sizes.empty() && sizes.back() >= 8 * sizes.front());
    m_chart->setAxisTitles(tr("GPUs"), tr("Switches"), m_priced ? tr("Cost (US$ thousands)") : tr("Power (kW)"));
    m_chart->setNote(tr("Planning %1 cluster sizes...").arg(m_sweepTotal));

    m_stop = std::make_shared<std::stop_source>();
    const quint64 generation = m_generation;
    const auto catalog = m_controller.sharedCatalog();
    const bool priced = m_priced;
    // The destructor waits for the pool, so `this` outlives the job; stale points are dropped by generation.
    (void)QtConcurrent::run(&m_pool, [this, generation, catalog, spec, sizes, priced, stop = m_stop->get_token()] {
        for (int nodes : sizes) {
            if (stop.stop_requested())
                return;
            core::NullProgress progress;
            const auto result = planner::makePlan(resizedSpec(spec, nodes), *catalog, progress, stop);
            SweepPoint point;
            point.nodes = nodes;
            if (!result) {
                point.error = QString::fromStdString(result.errors().front().toString());
            } else {
                const auto& s = result->summary;
                point.gpus = static_cast<double>(s.gpus);
                point.switches = static_cast<double>(s.switches.total());
                if (priced && s.costUsd)
                    point.second = *s.costUsd / 1000;
                else if (priced)
                    point.error = tr("not priced");
                else
                    point.second = s.powerW / 1000;
            }
            QMetaObject::invokeMethod(this, [this, generation, point] { pointArrived(generation, point); }, Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(this, [this, generation] { sweepDone(generation); }, Qt::QueuedConnection);
    });
}

void CompareView::pointArrived(quint64 generation, const SweepPoint& point)
{
    if (generation != m_generation)
        return;
    ++m_sweepDone;
    if (!point.error.isEmpty()) {
        m_sweepErrors << tr("%n node(s): %1", nullptr, point.nodes).arg(point.error);
    } else {
        m_chart->addPoint(ChartAdapter::Left, QPointF(point.gpus, point.switches));
        if (point.second > 0)
            m_chart->addPoint(ChartAdapter::Right, QPointF(point.gpus, point.second));
    }
    m_chart->setNote(tr("Planned %1 of %2 cluster sizes...").arg(m_sweepDone).arg(m_sweepTotal));
}

void CompareView::sweepDone(quint64 generation)
{
    if (generation != m_generation)
        return;
    m_sweeping = false;
    QString note = m_priced ? tr("Switches and cost at %1 cluster sizes with the current design choices.").arg(m_sweepTotal)
                            : tr("Switches and power at %1 cluster sizes with the current design choices (some parts have no price).")
                                  .arg(m_sweepTotal);
    m_chart->setToolTip(tr("Each point re-plans the current spec at another size, keeping its fabric, link, node type, "
                           "switches, SU size and oversubscription."));
    if (!m_sweepErrors.isEmpty())
        note += QLatin1Char(' ') + tr("Not planned: %1").arg(m_sweepErrors.join(QStringLiteral("; ")));
    m_chart->setNote(note);
    emit sweepFinished();
}

void CompareView::planArrived()
{
    updateButtons();
    if (m_controller.spec() == m_sweptSpec && !m_chartDirty)
        return;
    m_chartDirty = true;
    if (isVisible())
        refreshChart();
}

void CompareView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_chartDirty && m_controller.plan())
        refreshChart();
}

} // namespace railyard::app
