// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_history_view.h"

#include "app/models/job_runner.h"
#include "app/models/live_history_model.h"
#include "app/models/live_session.h"
#include "app/widgets/live_report.h"
#include "app/widgets/live_test_result.h"
#include "app/models/run_results.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace railyard::app {

namespace {

    QString qs(const std::string& s) { return QString::fromStdString(s); }

    QTableWidgetItem* cell(const QString& text, bool right = false)
    {
        auto* i = new QTableWidgetItem(text);
        i->setTextAlignment(right ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
        i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        return i;
    }

    QTableWidget* table(QWidget* parent, const QStringList& headers)
    {
        auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
        t->setHorizontalHeaderLabels(headers);
        t->verticalHeader()->hide();
        t->horizontalHeader()->setStretchLastSection(true);
        t->setWordWrap(false);
        t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
        return t;
    }

    QString figure(const std::optional<double>& v, int digits) { return v ? QString::number(*v, 'f', digits) : QStringLiteral("-"); }

    /// The findings, then the reading notes (greyed "note" rows) of one side of a comparison.
    void fillFindings(QTableWidget* t, const std::vector<core::Finding>& findings, const std::vector<live::ReadingNote>& notes)
    {
        const int count = static_cast<int>(findings.size());
        t->setRowCount(count + static_cast<int>(notes.size()));
        for (int i = 0; i < count; ++i) {
            const core::Finding& f = findings[static_cast<std::size_t>(i)];
            t->setItem(i, 0, cell(qs(f.code)));
            t->setItem(i, 1, cell(qs(f.where)));
            auto* message = cell(qs(f.message));
            message->setToolTip(qs(f.message));
            t->setItem(i, 2, message);
        }
        for (int i = 0; i < static_cast<int>(notes.size()); ++i)
            setReadingNoteRow(t, count + i, 0, 1, notes[static_cast<std::size_t>(i)]);
        t->resizeColumnsToContents();
    }

    /// The documents of `sources` (one connection to `project` for those stored in it).
    core::Result<std::vector<core::store::RunRecord>> loadRuns(const std::string& project, const std::vector<LiveHistoryPage::RunSource>& sources)
    {
        std::optional<core::store::ProjectStore> store;
        std::vector<core::store::RunRecord> runs;
        for (const LiveHistoryPage::RunSource& source : sources) {
            if (source.unsaved) {
                runs.push_back(*source.unsaved);
                continue;
            }
            if (!store) {
                auto opened = core::store::ProjectStore::open(project);
                if (!opened)
                    return opened.errors();
                store.emplace(std::move(*opened));
            }
            auto run = store->loadRun(source.id);
            if (!run)
                return run.errors();
            runs.push_back(std::move(*run));
        }
        return runs;
    }

} // namespace

/// Two runs compared (made off the GUI thread).
struct LiveHistoryPage::Comparison {
    core::store::RunRecord a, b;
    live::RunComparison c;
};

LiveHistoryPage::LiveHistoryPage(LiveSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_listJob = new JobRunner(this);
    m_runJob = new JobRunner(this);
    m_exportJob = new JobRunner(this);
    m_model = new LiveHistoryModel(this);
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_save = new QPushButton(tr("Save project..."), this);
    m_save->setToolTip(tr("Save the project: this session's runs are stored in it, and every run after"));
    connect(m_save, &QPushButton::clicked, this, &LiveHistoryPage::saveProjectRequested);
    auto* bannerRow = new QHBoxLayout();
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_save);

    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) { openRow(index.row()); });

    auto* open = new QPushButton(tr("Open"), this);
    open->setToolTip(tr("Show the selected run's result page"));
    connect(open, &QPushButton::clicked, this, &LiveHistoryPage::openSelected);
    auto* compare = new QPushButton(tr("Compare two"), this);
    compare->setToolTip(tr("Select two runs of the same kind (before and after a change) and compare them"));
    connect(compare, &QPushButton::clicked, this, &LiveHistoryPage::compareSelected);
    auto* csv = new QPushButton(tr("Export CSV..."), this);
    connect(csv, &QPushButton::clicked, this, [this] { exportSelected(true); });
    auto* json = new QPushButton(tr("Export JSON..."), this);
    connect(json, &QPushButton::clicked, this, [this] { exportSelected(false); });
    auto* report = new QPushButton(tr("Bring-up report (PDF)..."), this);
    report->setToolTip(tr("The plan, the fabric's status, the last check and this session's tests"));
    connect(report, &QPushButton::clicked, this, &LiveHistoryPage::chooseReport);
    auto* buttons = new QHBoxLayout();
    for (QPushButton* b : { open, compare, csv, json, report })
        buttons->addWidget(b);
    buttons->addStretch(1);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);

    m_result = new LiveTestResultView(this);
    auto* comparePage = new QWidget(this);
    m_compareHeader = new QLabel(comparePage);
    m_compareHeader->setWordWrap(true);
    m_compare = table(comparePage, { tr("Test"), tr("Rail"), tr("A"), tr("B"), tr("Change %"), tr("Expected") });
    m_onlyA = table(comparePage, { tr("Only in A"), tr("Where"), tr("Finding") });
    m_onlyB = table(comparePage, { tr("Only in B"), tr("Where"), tr("Finding") });
    auto* findings = new QSplitter(Qt::Horizontal, comparePage);
    findings->addWidget(m_onlyA);
    findings->addWidget(m_onlyB);
    auto* compareSplit = new QSplitter(Qt::Vertical, comparePage);
    compareSplit->addWidget(m_compare);
    compareSplit->addWidget(findings);
    compareSplit->setStretchFactor(0, 3);
    compareSplit->setStretchFactor(1, 2);
    auto* compareLayout = new QVBoxLayout(comparePage);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->addWidget(m_compareHeader);
    compareLayout->addWidget(compareSplit, 1);
    m_detail = new QStackedWidget(this);
    m_detail->addWidget(m_result);
    m_detail->addWidget(comparePage);

    auto* listPart = new QWidget(this);
    auto* listLayout = new QVBoxLayout(listPart);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addLayout(bannerRow);
    listLayout->addWidget(m_view, 1);
    listLayout->addLayout(buttons);
    listLayout->addWidget(m_message);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(listPart);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(split, 1);

    connect(&m_session, &LiveSession::runStored, this, &LiveHistoryPage::reload);
    connect(&m_session, &LiveSession::runNotStored, this, [this](const QString& error) {
        reload();
        setMessage(error);
    });
    // Unsaved runs (no project) appear as soon as they end.
    connect(&m_session, &LiveSession::testFinished, this, &LiveHistoryPage::reload);
    connect(&m_session, &LiveSession::checkFinished, this, &LiveHistoryPage::reload);
    reload();
}

void LiveHistoryPage::setMessage(const QString& text)
{
    m_message->setText(text);
}

void LiveHistoryPage::reload()
{
    const QString path = m_session.projectPath();
    m_save->setVisible(path.isEmpty());
    if (path.isEmpty())
        m_banner->setText(tr("No project is open: this session's runs are listed but not stored. Save the project to keep them."));
    else
        m_banner->setText(tr("Runs stored in %1 (railyard-cli results list --project shows the same).").arg(path));
    using Runs = core::Result<std::vector<core::store::RunInfo>>;
    m_listJob->start<Runs>([path](std::stop_token, quint64) { return LiveHistoryModel::readRuns(path); },
        [this](Runs runs) {
            // The unsaved runs as they are now, when the read is in.
            m_model->setRuns(runs ? std::move(*runs) : std::vector<core::store::RunInfo> {}, m_session.unsavedRuns());
            m_view->resizeColumnsToContents();
            if (!runs)
                setMessage(tr("The project's runs could not be read: %1").arg(qs(runs.error().toString())));
            emit reloaded();
        });
}

core::Result<LiveHistoryPage::RunSource> LiveHistoryPage::sourceOf(int row) const
{
    if (row < 0 || row >= m_model->rowCount())
        return core::Error { "HISTORY_ROW", "no run is selected", "History", "click a run in the list" };
    const LiveHistoryModel::Entry& e = m_model->entry(row);
    if (e.info.id != 0)
        return RunSource { e.info.id, std::nullopt };
    const auto& unsaved = m_session.unsavedRuns();
    if (e.unsavedIndex < 0 || e.unsavedIndex >= static_cast<int>(unsaved.size()))
        return core::Error { "HISTORY_ROW", "the run is no longer in this session", "History", "reload the list" };
    return RunSource { 0, unsaved[static_cast<std::size_t>(e.unsavedIndex)] };
}

QList<int> LiveHistoryPage::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void LiveHistoryPage::openRow(int row)
{
    auto source = sourceOf(row);
    if (!source) {
        setMessage(qs(source.error().toString()));
        emit detailShown(false);
        return;
    }
    setMessage(tr("Reading the run..."));
    using Runs = core::Result<std::vector<core::store::RunRecord>>;
    const std::string project = m_session.projectPath().toStdString();
    m_runJob->start<Runs>([project, source = *source](std::stop_token, quint64) { return loadRuns(project, { source }); },
        [this](Runs runs) {
            if (!runs) {
                setMessage(qs(runs.error().toString()));
                emit detailShown(false);
                return;
            }
            m_result->showRun(runs->front());
            m_detail->setCurrentIndex(0);
            setMessage({});
            emit detailShown(true);
        });
}

void LiveHistoryPage::openSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return setMessage(tr("Select a run in the list first."));
    openRow(rows.front());
}

void LiveHistoryPage::compareRows(int a, int b)
{
    auto sourceA = sourceOf(a), sourceB = sourceOf(b);
    if (!sourceA || !sourceB) {
        setMessage(qs((!sourceA ? sourceA.error() : sourceB.error()).toString()));
        emit detailShown(false);
        return;
    }
    // The list knows each run's kind and start: refused before anything is read.
    const core::store::RunInfo& infoA = m_model->entry(a).info;
    const core::store::RunInfo& infoB = m_model->entry(b).info;
    const bool sameFamily = infoA.kind == infoB.kind || (live::isCollectiveKind(infoA.kind) && live::isCollectiveKind(infoB.kind));
    if (!sameFamily) {
        setMessage(tr("A %1 run and a %2 run measure different things: select two runs of the same kind.").arg(qs(infoA.kind), qs(infoB.kind)));
        emit detailShown(false);
        return;
    }
    // Before and after: the older run is A.
    std::vector<RunSource> sources { *sourceA, *sourceB };
    if (infoA.startedAt > infoB.startedAt)
        std::swap(sources[0], sources[1]);
    setMessage(tr("Reading the two runs..."));
    using Compared = core::Result<Comparison>;
    const std::string project = m_session.projectPath().toStdString();
    m_runJob->start<Compared>(
        [project, sources](std::stop_token, quint64) -> Compared {
            auto runs = loadRuns(project, sources);
            if (!runs)
                return runs.errors();
            Comparison out { std::move((*runs)[0]), std::move((*runs)[1]), {} };
            const auto tableA = live::runTableOf(out.a.kind, nlohmann::json::parse(out.a.resultJson, nullptr, false));
            if (!tableA)
                return tableA.errors();
            const auto tableB = live::runTableOf(out.b.kind, nlohmann::json::parse(out.b.resultJson, nullptr, false));
            if (!tableB)
                return tableB.errors();
            out.c = live::compareRuns(*tableA, *tableB);
            return out;
        },
        [this](Compared c) {
            if (!c) {
                setMessage(qs(c.error().toString()));
                emit detailShown(false);
                return;
            }
            showComparison(*c);
            emit detailShown(true);
        });
}

void LiveHistoryPage::showComparison(const Comparison& comparison)
{
    const core::store::RunRecord& runA = comparison.a;
    const core::store::RunRecord& runB = comparison.b;
    const live::RunComparison& c = comparison.c;
    m_compareHeader->setText(tr("<b>A</b>: %1 %2 (%3) &nbsp; <b>B</b>: %4 %5 (%6) &nbsp; measured in %7")
                                 .arg(qs(runA.kind), qs(runA.startedAt), qs(runA.summary).toHtmlEscaped(), qs(runB.kind), qs(runB.startedAt),
                                     qs(runB.summary).toHtmlEscaped(), qs(c.unit)));
    const int digits = runA.kind == "check" ? 0 : 2; // checks count findings
    m_compare->setRowCount(static_cast<int>(c.rows.size()));
    for (int i = 0; i < static_cast<int>(c.rows.size()); ++i) {
        const live::RunComparisonRow& r = c.rows[static_cast<std::size_t>(i)];
        m_compare->setItem(i, 0, cell(qs(r.key)));
        m_compare->setItem(i, 1, cell(r.rail ? QString::number(*r.rail) : QString(), true));
        m_compare->setItem(i, 2, cell(figure(r.a, digits), true));
        m_compare->setItem(i, 3, cell(figure(r.b, digits), true));
        auto* change = cell(r.changePercent ? QStringLiteral("%1%2").arg(*r.changePercent > 0 ? QStringLiteral("+") : QString()).arg(*r.changePercent, 0, 'f', 1)
                                            : QStringLiteral("-"),
            true);
        if (r.changePercent && std::abs(*r.changePercent) >= 10)
            change->setForeground(*r.changePercent > 0 ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b));
        m_compare->setItem(i, 4, change);
        m_compare->setItem(i, 5, cell(figure(r.expected, digits), true));
    }
    m_compare->resizeColumnsToContents();
    fillFindings(m_onlyA, c.onlyA, c.notesOnlyA);
    fillFindings(m_onlyB, c.onlyB, c.notesOnlyB);
    m_detail->setCurrentIndex(1);
    setMessage({});
}

void LiveHistoryPage::compareSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 2)
        return setMessage(tr("Select exactly two runs (Ctrl+click) to compare them."));
    compareRows(rows[0], rows[1]);
}

void LiveHistoryPage::exportSelected(bool csv)
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return setMessage(tr("Select the run to export first."));
    auto source = sourceOf(rows.front());
    if (!source)
        return setMessage(qs(source.error().toString()));
    const core::store::RunInfo& info = m_model->entry(rows.front()).info;
    const QString suggested = QStringLiteral("%1-%2.%3").arg(qs(info.kind), QString::number(info.id), csv ? QStringLiteral("csv") : QStringLiteral("json"));
    const QString path = QFileDialog::getSaveFileName(this, csv ? tr("Export results as CSV") : tr("Export results as JSON"), suggested,
        csv ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    setMessage(tr("Writing %1...").arg(path));
    const std::string project = m_session.projectPath().toStdString();
    m_exportJob->start<QString>(
        [project, source = *source, path, csv](std::stop_token, quint64) {
            auto runs = loadRuns(project, { source });
            if (!runs)
                return qs(runs.error().toString());
            return csv ? writeRunCsvFile(runs->front(), path) : writeRunJsonFile(runs->front(), path);
        },
        [this, path](QString error) { setMessage(error.isEmpty() ? tr("Wrote %1.").arg(path) : error); });
}

void LiveHistoryPage::chooseReport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the bring-up report"), QStringLiteral("bring-up.pdf"), tr("PDF files (*.pdf)"));
    if (!path.isEmpty())
        exportReport(path);
}

void LiveHistoryPage::exportReport(const QString& path)
{
    BringUpReport report;
    report.plan = m_session.plan();
    report.source = m_session.sourceName();
    report.frame = m_session.frame();
    report.check = m_session.lastCheckRun();
    report.tests = m_session.sessionTests();
    setMessage(tr("Writing %1...").arg(path));
    QPointer<LiveHistoryPage> self(this);
    QThreadPool::globalInstance()->start([self, report = std::move(report), path] {
        const QString error = writeBringUpReportPdf(report, path);
        QMetaObject::invokeMethod(
            self.data(), [self, path, error] {
                if (!self)
                    return;
                self->setMessage(error.isEmpty() ? tr("Wrote the bring-up report to %1.").arg(path) : error);
                emit self->exportFinished(path, error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace railyard::app
