// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/export_jobs.h"

#include "app/widgets/report_pdf.h"
#include "core/pending_file.h"
#include "core/plan_json.h"
#include "planner/addressing.h"
#include "planner/exporters.h"
#include "planner/host_config.h"
#include "planner/switch_config.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

#include <sstream>

namespace railyard::app {

namespace {

    /// The translation context of this file's free functions (lupdate reads it from here).
    class ExportText {
        Q_DECLARE_TR_FUNCTIONS(railyard::app::Export)
    };

    QString saveText(const QString& target, const std::string& text)
    {
        QSaveFile file(target);
        if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit())
            return ExportText::tr("Cannot write %1: %2").arg(target, file.errorString());
        return {};
    }

    /// libxlsxwriter writes the path itself: into a temp file beside the target, renamed over it.
    QString saveXlsx(const QString& target, const std::function<core::Status(const std::string&)>& write)
    {
        core::PendingFile file(QFile::encodeName(target).toStdString(), "EXPORT_WRITE");
        core::Status status = file.status();
        if (status)
            status = write(file.path());
        if (status)
            status = file.commit();
        return status ? QString() : QString::fromStdString(status.error().toString());
    }

    template <class Writer>
    QString textExport(const QString& target, Writer write)
    {
        std::ostringstream out;
        write(out);
        return saveText(target, out.str());
    }

    QString errorsText(const core::Errors& errors)
    {
        QStringList lines;
        for (const core::Error& e : errors)
            lines << QString::fromStdString(e.toString());
        return lines.join(QLatin1Char('\n'));
    }

    /// The network intent exports: the plan's addresses first (their errors say which range is too small).
    QString intentExport(const core::Plan& plan, const core::Catalog* catalog, const QString& kind, const QString& target)
    {
        core::Result<planner::AddressPlan> addresses = planner::planAddresses(plan);
        if (!addresses)
            return errorsText(addresses.errors());
        if (kind == QStringLiteral("addresses-csv"))
            return textExport(target, [&](std::ostream& out) { planner::writeAddressesCsv(plan, *addresses, out); });
        if (kind == QStringLiteral("addresses-json"))
            return textExport(target, [&](std::ostream& out) { planner::writeAddressesJson(plan, *addresses, out); });
        // One file per switch or node into the folder, each replaced atomically, as the CLI's --out-dir.
        const QDir dir(target);
        if (!dir.mkpath(QStringLiteral(".")))
            return ExportText::tr("Cannot create the folder %1").arg(target);
        QString failed;
        const planner::ConfigSink sink = [&](planner::ConfigFile&& file) -> core::Status {
            failed = saveText(dir.filePath(QString::fromStdString(file.fileName)), file.text);
            if (failed.isEmpty())
                return core::Status::success();
            return core::Error { "EXPORT_WRITE", failed.toStdString(), file.fileName, {} };
        };
        core::Status made = core::Status::success();
        if (kind == QStringLiteral("host-config")) {
            const core::NodeType* type = catalog ? catalog->findNodeType(plan.spec.nodeType) : nullptr;
            made = planner::forEachHostConfig(plan, *addresses, type ? type->railMap : std::vector<std::string> {}, sink);
        } else {
            const planner::SwitchOs os = kind == QStringLiteral("switch-config-sonic") ? planner::SwitchOs::Sonic : planner::SwitchOs::Nvue;
            made = planner::forEachSwitchConfig(plan, *addresses, os, sink);
        }
        if (!failed.isEmpty())
            return failed;
        return made ? QString() : errorsText(made.errors());
    }

} // namespace

ExportFormat exportFormat(const QString& kind)
{
    if (kind == QStringLiteral("bom-csv"))
        return { ExportText::tr("Export bill of materials"), QStringLiteral("bom.csv"), ExportText::tr("CSV files (*.csv)") };
    if (kind == QStringLiteral("bom-xlsx"))
        return { ExportText::tr("Export bill of materials"), QStringLiteral("bom.xlsx"), ExportText::tr("Excel workbooks (*.xlsx)") };
    if (kind == QStringLiteral("bom-json"))
        return { ExportText::tr("Export bill of materials"), QStringLiteral("bom.json"), ExportText::tr("JSON files (*.json)") };
    if (kind == QStringLiteral("cables-csv"))
        return { ExportText::tr("Export cable map"), QStringLiteral("cables.csv"), ExportText::tr("CSV files (*.csv)") };
    if (kind == QStringLiteral("cables-xlsx"))
        return { ExportText::tr("Export cable map"), QStringLiteral("cables.xlsx"), ExportText::tr("Excel workbooks (*.xlsx)") };
    if (kind == QStringLiteral("ibnetdiscover"))
        return { ExportText::tr("Export topology for ibsim"), QStringLiteral("fabric.ibnet"), ExportText::tr("ibnetdiscover topology (*.ibnet *.txt)") };
    if (kind == QStringLiteral("topo"))
        return { ExportText::tr("Export topology for ibdiagnet"), QStringLiteral("fabric.topo"), ExportText::tr("ibdiagnet topology (*.topo)") };
    if (kind == QStringLiteral("netbox"))
        return { ExportText::tr("Choose a folder for the NetBox import files"), QString(), QString(), true };
    if (kind == QStringLiteral("report-pdf"))
        return { ExportText::tr("Export report"), QStringLiteral("report.pdf"), ExportText::tr("PDF files (*.pdf)") };
    if (kind == QStringLiteral("addresses-csv"))
        return { ExportText::tr("Export address plan"), QStringLiteral("addresses.csv"), ExportText::tr("CSV files (*.csv)") };
    if (kind == QStringLiteral("addresses-json"))
        return { ExportText::tr("Export address plan"), QStringLiteral("addresses.json"), ExportText::tr("JSON files (*.json)") };
    if (kind == QStringLiteral("switch-config-nvue") || kind == QStringLiteral("switch-config-sonic"))
        return { ExportText::tr("Choose a folder for the switch configurations"), QString(), QString(), true };
    if (kind == QStringLiteral("host-config"))
        return { ExportText::tr("Choose a folder for the host scripts"), QString(), QString(), true };
    return { ExportText::tr("Export plan"), QStringLiteral("plan.json"), ExportText::tr("JSON files (*.json)") };
}

QString writeExport(const core::Plan& plan, const core::Catalog* catalog, const QString& kind, const QString& target, const QImage& topology)
{
    if (kind == QStringLiteral("bom-csv"))
        return textExport(target, [&](std::ostream& out) { planner::writeBomCsv(plan, out); });
    if (kind == QStringLiteral("bom-json"))
        return textExport(target, [&](std::ostream& out) { planner::writeBomJson(plan, out); });
    if (kind == QStringLiteral("bom-xlsx"))
        return saveXlsx(target, [&](const std::string& path) { return planner::writeBomXlsx(plan, path); });
    if (kind == QStringLiteral("cables-csv"))
        return textExport(target, [&](std::ostream& out) { planner::writeCablesCsv(plan, out); });
    if (kind == QStringLiteral("cables-xlsx"))
        return saveXlsx(target, [&](const std::string& path) { return planner::writeCablesXlsx(plan, path); });
    if (kind == QStringLiteral("ibnetdiscover") || kind == QStringLiteral("topo")) {
        if (plan.spec.fabric != core::Fabric::InfiniBand)
            return ExportText::tr("%1 describes an InfiniBand subnet; this plan is RoCEv2.").arg(kind);
        if (kind == QStringLiteral("topo"))
            return textExport(target, [&](std::ostream& out) { planner::writeIbdmTopo(plan, out); });
        return textExport(target, [&](std::ostream& out) { planner::writeIbnetdiscover(plan, out); });
    }
    if (kind == QStringLiteral("netbox")) {
        planner::NetboxOptions options;
        options.catalog = catalog;
        const core::Status status = planner::writeNetboxCsv(plan, target.toStdString(), options);
        return status ? QString() : QString::fromStdString(status.error().toString());
    }
    if (kind == QStringLiteral("plan-json"))
        return textExport(target, [&](std::ostream& out) { core::writePlanJson(plan, out); });
    if (kind == QStringLiteral("report-pdf"))
        return writeReportPdf(plan, topology, target);
    if (kind.startsWith(QStringLiteral("addresses-")) || kind.startsWith(QStringLiteral("switch-config-")) || kind == QStringLiteral("host-config"))
        return intentExport(plan, catalog, kind, target);
    return ExportText::tr("Unknown export %1").arg(kind);
}

void runExport(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog, const QString& kind,
    const QString& target, QObject* context, std::function<void(const QString&)> done, const QImage& topology)
{
    QPointer<QObject> guard(context);
    auto future = QtConcurrent::run([plan, catalog, kind, target, topology] { return writeExport(*plan, catalog.get(), kind, target, topology); });
    future.then(context, [guard, done = std::move(done)](const QString& error) {
        if (guard)
            done(error);
    });
}

} // namespace railyard::app
