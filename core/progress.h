// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <string_view>

namespace railyard::core {

/// Receives progress of a long engine call. Implementations throttle as they see fit;
/// the engine reports at phase boundaries and every few percent.
class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    /// `fraction` in [0, 1]; `phase` names the step ("cabling", "analysis").
    virtual void progress(double fraction, std::string_view phase) = 0;
};

/// A sink that drops everything.
class NullProgress final : public ProgressSink {
public:
    void progress(double, std::string_view) override { }
};

} // namespace railyard::core
