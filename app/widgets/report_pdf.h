// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <QImage>
#include <QList>
#include <QPair>
#include <QSizeF>
#include <QString>
#include <QUrl>

#include <functional>

class QGraphicsView;

namespace railyard::app {

/// Writes the plan's report as an A4 PDF: the summary on the title page, the topology
/// picture scaled to a page, the bill of materials and the findings, "page N of M" in the
/// footer. `topology` may be null (the page then says so). The file is replaced
/// atomically. Safe on a worker thread. Returns an empty string, or the error naming the file.
QString writeReportPdf(const core::Plan& plan, const QImage& topology, const QString& path);

/// Writes `html(body size in CSS pixels)` as an A4 PDF with `title` and "page N of M" in the
/// footer; `images` are the resources its <img> tags name. The report's page layout, for every
/// report of the app (the plan's above, the Live workspace's bring-up report). Replaced atomically;
/// safe on a worker thread. Returns an empty string, or the error naming the file.
QString writeHtmlPdf(const QString& title, const std::function<QString(QSizeF bodyCss)>& html, const QList<QPair<QUrl, QImage>>& images,
    const QString& path);

/// The whole scene of a topology view (not only the part scrolled into view) as an image
/// whose longer side is at most `maxSide` pixels, on white; the view's grab when the
/// scene is empty. GUI thread only.
QImage topologyPicture(QGraphicsView& view, int maxSide = 2400);

} // namespace railyard::app
