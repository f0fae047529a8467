// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_test_view.h"

#include "app/models/live_session.h"
#include "app/widgets/live_test_result.h"
#include "app/models/run_results.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <initializer_list>

namespace railyard::app {

namespace {

    QTableWidgetItem* cell(const QString& text, bool right = false)
    {
        auto* i = new QTableWidgetItem(text);
        i->setTextAlignment(right ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
        i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        return i;
    }

    /// A demo larger than this runs its tests on the first nodes only, unless the user names others:
    /// every rank of an emulated node shares this machine's cores.
    constexpr int kDemoTestNodes = 4;

} // namespace

LiveTestPage::LiveTestPage(LiveSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_run = new QAction(tr("Run &test"), this);
    m_run->setShortcut(QKeySequence(Qt::Key_F6));
    m_run->setToolTip(tr("Run the chosen test on the nodes (F6)"));
    connect(m_run, &QAction::triggered, this, &LiveTestPage::start);
    m_stop = new QAction(tr("&Stop test"), this);
    m_stop->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    m_stop->setToolTip(tr("End the test on every node; what was measured is kept (Shift+F6)"));
    connect(m_stop, &QAction::triggered, &m_session, &LiveSession::stopTest);

    m_kind = new QComboBox(this);
    m_kind->addItem(tr("All-reduce (nccl-tests)"), QStringLiteral("allreduce"));
    m_kind->addItem(tr("All-gather (nccl-tests)"), QStringLiteral("allgather"));
    m_kind->addItem(tr("Reduce-scatter (nccl-tests)"), QStringLiteral("reduce_scatter"));
    m_kind->addItem(tr("GPUDirect bandwidth per rail (ib_write_bw)"), QStringLiteral("write_bw"));
    m_kind->addItem(tr("GPUDirect read bandwidth per rail (ib_read_bw)"), QStringLiteral("read_bw"));
    m_nodes = new QLineEdit(this);
    m_nodes->setPlaceholderText(tr("Nodes: node001,node002,... (empty: every node)"));
    m_nodes->setClearButtonEnabled(true);
    m_perRail = new QCheckBox(tr("One run per rail"), this);
    m_perRail->setToolTip(tr("Collectives: NCCL_IB_HCA set to one rail's NIC per run, a verdict per rail"));

    // The test's parameters: sizes and iterations for nccl-tests, the message size for perftest.
    const QRegularExpression byteSize(QStringLiteral("[0-9]+[KMGkmg]?"));
    auto sizeEdit = [&](const QString& text, const QString& tip) {
        auto* e = new QLineEdit(text, this);
        e->setValidator(new QRegularExpressionValidator(byteSize, e));
        e->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00000M")) + 16);
        e->setToolTip(tip);
        return e;
    };
    const LiveTestRequest defaults;
    m_minBytes = sizeEdit(QString::fromStdString(defaults.minBytes), tr("The first message size (nccl-tests -b): bytes, or with K, M or G"));
    m_maxBytes = sizeEdit(QString::fromStdString(defaults.maxBytes), tr("The last message size (nccl-tests -e); each size is 4 times the one before"));
    m_messageBytes = sizeEdit(QString::fromStdString(defaults.messageBytes), tr("The message size of every test (perftest -s): bytes, or with K, M or G"));
    m_iters = new QSpinBox(this);
    m_iters->setRange(1, 10000);
    m_iters->setValue(defaults.iters);
    m_iters->setToolTip(tr("Iterations per message size (nccl-tests -n)"));
    auto* params = new QHBoxLayout();
    m_collectiveParams = new QWidget(this);
    auto* collectiveRow = new QHBoxLayout(m_collectiveParams);
    collectiveRow->setContentsMargins(0, 0, 0, 0);
    auto* sizesLabel = new QLabel(tr("&Sizes"), m_collectiveParams);
    sizesLabel->setBuddy(m_minBytes);
    auto* toLabel = new QLabel(tr("to"), m_collectiveParams);
    auto* itersLabel = new QLabel(tr("&Iterations"), m_collectiveParams);
    itersLabel->setBuddy(m_iters);
    for (QWidget* w : std::initializer_list<QWidget*> { sizesLabel, m_minBytes, toLabel, m_maxBytes, itersLabel, m_iters, m_perRail })
        collectiveRow->addWidget(w);
    m_bandwidthParams = new QWidget(this);
    auto* bandwidthRow = new QHBoxLayout(m_bandwidthParams);
    bandwidthRow->setContentsMargins(0, 0, 0, 0);
    auto* sizeLabel = new QLabel(tr("Message si&ze"), m_bandwidthParams);
    sizeLabel->setBuddy(m_messageBytes);
    bandwidthRow->addWidget(sizeLabel);
    bandwidthRow->addWidget(m_messageBytes);
    params->addWidget(m_collectiveParams);
    params->addWidget(m_bandwidthParams);
    params->addStretch(1);
    auto showParams = [this] {
        const bool collective = live::isCollectiveKind(kind().toStdString());
        m_collectiveParams->setVisible(collective);
        m_bandwidthParams->setVisible(!collective);
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, showParams);
    showParams();
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(220);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto* row = new QHBoxLayout();
    row->addWidget(m_kind);
    row->addWidget(m_nodes, 1);
    row->addWidget(m_perRail);
    for (QAction* a : { m_run, m_stop }) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        row->addWidget(b);
    }
    row->addWidget(m_progress);

    m_chart = new LiveBusbwChart(this);
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels({ tr("Test"), tr("Rail"), tr("Gb/s"), tr("Plan's bound"), tr("Verdict") });
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    auto* live = new QSplitter(Qt::Horizontal, this);
    live->addWidget(m_chart);
    live->addWidget(m_table);
    m_result = new LiveTestResultView(this);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(live);
    m_pages->addWidget(m_result);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addLayout(row);
    layout->addLayout(params);
    layout->addWidget(m_status);
    layout->addWidget(m_pages, 1);

    connect(&m_session, &LiveSession::testStarted, this, &LiveTestPage::started);
    connect(&m_session, &LiveSession::testMeasured, this, &LiveTestPage::measured);
    connect(&m_session, &LiveSession::testProgress, this, &LiveTestPage::progressed);
    connect(&m_session, &LiveSession::testFinished, this, &LiveTestPage::finished);
    connect(&m_session, &LiveSession::stateChanged, this, &LiveTestPage::connectionChanged);
    m_progress->hide();
    m_status->setText(tr("Connect to a fabric, then run a test: an all-reduce across the nodes, or every rail's GPUDirect bandwidth pair by pair."));
    m_table->hide();
    connectionChanged();
}

QString LiveTestPage::kind() const
{
    return m_kind->currentData().toString();
}

bool LiveTestPage::showingLive() const
{
    return m_pages->currentIndex() == 0;
}

void LiveTestPage::connectionChanged()
{
    const bool connected = m_session.state() == LiveSession::State::Connected;
    m_run->setEnabled(connected && !m_session.isTesting());
    m_stop->setEnabled(m_session.isTesting());
    if (connected && m_session.isDemo() && m_nodes->text().isEmpty() && m_session.frame()
        && static_cast<int>(m_session.frame()->nodes.size()) > kDemoTestNodes) {
        QStringList first;
        for (int i = 0; i < kDemoTestNodes; ++i)
            first << QString::fromStdString(m_session.frame()->nodes[static_cast<std::size_t>(i)].node);
        m_nodes->setText(first.join(QLatin1Char(',')));
    }
}

void LiveTestPage::start()
{
    LiveTestRequest request;
    request.kind = kind().toStdString();
    for (const QString& n : m_nodes->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!n.trimmed().isEmpty())
            request.nodes.push_back(n.trimmed().toStdString());
    request.perRail = m_perRail->isChecked() && live::isCollectiveKind(request.kind);
    request.minBytes = m_minBytes->text().trimmed().toStdString();
    request.maxBytes = m_maxBytes->text().trimmed().toStdString();
    request.iters = m_iters->value();
    request.messageBytes = m_messageBytes->text().trimmed().toStdString();
    m_session.runTest(request);
}

void LiveTestPage::started()
{
    m_pages->setCurrentIndex(0);
    const std::string& kind = m_session.testPartial().kind;
    const bool collective = live::isCollectiveKind(kind);
    m_chart->setVisible(collective);
    m_table->setVisible(!collective);
    m_table->setRowCount(0);
    m_chart->setData({}, m_session.testPartial().boundBusbwGBs);
    m_progress->setValue(0);
    m_progress->show();
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_status->setText(collective ? tr("%1: starting mpirun through the first node's agent...").arg(QString::fromStdString(live::ncclTestsToolOf(kind)))
                                 : tr("Bandwidth test: starting the first round..."));
}

void LiveTestPage::measured()
{
    const LiveTestPartial& p = m_session.testPartial();
    if (live::isCollectiveKind(p.kind)) {
        m_chart->setData(p.busbw, p.boundBusbwGBs);
        return;
    }
    const int from = m_table->rowCount();
    m_table->setRowCount(static_cast<int>(p.outcomes.size()));
    for (int i = from; i < static_cast<int>(p.outcomes.size()); ++i) {
        const live::PairOutcome& o = p.outcomes[static_cast<std::size_t>(i)];
        m_table->setItem(i, 0, cell(QString::fromStdString(o.test.client + " -> " + o.test.server)));
        m_table->setItem(i, 1, cell(QString::number(o.test.rail), true));
        m_table->setItem(i, 2, cell(o.gbps ? QString::number(*o.gbps, 'f', 1) : QStringLiteral("-"), true));
        m_table->setItem(i, 3, cell(QString::number(p.boundGbps, 'f', 1), true));
        auto* verdict = cell(!o.gbps ? tr("failed") : *o.gbps < p.lowGbps ? tr("low") : tr("ok"));
        if (!o.gbps || *o.gbps < p.lowGbps)
            verdict->setForeground(QColor(0xc0, 0x39, 0x2b));
        m_table->setItem(i, 4, verdict);
    }
    m_table->resizeColumnsToContents();
}

void LiveTestPage::progressed(double fraction, const QString& text)
{
    if (fraction >= 0)
        m_progress->setValue(static_cast<int>(fraction * 100));
    m_status->setText(text);
}

void LiveTestPage::finished()
{
    m_progress->hide();
    m_stop->setEnabled(false);
    m_run->setEnabled(m_session.state() == LiveSession::State::Connected);
    if (const auto& run = m_session.lastTest()) {
        showRun(*run);
        m_status->setText(tr("%1 finished: %2").arg(QString::fromStdString(run->kind), QString::fromStdString(run->summary)));
    }
}

void LiveTestPage::showRun(const core::store::RunRecord& run)
{
    m_result->showRun(run);
    m_pages->setCurrentIndex(1);
}

} // namespace railyard::app
