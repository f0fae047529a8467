// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/recent_projects.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace railyard::app {

namespace {

    const QString kKey = QStringLiteral("Recent/projects");

    QString normalized(const QString& path)
    {
        return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    }

} // namespace

RecentProjects::RecentProjects(QString file)
    : m_file(file.isEmpty() ? defaultFile() : std::move(file))
{
}

QString RecentProjects::defaultFile()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(QStringLiteral("recent.ini"));
}

QStringList RecentProjects::read() const
{
    const QSettings settings(m_file, QSettings::IniFormat);
    return settings.value(kKey).toStringList();
}

void RecentProjects::write(const QStringList& paths) const
{
    QSettings settings(m_file, QSettings::IniFormat);
    settings.setValue(kKey, paths);
}

QStringList RecentProjects::paths() const
{
    const QStringList stored = read();
    QStringList existing;
    for (const QString& path : stored) {
        if (QFileInfo(path).isFile() && !existing.contains(path))
            existing.append(path);
    }
    if (existing.size() > kMaxEntries)
        existing.resize(kMaxEntries);
    if (existing != stored)
        write(existing);
    return existing;
}

void RecentProjects::add(const QString& path)
{
    const QString entry = normalized(path);
    QStringList list = read();
    list.removeAll(entry);
    list.prepend(entry);
    if (list.size() > kMaxEntries)
        list.resize(kMaxEntries);
    write(list);
}

void RecentProjects::remove(const QString& path)
{
    QStringList list = read();
    if (list.removeAll(normalized(path)) > 0)
        write(list);
}

void RecentProjects::clear()
{
    write({});
}

} // namespace railyard::app
