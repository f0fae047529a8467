// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/report_pdf.h"

#include "app/widgets/summary_view.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QDateTime>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QLocale>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QUrl>

#include <cmath>

namespace railyard::app {

namespace {

    /// The translation context of this file's free functions (lupdate reads it from here).
    class ReportText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::ReportPdf)
    };

    QString esc(const std::string& s)
    {
        return QString::fromStdString(s).toHtmlEscaped();
    }

    QString money(double usd)
    {
        // US dollars as the catalog gives them, whatever the locale's own currency is.
        return QStringLiteral("$") + QLocale().toString(usd, 'f', 0);
    }

    QString planTitle(const core::Plan& plan)
    {
        return plan.spec.name.empty() ? ReportText::tr("Untitled plan") : QString::fromStdString(plan.spec.name);
    }

    const QUrl& topologyUrl()
    {
        static const QUrl url(QStringLiteral("railyard:topology.png"));
        return url;
    }

    QString pageBreak(const QString& heading)
    {
        return QStringLiteral("<h2 style='page-break-before:always'>%1</h2>").arg(heading);
    }

    /// `<img>` for the topology, in CSS pixels (the layout scales them by the device's DPI).
    QString topologyHtml(const QImage& image, QSizeF bodyCss)
    {
        QString html = pageBreak(ReportText::tr("Topology"));
        if (image.isNull())
            return html + QStringLiteral("<p>%1</p>").arg(ReportText::tr("No topology picture was available."));
        QSizeF size = image.size();
        size.scale(bodyCss.width() - 12, bodyCss.height() * 0.86, Qt::KeepAspectRatio);
        return html + QStringLiteral("<p align=center><img src='%1' width=%2 height=%3></p>")
                          .arg(topologyUrl().toString())
                          .arg(std::floor(size.width()))
                          .arg(std::floor(size.height()));
    }

    QString bomHtml(const core::Plan& plan)
    {
        QString html = pageBreak(ReportText::tr("Bill of materials"));
        html += QStringLiteral("<table class='grid' width='100%' cellspacing=0 cellpadding=3 style='border-collapse:collapse'><thead><tr>"
                               "<th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr></thead>")
                    .arg(ReportText::tr("Category"), ReportText::tr("Qty"), ReportText::tr("Part"), ReportText::tr("Item"), ReportText::tr("Unit price"), ReportText::tr("Extended"));
        double total = 0;
        bool priced = true;
        for (const auto& line : plan.bom) {
            const QString unit = line.unitPriceUsd ? money(*line.unitPriceUsd) : QStringLiteral("&ndash;");
            const QString extended = line.unitPriceUsd ? money(*line.unitPriceUsd * static_cast<double>(line.quantity)) : QStringLiteral("&ndash;");
            if (line.unitPriceUsd)
                total += *line.unitPriceUsd * static_cast<double>(line.quantity);
            else
                priced = false;
            html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td>%3</td><td>%4</td><td align=right>%5</td><td align=right>%6</td></tr>")
                        .arg(esc(line.category), QLocale().toString(line.quantity), esc(line.part), esc(line.item), unit, extended);
        }
        if (total > 0)
            html += QStringLiteral("<tr><td colspan=5><b>%1</b></td><td align=right><b>%2</b></td></tr>")
                        .arg(priced ? ReportText::tr("Total") : ReportText::tr("Total of the priced lines"), money(total));
        html += QStringLiteral("</table>");
        if (!priced)
            html += QStringLiteral("<p>%1</p>").arg(total > 0 ? ReportText::tr("Some parts have no price in the catalog; the total leaves them out.")
                                                              : ReportText::tr("The catalog has no prices for these parts."));
        return html;
    }

    QString findingsHtml(const core::Plan& plan)
    {
        QString html = pageBreak(ReportText::tr("Findings"));
        if (plan.findings.empty())
            return html + QStringLiteral("<p>%1</p>").arg(ReportText::tr("No findings: the design follows every rule Railyard checks."));
        html += QStringLiteral("<table class='grid' width='100%' cellspacing=0 cellpadding=3 style='border-collapse:collapse'><thead><tr>"
                               "<th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr></thead>")
                    .arg(ReportText::tr("Severity"), ReportText::tr("Code"), ReportText::tr("Where"), ReportText::tr("Message"));
        for (const auto& f : plan.findings) {
            const QString cls = f.severity == core::Severity::Error ? QStringLiteral("err")
                : f.severity == core::Severity::Warning             ? QStringLiteral("warn")
                                                                    : QStringLiteral("info");
            const QString sev = f.severity == core::Severity::Error ? ReportText::tr("error")
                : f.severity == core::Severity::Warning             ? ReportText::tr("warning")
                                                                    : ReportText::tr("info");
            html += QStringLiteral("<tr><td class='%1'>%2</td><td><code>%3</code></td><td>%4</td><td>%5</td></tr>")
                        .arg(cls, sev, esc(f.code), esc(f.where), esc(f.message));
        }
        return html + QStringLiteral("</table>");
    }

    QString reportHtml(const core::Plan& plan, const QImage& topology, QSizeF bodyCss)
    {
        QString html = QStringLiteral("<p style='color:#555'>%1</p>")
                           .arg(ReportText::tr("Railyard fabric report, %1").arg(QLocale().toString(QDateTime::currentDateTime(), QLocale::ShortFormat)));
        html += summaryHtml(plan);
        html += topologyHtml(topology, bodyCss);
        html += bomHtml(plan);
        html += findingsHtml(plan);
        return html;
    }

    void drawFooter(QPainter& painter, const QRectF& footer, const QString& title, int page, int pages)
    {
        painter.save();
        QFont font = painter.font();
        font.setPointSizeF(8);
        painter.setFont(font);
        painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 0));
        painter.drawLine(footer.topLeft(), footer.topRight());
        painter.setPen(QColor(0x55, 0x55, 0x55));
        const QString left = painter.fontMetrics().elidedText(title, Qt::ElideRight, static_cast<int>(footer.width() * 0.7));
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignBottom, left);
        painter.drawText(footer, Qt::AlignRight | Qt::AlignBottom, ReportText::tr("Page %1 of %2").arg(page).arg(pages));
        painter.restore();
    }

} // namespace

QString writeReportPdf(const core::Plan& plan, const QImage& topology, const QString& path)
{
    QList<QPair<QUrl, QImage>> images;
    if (!topology.isNull())
        images.append({ topologyUrl(), topology });
    return writeHtmlPdf(planTitle(plan), [&](QSizeF bodyCss) { return reportHtml(plan, topology, bodyCss); }, images, path);
}

QString writeHtmlPdf(const QString& title, const std::function<QString(QSizeF bodyCss)>& html, const QList<QPair<QUrl, QImage>>& images,
    const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ReportText::tr("Cannot write %1: %2").arg(path, file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Railyard"));
        writer.setResolution(300);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 12), QPageLayout::Millimeter));
        const QRectF page = writer.pageLayout().paintRectPixels(writer.resolution());
        const double footerHeight = writer.resolution() * 8 / 25.4;
        const QSizeF body(page.width(), page.height() - footerHeight);
        const double toCss = 96.0 / writer.resolution();

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer);
        QFont font = doc.defaultFont();
        font.setPointSizeF(9);
        doc.setDefaultFont(font);
        doc.setDefaultStyleSheet(QStringLiteral(
            "table.grid th { background-color:#e8ecf2; text-align:left; } table.grid td, table.grid th { border: 1px solid #c8ccd4; }"
            " h2 { color:#1f3a5f; }"));
        doc.setPageSize(body);
        for (const auto& [url, image] : images)
            doc.addResource(QTextDocument::ImageResource, url, image);
        doc.setHtml(html(body * toCss));

        QPainter painter;
        if (!painter.begin(&writer))
            return ReportText::tr("Cannot write %1: the PDF writer did not start").arg(path);
        const int pages = doc.pageCount();
        for (int i = 0; i < pages; ++i) {
            if (i > 0)
                writer.newPage();
            painter.save();
            painter.translate(0, -i * body.height());
            QAbstractTextDocumentLayout::PaintContext context;
            context.clip = QRectF(0, i * body.height(), body.width(), body.height());
            context.palette.setColor(QPalette::Text, Qt::black);
            painter.setClipRect(context.clip);
            doc.documentLayout()->draw(&painter, context);
            painter.restore();
            drawFooter(painter, QRectF(0, body.height() + footerHeight * 0.3, body.width(), footerHeight * 0.7), title, i + 1, pages);
        }
        painter.end();
    }
    if (!file.commit())
        return ReportText::tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QImage topologyPicture(QGraphicsView& view, int maxSide)
{
    QGraphicsScene* scene = view.scene();
    if (!scene || scene->items().isEmpty())
        return view.grab().toImage();
    const QRectF source = scene->itemsBoundingRect().adjusted(-12, -12, 12, 12);
    QSizeF size = source.size();
    size.scale(maxSide, maxSide, Qt::KeepAspectRatio);
    QImage image(size.toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    scene->render(&painter, QRectF(image.rect()), source);
    return image;
}

} // namespace railyard::app
