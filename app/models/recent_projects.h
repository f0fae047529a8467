// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <QString>
#include <QStringList>

namespace railyard::app {

/// The recently used project files, newest first: UI state, kept apart from the
/// preferences in an INI file of its own (AppConfigLocation/recent.ini).
class RecentProjects {
public:
    static constexpr int kMaxEntries = 8;

    /// `file`: the INI file; empty: defaultFile().
    explicit RecentProjects(QString file = {});

    static QString defaultFile();
    const QString& file() const { return m_file; }

    /// The projects that still exist, newest first; missing ones are dropped from the list.
    QStringList paths() const;
    /// Puts `path` first (absolute), keeping at most kMaxEntries.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    QStringList read() const;
    void write(const QStringList& paths) const;

    QString m_file;
};

} // namespace railyard::app
