// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/advisor_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace railyard::app {

namespace {

    QString fabricName(core::Fabric fabric)
    {
        return fabric == core::Fabric::InfiniBand ? AdvisorDialog::tr("InfiniBand") : AdvisorDialog::tr("RoCEv2");
    }

    QString reasonList(const std::vector<planner::AdvisorReason>& reasons)
    {
        if (reasons.empty())
            return QStringLiteral("<p style='color:#777'>%1</p>").arg(AdvisorDialog::tr("None of the answers argues for it."));
        QString html = QStringLiteral("<ul style='margin-top:0'>");
        for (const auto& r : reasons)
            html += QStringLiteral("<li>%1 <span style='color:#777'>(%2)</span></li>")
                        .arg(QString::fromStdString(r.text).toHtmlEscaped(), QLocale().toString(r.weight, 'g', 2));
        return html + QStringLiteral("</ul>");
    }

} // namespace

AdvisorDialog::AdvisorDialog(const core::PlanSpec& spec, long long gpus, QWidget* parent)
    : QDialog(parent)
    , m_spec(spec)
{
    setWindowTitle(tr("Which fabric: InfiniBand or RoCEv2?"));
    auto* questions = new QGroupBox(tr("About the cluster and the team"), this);
    auto* form = new QFormLayout(questions);
    m_gpus = new QSpinBox(questions);
    m_gpus->setRange(1, 1'000'000);
    m_gpus->setGroupSeparatorShown(true);
    m_gpus->setValue(static_cast<int>(std::clamp<long long>(gpus, 1, 1'000'000)));
    m_gpus->setToolTip(tr("GPUs on the back-end (GPU-to-GPU) fabric. Prefilled from the current plan."));
    form->addRow(tr("GPUs on the fabric:"), m_gpus);
    m_ethernetOps = addQuestion(tr("The team already operates Ethernet data-centre networks"),
        tr("Switch OS, monitoring, automation, spares and on-call practice for Ethernet are in place. "
           "RoCEv2 reuses all of that; InfiniBand brings a second network technology into operations."));
    m_lossless = addQuestion(tr("Someone on staff has tuned lossless Ethernet (PFC, ECN, DCQCN) in production"),
        tr("RoCEv2 needs priority flow control, ECN marking and DCQCN set consistently on every NIC and switch hop. "
           "InfiniBand is lossless by design and has no such settings."));
    m_lockIn = addQuestion(tr("Depending on a single vendor is a concern"),
        tr("InfiniBand switches, adapters and the subnet manager come in practice from one vendor; "
           "RoCEv2 runs on Ethernet from several."));
    m_budget = addQuestion(tr("The budget is tight (cost per port weighs heavily)"),
        tr("Ethernet switches and optics usually cost less per port than InfiniBand."));
    m_shared = addQuestion(tr("The fabric is shared (tenants, storage or front-end Ethernet)"),
        tr("A fabric converged with other Ethernet traffic favours RoCEv2; a dedicated back-end network suits InfiniBand."));
    for (QCheckBox* box : { m_ethernetOps, m_lossless, m_lockIn, m_budget, m_shared })
        form->addRow(box);

    m_result = new QTextBrowser(this);
    m_result->setOpenLinks(false);
    m_result->setMinimumSize(560, 260);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("Apply"), QDialogButtonBox::ApplyRole);
    connect(m_apply, &QPushButton::clicked, this, &AdvisorDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(questions);
    layout->addWidget(m_result, 1);
    layout->addWidget(buttons);

    connect(m_gpus, &QSpinBox::valueChanged, this, &AdvisorDialog::updateAdvice);
    updateAdvice();
}

QCheckBox* AdvisorDialog::addQuestion(const QString& text, const QString& tooltip)
{
    auto* box = new QCheckBox(text, this);
    box->setToolTip(tooltip);
    connect(box, &QCheckBox::toggled, this, &AdvisorDialog::updateAdvice);
    return box;
}

planner::AdvisorAnswers AdvisorDialog::answers() const
{
    planner::AdvisorAnswers a;
    a.gpuCount = m_gpus->value();
    a.ethernetOperations = m_ethernetOps->isChecked();
    a.losslessEthernetSkills = m_lossless->isChecked();
    a.vendorLockInConcern = m_lockIn->isChecked();
    a.budgetPressure = m_budget->isChecked();
    a.sharedWithEthernet = m_shared->isChecked();
    return a;
}

QString AdvisorDialog::resultText() const
{
    return m_result->toPlainText();
}

void AdvisorDialog::updateAdvice()
{
    // The advisor is a handful of comparisons: cheap enough for the GUI thread.
    auto advice = planner::adviseFabric(answers());
    if (!advice) {
        m_advice.reset();
        m_result->setHtml(QStringLiteral("<p>%1</p>").arg(QString::fromStdString(advice.errors().front().toString()).toHtmlEscaped()));
        m_apply->setEnabled(false);
        return;
    }
    m_advice = *advice;
    const auto& a = *m_advice;
    const core::Fabric other = a.recommendation == core::Fabric::InfiniBand ? core::Fabric::RoCEv2 : core::Fabric::InfiniBand;
    QString html = QStringLiteral("<h2 style='margin-bottom:2px'>%1</h2>").arg(tr("Recommended: %1").arg(fabricName(a.recommendation)));
    html += QStringLiteral("<p>%1").arg(tr("Confidence %1% (InfiniBand %2, RoCEv2 %3)")
                                            .arg(qRound(a.confidence * 100))
                                            .arg(QLocale().toString(a.infinibandScore, 'g', 3), QLocale().toString(a.rocev2Score, 'g', 3)));
    if (a.closeCall)
        html += QStringLiteral(" &mdash; <b>%1</b>").arg(tr("a close call: either fabric can be defended"));
    html += QStringLiteral("</p><h4>%1</h4>").arg(tr("For %1").arg(fabricName(a.recommendation))) + reasonList(a.reasonsFor(a.recommendation));
    html += QStringLiteral("<h4>%1</h4>").arg(tr("For %1").arg(fabricName(other))) + reasonList(a.reasonsFor(other));
    if (!a.caveats.empty()) {
        html += QStringLiteral("<h4>%1</h4><ul style='margin-top:0'>").arg(tr("Get right with %1").arg(fabricName(a.recommendation)));
        for (const auto& c : a.caveats)
            html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(c).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    m_result->setHtml(html);
    const bool changes = a.recommendation != m_spec.fabric;
    m_apply->setEnabled(changes);
    m_apply->setText(changes ? tr("Apply: switch to %1").arg(fabricName(a.recommendation)) : tr("Apply"));
    m_apply->setToolTip(changes ? tr("Move the spec to %1 (%2) with the catalog's default switches")
                                      .arg(fabricName(a.recommendation),
                                          a.recommendation == core::Fabric::InfiniBand ? tr("NDR 4x") : tr("400G Ethernet"))
                                : tr("The spec already uses %1").arg(fabricName(a.recommendation)));
}

core::PlanSpec AdvisorDialog::specWithFabric(const core::PlanSpec& spec, core::Fabric fabric)
{
    if (spec.fabric == fabric)
        return spec;
    core::PlanSpec s = spec;
    s.fabric = fabric;
    s.link = core::LinkSpec {};
    if (fabric == core::Fabric::InfiniBand) {
        s.link.generation = core::IbGeneration::NDR;
        s.link.width = 4;
    } else {
        s.link.speedGbps = 400;
    }
    // Switch models belong to one fabric: let the planner pick the catalog's defaults.
    s.leafSwitch.clear();
    s.spineSwitch.clear();
    s.coreSwitch.clear();
    return s;
}

void AdvisorDialog::apply()
{
    if (!m_advice)
        return;
    const core::PlanSpec spec = specWithFabric(m_spec, m_advice->recommendation);
    if (spec == m_spec)
        return;
    m_spec = spec;
    emit specChosen(spec);
    accept();
}

} // namespace railyard::app
