// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/what_if_panel.h"

#include "planner/topology.h"

#include <optional>

#include <QCoreApplication>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace railyard::app {

namespace {

    /// Above this many links the impact is computed off the GUI thread.
    constexpr std::size_t kSyncMaxLinks = 100000;

    struct Outcome {
        core::FailureImpact impact;
        std::vector<double> normalRailGbps; ///< per rail with nothing failed
        double capacityGbps = 0;            ///< all installed links
        std::uint64_t generation = 0;
    };

    Outcome evaluate(const core::Plan& plan, const std::vector<std::uint32_t>& devices,
        const std::vector<std::size_t>& links, std::vector<double> normal, std::uint64_t generation)
    {
        Outcome out;
        out.generation = generation;
        if (normal.empty())
            normal = planner::failureImpact(plan, {}, {}).railGbpsLeft;
        out.normalRailGbps = std::move(normal);
        long long installed = 0;
        for (const auto& l : plan.links)
            installed += l.installed ? 1 : 0;
        out.capacityGbps = static_cast<double>(installed) * plan.summary.port.dataGbps;
        out.impact = planner::failureImpact(plan, devices, links);
        return out;
    }

    /// The translation context of this file's free functions (lupdate reads it from here).
    class WhatIfText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::WhatIfPanel)
    };

    QString rate(double gbps)
    {
        return gbps >= 1000 ? WhatIfText::tr("%1 Tb/s").arg(QLocale().toString(gbps / 1000, 'f', 1))
                            : WhatIfText::tr("%1 Gb/s").arg(QLocale().toString(gbps, 'f', 0));
    }

} // namespace

struct WhatIfPanel::Private {
    std::shared_ptr<const core::Plan> plan;
    std::vector<std::uint32_t> devices;
    std::vector<std::size_t> links;
    std::vector<double> normal;
    std::optional<Outcome> outcome;
    std::uint64_t generation = 0;
    bool pending = false;
    QFutureWatcher<Outcome>* watcher = nullptr;
    QLabel* headline = nullptr;
    QLabel* capacity = nullptr;
    QLabel* cutOff = nullptr;
    QLabel* portsLost = nullptr;
    QTableWidget* rails = nullptr;
    QPushButton* restore = nullptr;
    QWidget* numbers = nullptr;
};

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    d->watcher = new QFutureWatcher<Outcome>(this);
    connect(d->watcher, &QFutureWatcherBase::finished, this, [this] {
        Outcome out = d->watcher->result();
        if (out.generation == d->generation) {
            d->normal = out.normalRailGbps;
            d->outcome = std::move(out);
            showResult();
        }
        if (d->pending) {
            d->pending = false;
            compute();
        }
    });

    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(tr("<b>What-if</b>"), this);
    d->headline = new QLabel(this);
    d->headline->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(d->headline);

    d->numbers = new QWidget(this);
    auto* form = new QFormLayout(d->numbers);
    form->setContentsMargins(0, 0, 0, 0);
    d->capacity = new QLabel(d->numbers);
    d->cutOff = new QLabel(d->numbers);
    d->portsLost = new QLabel(d->numbers);
    form->addRow(tr("Capacity lost:"), d->capacity);
    form->addRow(tr("Nodes cut off:"), d->cutOff);
    form->addRow(tr("NIC ports lost:"), d->portsLost);
    layout->addWidget(d->numbers);

    d->rails = new QTableWidget(0, 3, this);
    d->rails->setHorizontalHeaderLabels({ tr("Rail"), tr("Bandwidth left"), tr("Of normal") });
    d->rails->verticalHeader()->hide();
    d->rails->setEditTriggers(QAbstractItemView::NoEditTriggers);
    d->rails->setSelectionMode(QAbstractItemView::NoSelection);
    d->rails->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    d->rails->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(d->rails, 1);

    d->restore = new QPushButton(tr("Restore All"), this);
    d->restore->setToolTip(tr("Bring every failed switch and cable back"));
    connect(d->restore, &QPushButton::clicked, this, &WhatIfPanel::restoreAllRequested);
    layout->addWidget(d->restore);
    showResult();
}

WhatIfPanel::~WhatIfPanel()
{
    // The running job owns copies of what it reads; wait so its result is not delivered to a dead panel.
    d->watcher->disconnect(this);
    d->watcher->waitForFinished();
}

void WhatIfPanel::setPlan(std::shared_ptr<const core::Plan> plan)
{
    d->plan = std::move(plan);
    d->devices.clear();
    d->links.clear();
    d->normal.clear();
    compute();
}

void WhatIfPanel::setFailures(const std::vector<std::uint32_t>& devices, const std::vector<std::size_t>& links)
{
    d->devices = devices;
    d->links = links;
    compute();
}

const core::FailureImpact* WhatIfPanel::impact() const
{
    return d->outcome ? &d->outcome->impact : nullptr;
}

bool WhatIfPanel::isComputing() const
{
    return d->watcher->isRunning() || d->pending;
}

void WhatIfPanel::compute()
{
    ++d->generation;
    if (!d->plan || (d->devices.empty() && d->links.empty())) {
        d->outcome.reset();
        showResult();
        return;
    }
    if (d->plan->links.size() < kSyncMaxLinks) {
        Outcome out = evaluate(*d->plan, d->devices, d->links, d->normal, d->generation);
        d->normal = out.normalRailGbps;
        d->outcome = std::move(out);
        showResult();
        return;
    }
    if (d->watcher->isRunning()) {
        d->pending = true; // the newest set runs when this one is done
        return;
    }
    d->headline->setText(tr("Computing the impact\u2026"));
    d->watcher->setFuture(QtConcurrent::run([plan = d->plan, devices = d->devices, links = d->links, normal = d->normal,
                                                generation = d->generation] {
        return evaluate(*plan, devices, links, normal, generation);
    }));
}

void WhatIfPanel::showResult()
{
    const bool any = d->outcome.has_value();
    d->numbers->setVisible(any);
    d->rails->setVisible(any);
    d->restore->setEnabled(any);
    if (!any) {
        d->headline->setText(d->plan ? tr("Nothing failed. Right-click a switch or a cable in the topology and choose "
                                          "Mark Failed to see what losing it costs.")
                                     : tr("No plan yet."));
        emit impactChanged();
        return;
    }
    const auto& out = *d->outcome;
    const auto& impact = out.impact;
    const int switches = static_cast<int>(d->devices.size());
    const int cables = static_cast<int>(d->links.size());
    d->headline->setText(tr("Failed: %n switch(es)", nullptr, switches) + QStringLiteral(", ")
        + tr("%n cable(s)", nullptr, cables));
    const double share = out.capacityGbps > 0 ? 100 * impact.bandwidthLostGbps / out.capacityGbps : 0;
    d->capacity->setText(tr("%1 (%2 % of the fabric's links)").arg(rate(impact.bandwidthLostGbps), QLocale().toString(share, 'f', 1)));
    d->cutOff->setText(QLocale().toString(impact.nodesCutOff));
    d->portsLost->setText(QLocale().toString(impact.nodeRailsLost));

    const int rails = static_cast<int>(impact.railGbpsLeft.size());
    d->rails->setRowCount(rails);
    for (int r = 0; r < rails; ++r) {
        const double left = impact.railGbpsLeft[static_cast<std::size_t>(r)];
        const double normal = static_cast<std::size_t>(r) < out.normalRailGbps.size() ? out.normalRailGbps[static_cast<std::size_t>(r)] : 0;
        const double pct = normal > 0 ? 100 * left / normal : 100;
        auto* rail = new QTableWidgetItem(tr("Rail %1").arg(r));
        auto* bw = new QTableWidgetItem(rate(left));
        auto* of = new QTableWidgetItem(tr("%1 %").arg(QLocale().toString(pct, 'f', 1)));
        bw->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        of->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (pct < 99.95) {
            bw->setForeground(QColor(0xd6, 0x27, 0x28));
            of->setForeground(QColor(0xd6, 0x27, 0x28));
        }
        d->rails->setItem(r, 0, rail);
        d->rails->setItem(r, 1, bw);
        d->rails->setItem(r, 2, of);
    }
    emit impactChanged();
}

} // namespace railyard::app
