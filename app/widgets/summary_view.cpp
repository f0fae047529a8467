// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/summary_view.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace railyard::app {

namespace {

    /// The translation context of this file's free functions (lupdate reads it from here).
    class SummaryText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::SummaryView)
    };

    QString qs(const std::string& s)
    {
        return QString::fromStdString(s).toHtmlEscaped();
    }

    QString num(long long n)
    {
        return QLocale().toString(n);
    }

    QString rate(double gbps)
    {
        return gbps >= 1000 ? QLocale().toString(gbps / 1000, 'f', 1) + QStringLiteral(" Tb/s")
                            : QLocale().toString(gbps, 'g', 4) + QStringLiteral(" Gb/s");
    }

    QString row(const QString& label, const QString& value)
    {
        return QStringLiteral("<tr><td class='k'>%1</td><td>%2</td></tr>").arg(label, value);
    }

    QString card(const QString& value, const QString& label)
    {
        return QStringLiteral("<td class='card'><div class='v'>%1</div><div class='l'>%2</div></td>").arg(value, label);
    }

    QString tierTable(const core::Plan& p)
    {
        const auto& s = p.summary;
        QString html = QStringLiteral("<table class='grid'><tr><th>%1</th><th>%2</th><th>%3</th></tr>")
                           .arg(SummaryText::tr("Tier"), SummaryText::tr("Switches"), SummaryText::tr("Links below"));
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                    .arg(SummaryText::tr("leaf"), num(s.switches.leaf), num(s.cables.nodeLeaf));
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                    .arg(SummaryText::tr("spine"), num(s.switches.spine), num(s.cables.leafSpine));
        if (s.tiers == 3) {
            html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td></tr>")
                        .arg(SummaryText::tr("core"), num(s.switches.core), num(s.cables.spineCore));
        }
        html += QStringLiteral("<tr><td><b>%1</b></td><td align=right><b>%2</b></td><td align=right><b>%3</b></td></tr></table>")
                    .arg(SummaryText::tr("total"), num(s.switches.total()), num(s.cables.total()));
        return html;
    }

    QString findingsHtml(const core::Plan& p)
    {
        if (p.findings.empty())
            return QStringLiteral("<p>%1</p>").arg(SummaryText::tr("No findings: the design follows every rule Railyard checks."));
        QString html = QStringLiteral("<table class='grid'>");
        for (const auto& f : p.findings) {
            const QString sev = f.severity == core::Severity::Error ? QStringLiteral("<span class='err'>%1</span>").arg(SummaryText::tr("error"))
                : f.severity == core::Severity::Warning             ? QStringLiteral("<span class='warn'>%1</span>").arg(SummaryText::tr("warning"))
                                                                    : QStringLiteral("<span class='info'>%1</span>").arg(SummaryText::tr("info"));
            html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td>%3</td></tr>").arg(sev, qs(f.code), qs(f.message));
        }
        return html + QStringLiteral("</table>");
    }

} // namespace

QString summaryHtml(const core::Plan& p)
{
    const auto& s = p.summary;
    const auto& a = p.analysis;
    QString html = QStringLiteral(
        "<style>body{font-family:sans-serif} td.k{color:#555;padding-right:16px} td.card{border:1px solid #ccd;padding:8px 14px;}"
        " div.v{font-size:18pt;font-weight:bold} div.l{color:#555} table.grid td,table.grid th{padding:2px 10px}"
        " .err{color:#b00020;font-weight:bold} .warn{color:#b26a00;font-weight:bold} .info{color:#1565c0}</style>");
    html += QStringLiteral("<h2>%1</h2>").arg(qs(p.spec.name.empty() ? std::string("Untitled plan") : p.spec.name));
    html += QStringLiteral("<table cellspacing=6><tr>%1%2%3%4%5%6</tr></table>")
                .arg(card(num(s.nodes), SummaryText::tr("nodes")), card(num(s.gpus), SummaryText::tr("GPUs")), card(num(s.suCount), SummaryText::tr("SUs")),
                    card(num(s.switches.total()), SummaryText::tr("switches")), card(num(s.cables.total()), SummaryText::tr("links")),
                    card(num(s.transceivers), SummaryText::tr("transceivers")));
    html += QStringLiteral("<table>");
    html += row(SummaryText::tr("Fabric"), QString::fromStdString(s.port.label()) + QStringLiteral(", ")
            + (p.spec.fabric == core::Fabric::InfiniBand ? SummaryText::tr("InfiniBand") : SummaryText::tr("RoCEv2")));
    html += row(SummaryText::tr("Node type"), qs(p.spec.nodeType) + QStringLiteral(", %1 rails").arg(s.rails)
            + (s.planes > 1 ? QStringLiteral(", %1 planes").arg(s.planes) : QString()));
    html += row(SummaryText::tr("Scalable units"), SummaryText::tr("%1 of %2 nodes, %3 leaf per rail").arg(s.suCount).arg(s.suSize).arg(s.leavesPerRail));
    html += row(SummaryText::tr("Tiers"), s.tiers == 3 ? SummaryText::tr("3 (%1 pods of %2 SU)").arg(s.pods).arg(s.susPerPod) : SummaryText::tr("2"));
    html += row(SummaryText::tr("Leaf ports"), SummaryText::tr("%1 down, %2 up; %3 links to each of %4 spines")
                                      .arg(s.leafDownlinks)
                                      .arg(s.leafUplinks)
                                      .arg(s.linksPerLeafSpine)
                                      .arg(s.spinesPerGroup));
    html += row(SummaryText::tr("Oversubscription"), SummaryText::tr("leaf %1:1, spine %2:1 (as built)")
                                            .arg(QLocale().toString(s.leafOversubscription, 'g', 3), QLocale().toString(s.spineOversubscription, 'g', 3)));
    html += row(SummaryText::tr("Bisection"), rate(s.bisectionGbps));
    html += row(SummaryText::tr("Per GPU"), rate(s.perGpuGbps));
    if (s.lidsPerSubnet > 0)
        html += row(SummaryText::tr("LIDs per subnet"), num(s.lidsPerSubnet));
    html += row(SummaryText::tr("Switch hops"), SummaryText::tr("same leaf %1, same rail other SU %2, across rails %3")
                                       .arg(a.hopsSameLeaf)
                                       .arg(a.hopsSameRailAcrossSu)
                                       .arg(a.hopsAcrossRails));
    html += row(SummaryText::tr("Power"), QLocale().toString(s.powerW / 1000, 'f', 1) + QStringLiteral(" kW"));
    if (s.costUsd)
        html += row(SummaryText::tr("Cost"), QLocale().toCurrencyString(*s.costUsd, QStringLiteral("$")));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<h3>%1</h3>").arg(SummaryText::tr("Switches and links")) + tierTable(p);
    html += QStringLiteral("<h3>%1</h3>").arg(SummaryText::tr("Findings")) + findingsHtml(p);
    return html;
}

SummaryView::SummaryView(QWidget* parent)
    : QWidget(parent)
    , m_browser(new QTextBrowser(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_browser->setOpenLinks(false);
}

void SummaryView::setPlan(std::shared_ptr<const core::Plan> plan)
{
    m_browser->setHtml(plan ? summaryHtml(*plan) : QString());
}

void SummaryView::setErrors(const QStringList& errors)
{
    QString html = QStringLiteral("<h3 style='color:#b00020'>%1</h3><ul>").arg(tr("This spec cannot be planned"));
    for (const QString& e : errors)
        html += QStringLiteral("<li>%1</li>").arg(e.toHtmlEscaped());
    m_browser->setHtml(html + QStringLiteral("</ul>"));
}

QString SummaryView::text() const
{
    return m_browser->toPlainText();
}

} // namespace railyard::app
