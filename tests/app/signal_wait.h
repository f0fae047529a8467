// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Waiting for signals in the app tests without the QSignalSpy::wait() race.
#pragma once

#include <QSignalSpy>
#include <QTest>

namespace railyard::test {

/// Waits (bounded) until `spy` has recorded at least `count` signals. QSignalSpy::wait() waits for
/// a signal that comes *after* the call, so a signal that arrived while another event loop ran
/// (a helper that waited for a plan, an earlier wait that caught two) would be missed; this does not.
inline bool waitForSignals(QSignalSpy& spy, qsizetype count, int timeoutMs = 30'000)
{
    return QTest::qWaitFor([&] { return spy.size() >= count; }, timeoutMs);
}

} // namespace railyard::test
