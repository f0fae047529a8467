// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_node_panel.h"

#include "app/models/live_findings_model.h"
#include "core/text.h"

namespace railyard::app {

namespace {
    QString esc(const std::string& s)
    {
        return QString::fromStdString(s).toHtmlEscaped();
    }
    QString fixed(std::optional<double> v, int decimals)
    {
        return v ? QString::fromStdString(core::formatFixed(*v, decimals)) : QStringLiteral("–");
    }
} // namespace

LiveNodePanel::LiveNodePanel(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    setMinimumWidth(300);
    showNode(nullptr, -1, -1, {}, nullptr);
}

void LiveNodePanel::showNode(const std::shared_ptr<const LiveFrame>& frame, int node, int rail, const std::vector<LiveFinding>& findings,
    const live::LiveCheckReport* check)
{
    if (!frame || node < 0 || node >= static_cast<int>(frame->nodes.size())) {
        setHtml(tr("<p>Click a node in the grid to see its ports, counters and findings.</p>"));
        return;
    }
    const NodeConnection& n = frame->nodes[static_cast<std::size_t>(node)];
    QString html = QStringLiteral("<h3>%1</h3><p>").arg(esc(n.node));
    html += tr("Agent %1: %2").arg(esc(n.url), LiveNodesModel::linkText(n.link));
    if (n.link != NodeLink::Waiting)
        html += tr(", answered in %1 ms").arg(n.latencyMs);
    if (!n.lastError.empty())
        html += QStringLiteral("<br>") + tr("Last error: %1").arg(esc(n.lastError));
    html += QStringLiteral("</p><table cellspacing=0 cellpadding=3><tr><th>%1</th><th>%2</th><th align=right>%3</th><th align=right>%4</th><th align=right>%5</th><th align=right>%6</th></tr>")
                .arg(tr("Rail"), tr("NIC"), tr("Tx Gb/s"), tr("Rx Gb/s"), frame->sweep.ports.empty() || frame->sweep.ports.front().xmitWaitPerS ? tr("Wait/s") : tr("ECN/s"), tr("Errors"));
    for (const live::PortRates& p : frame->sweep.ports) {
        if (p.node != n.node || p.rail < 0)
            continue; // storage and management NICs carry no rail traffic
        const bool chosen = p.rail == rail;
        html += QStringLiteral("<tr%1><td>%2</td><td>%3</td><td align=right>%4</td><td align=right>%5</td><td align=right>%6</td><td align=right>%7</td></tr>")
                    .arg(chosen ? QStringLiteral(" bgcolor=#dde8f6") : QString())
                    .arg(p.rail)
                    .arg(esc(p.device))
                    .arg(fixed(p.txGbps, 1), fixed(p.rxGbps, 1), p.xmitWaitPerS ? fixed(p.xmitWaitPerS, 0) : fixed(p.ecnMarkedPerS, 0))
                    .arg(p.linkErrors);
        if (p.pfcPausePerS > 0 || p.cnpSentPerS + p.cnpHandledPerS > 0)
            html += QStringLiteral("<tr><td></td><td colspan=5>%1</td></tr>")
                        .arg(tr("CNPs %1/s, PFC pauses %2/s").arg(fixed(p.cnpSentPerS + p.cnpHandledPerS, 0), fixed(p.pfcPausePerS, 0)));
        for (const std::string& note : p.notes)
            html += QStringLiteral("<tr><td></td><td colspan=5><i>%1</i></td></tr>").arg(esc(note));
    }
    html += QStringLiteral("</table>");
    QString list;
    for (const LiveFinding& f : findings) {
        const std::string& where = f.finding.where;
        if (where != n.node && where.rfind(n.node + "/", 0) != 0)
            continue;
        list += QStringLiteral("<li><b>%1 %2</b> %3: %4</li>")
                    .arg(f.finding.severity == core::Severity::Error ? tr("error") : f.finding.severity == core::Severity::Warning ? tr("warning") : tr("info"),
                        esc(f.finding.code), esc(where), esc(f.finding.message));
    }
    html += QStringLiteral("<h4>%1</h4>").arg(tr("Findings"));
    if (!list.isEmpty())
        html += QStringLiteral("<ul>") + list + QStringLiteral("</ul>");
    else
        html += check ? tr("<p>None about this node.</p>") : tr("<p>None about this node (run the live check, F5, to read its inventory).</p>");
    if (check) {
        for (const live::NodeStatus& s : check->nodes) {
            if (s.node != n.node || s.warnings.empty())
                continue;
            html += QStringLiteral("<h4>%1</h4><p>%2</p><ul>")
                        .arg(tr("Reading notes"), tr("What the last check could not read on this node:"));
            for (const std::string& w : s.warnings)
                html += QStringLiteral("<li>%1</li>").arg(esc(w));
            html += QStringLiteral("</ul>");
        }
    }
    setHtml(html);
}

} // namespace railyard::app
