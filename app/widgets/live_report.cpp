// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_report.h"

#include "app/models/live_history_model.h"
#include "app/widgets/report_pdf.h"
#include "app/widgets/summary_view.h"
#include "app/models/run_results.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <sstream>

namespace railyard::app {

namespace {

    /// The translation context of this file's free functions (lupdate reads it from here).
    class LiveReportText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::LiveReport)
    };

    QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

    QString figure(const std::optional<double>& v, int digits) { return v ? QString::number(*v, 'f', digits) : QStringLiteral("-"); }

    QString when(const std::string& iso)
    {
        return QLocale().toString(QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs).toLocalTime(), QLocale::ShortFormat);
    }

    QString findingsHtml(const std::vector<core::Finding>& findings)
    {
        if (findings.empty())
            return QStringLiteral("<p>%1</p>").arg(LiveReportText::tr("No findings."));
        QString html = QStringLiteral("<table class='grid' width='100%' cellspacing=0 cellpadding=3 style='border-collapse:collapse'><thead><tr>"
                                      "<th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr></thead>")
                           .arg(LiveReportText::tr("Severity"), LiveReportText::tr("Code"), LiveReportText::tr("Where"),
                               LiveReportText::tr("Finding and what to do"));
        for (const core::Finding& f : findings)
            html += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td><td>%3</td><td>%4</td></tr>")
                        .arg(esc(std::string(core::toString(f.severity))), esc(f.code), esc(f.where), esc(f.message));
        return html + QStringLiteral("</table>");
    }

    /// A check's reading notes: each once, with the nodes that gave it.
    QString notesHtml(const std::vector<live::ReadingNote>& notes)
    {
        if (notes.empty())
            return {};
        QString html = QStringLiteral("<p>%1</p><ul>").arg(LiveReportText::tr("What the nodes' sysfs or outputs did not give:"));
        constexpr std::size_t kNodesNamed = 20; // a note every node of a large fabric gave stays one line
        for (const live::ReadingNote& note : notes) {
            QStringList nodes;
            for (std::size_t i = 0; i < note.nodes.size() && i < kNodesNamed; ++i)
                nodes << esc(note.nodes[i]);
            if (note.nodes.size() > kNodesNamed)
                nodes << LiveReportText::tr("%1 more").arg(note.nodes.size() - kNodesNamed);
            html += QStringLiteral("<li>%1 <i>(%2)</i></li>").arg(esc(note.text), nodes.join(QStringLiteral(", ")));
        }
        return html + QStringLiteral("</ul>");
    }

    QString statusHtml(const BringUpReport& r)
    {
        QString html = QStringLiteral("<h2>%1</h2>").arg(LiveReportText::tr("Fabric status"));
        if (!r.frame)
            return html + QStringLiteral("<p>%1</p>").arg(LiveReportText::tr("Not connected when the report was written."));
        int connected = 0, slow = 0, lost = 0;
        for (const NodeConnection& n : r.frame->nodes) {
            connected += n.link == NodeLink::Connected;
            slow += n.link == NodeLink::Slow;
            lost += n.link == NodeLink::Lost;
        }
        html += QStringLiteral("<p>%1</p>")
                    .arg(LiveReportText::tr("%1: %2 node(s), %3 connected, %4 slow, %5 lost; %6 rail(s) at %7 Gb/s per port in the plan.")
                             .arg(r.source.toHtmlEscaped())
                             .arg(r.frame->nodes.size())
                             .arg(connected)
                             .arg(slow)
                             .arg(lost)
                             .arg(r.frame->rails)
                             .arg(r.frame->lineRateGbps, 0, 'f', 0));
        if (!r.frame->sweep.rails.empty()) {
            html += QStringLiteral("<table class='grid' cellspacing=0 cellpadding=3 style='border-collapse:collapse'><thead><tr><th>%1</th><th>%2</th>"
                                   "<th>%3</th><th>%4</th></tr></thead>")
                        .arg(LiveReportText::tr("Rail"), LiveReportText::tr("Ports"), LiveReportText::tr("Tx Gb/s per port"),
                            LiveReportText::tr("Rx Gb/s per port"));
            for (std::size_t i = 0; i < r.frame->sweep.rails.size(); ++i) {
                const live::GroupRates& g = r.frame->sweep.rails[i];
                const double ports = std::max(1, g.ports);
                html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                            .arg(i)
                            .arg(g.ports)
                            .arg(g.txGbps / ports, 0, 'f', 1)
                            .arg(g.rxGbps / ports, 0, 'f', 1);
            }
            html += QStringLiteral("</table>");
        }
        for (const NodeConnection& n : r.frame->nodes)
            if (n.link == NodeLink::Lost)
                html += QStringLiteral("<p>%1</p>").arg(LiveReportText::tr("%1 lost: %2").arg(esc(n.node), esc(n.lastError)));
        return html;
    }

    QString runHtml(const core::store::RunRecord& run)
    {
        QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                           .arg(LiveReportText::tr("%1, %2").arg(esc(run.kind), when(run.startedAt)),
                               LiveReportText::tr("%1: %2").arg(runVerdictText(run.exitStatus, run.complete), esc(run.summary)));
        const auto table = live::runTableOf(run.kind, nlohmann::json::parse(run.resultJson, nullptr, false));
        if (!table)
            return html + QStringLiteral("<p>%1</p>").arg(esc(table.error().message));
        if (run.kind != "check") {
            html += QStringLiteral("<table class='grid' width='100%' cellspacing=0 cellpadding=3 style='border-collapse:collapse'><thead><tr>"
                                   "<th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr></thead>")
                        .arg(LiveReportText::tr("Test"), esc(table->measuredName), esc(table->expectedName), LiveReportText::tr("% of bound"),
                            LiveReportText::tr("Verdict"));
            for (const live::RunRow& r : table->rows)
                html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td><td>%5</td></tr>")
                            .arg(esc(r.key), figure(r.measured, 2), figure(r.expected, 2), figure(r.percent, 1), esc(r.verdict));
            html += QStringLiteral("</table>");
        }
        return html + findingsHtml(table->findings) + notesHtml(table->notes);
    }

    QString writeText(const QString& path, const std::string& text)
    {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return LiveReportText::tr("Cannot write %1: %2").arg(path, file.errorString());
        file.write(text.data(), static_cast<qint64>(text.size()));
        if (!file.commit())
            return LiveReportText::tr("Cannot write %1: %2").arg(path, file.errorString());
        return {};
    }

} // namespace

QString bringUpReportHtml(const BringUpReport& r)
{
    QString html = QStringLiteral("<p style='color:#555'>%1</p>")
                       .arg(LiveReportText::tr("Railyard bring-up report, %1").arg(QLocale().toString(QDateTime::currentDateTime(), QLocale::ShortFormat)));
    if (r.plan)
        html += summaryHtml(*r.plan);
    html += statusHtml(r);
    html += QStringLiteral("<h2 style='page-break-before:always'>%1</h2>").arg(LiveReportText::tr("Last live check"));
    html += r.check ? runHtml(*r.check) : QStringLiteral("<p>%1</p>").arg(LiveReportText::tr("No live check was run in this session."));
    html += QStringLiteral("<h2 style='page-break-before:always'>%1</h2>").arg(LiveReportText::tr("Tests"));
    if (r.tests.empty())
        html += QStringLiteral("<p>%1</p>").arg(LiveReportText::tr("No bandwidth or all-reduce test was run in this session."));
    for (const core::store::RunRecord& t : r.tests)
        html += runHtml(t);
    return html;
}

QString writeBringUpReportPdf(const BringUpReport& report, const QString& path)
{
    const QString title = report.plan && !report.plan->spec.name.empty()
        ? LiveReportText::tr("Bring-up of %1").arg(QString::fromStdString(report.plan->spec.name))
        : LiveReportText::tr("Bring-up report");
    return writeHtmlPdf(title, [&](QSizeF) { return bringUpReportHtml(report); }, {}, path);
}

QString writeRunCsvFile(const core::store::RunRecord& run, const QString& path)
{
    const auto table = live::runTableOf(run.kind, nlohmann::json::parse(run.resultJson, nullptr, false));
    if (!table)
        return LiveReportText::tr("Cannot write %1: %2").arg(path, QString::fromStdString(table.error().message));
    std::ostringstream out;
    live::writeRunCsv(*table, out);
    return writeText(path, out.str());
}

QString writeRunJsonFile(const core::store::RunRecord& run, const QString& path)
{
    const nlohmann::json doc = nlohmann::json::parse(run.resultJson, nullptr, false);
    return writeText(path, (doc.is_discarded() ? run.resultJson : doc.dump(2)) + "\n");
}

} // namespace railyard::app
