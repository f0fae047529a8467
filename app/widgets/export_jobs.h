// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace railyard::app {

/// How the file dialog asks for one export kind.
struct ExportFormat {
    QString title;
    QString suggestedName;
    QString filter;
    bool folder = false; ///< NetBox writes three files into a folder
};

/// Kinds: bom-csv, bom-xlsx, bom-json, cables-csv, cables-xlsx, ibnetdiscover, topo, netbox, plan-json, report-pdf;
/// routed RoCEv2 plans: addresses-csv, addresses-json, switch-config-nvue, switch-config-sonic, host-config (folders).
ExportFormat exportFormat(const QString& kind);

/// Writes one export synchronously; returns an empty string or the error, naming the file.
/// Files are replaced atomically (written beside the target, then renamed).
/// `topology` is the topology picture for report-pdf (see topologyPicture); other kinds ignore it.
QString writeExport(const core::Plan& plan, const core::Catalog* catalog, const QString& kind, const QString& target,
    const QImage& topology = {});

/// Runs writeExport off the GUI thread and calls `done(error)` on `context`'s thread.
void runExport(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog, const QString& kind, const QString& target, QObject* context,
    std::function<void(const QString&)> done, const QImage& topology = {});

} // namespace railyard::app
