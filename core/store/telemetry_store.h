// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once
// The telemetry database beside a project (../shared/DESIGN.md "Storage"): the counter series of
// live sessions (per-port and per-rail rates, one sample per sweep), kept out of the project file
// so that it stays small and safe. Bounded by retention with downsampling:
//   - raw samples (one per sweep, typically 1 s) for `Retention::rawMs` (default 1 hour);
//   - then 10-second averages for `tenSecondMs` (default 1 day);
//   - then 1-minute averages for `minuteMs` (default 30 days); older data is dropped.
// Each bucket keeps the mean, the maximum and the sample count, so a short burst stays visible
// after downsampling. compact() moves data down the tiers; append() runs it once a minute of
// sample time. A reader gets the finest data there is for each part of a range.
//
// The file is SQLite (WAL, synchronous=NORMAL: a crash may lose the last sweeps, never the file),
// `PRAGMA application_id` 'RYTM'. A file that is not one is refused (TELEMETRY_FOREIGN) and never
// modified. Not thread-safe: one object per thread.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/store/sqlite_connection.h"

namespace railyard::core::store {

inline constexpr std::uint32_t kTelemetryApplicationId = 0x5259544d; // 'RYTM'
inline constexpr int kTelemetrySchemaVersion = 1;

struct Retention {
    std::int64_t rawMs = 3600LL * 1000;              ///< raw samples
    std::int64_t tenSecondMs = 24LL * 3600 * 1000;   ///< 10 s buckets
    std::int64_t minuteMs = 30LL * 24 * 3600 * 1000; ///< 1 min buckets
};

/// One value of one series at one time.
struct TelemetrySample {
    std::string series; ///< what is measured: "node007/mlx5_3/1", "rail 3", "su1-rail2-leaf/33"
    std::string metric; ///< "tx_gbps", "xmit_wait_per_s", ...
    double value = 0;
};

struct TelemetryPoint {
    std::int64_t ms = 0; ///< sample time, or a bucket's start
    double mean = 0;
    double max = 0;
    std::int64_t count = 1; ///< samples in the bucket (1 for a raw sample)
    int resolutionMs = 0;   ///< 0 raw, 10000 or 60000
};

class TelemetryStore {
public:
    /// Opens `path`, creating it when missing. TELEMETRY_FOREIGN for a file of another kind (or a
    /// newer schema), TELEMETRY_IO when it cannot be created or opened.
    static Result<TelemetryStore> open(const std::filesystem::path& path, Retention retention = {});

    TelemetryStore(TelemetryStore&&) noexcept = default;
    TelemetryStore& operator=(TelemetryStore&&) noexcept = default;

    /// Stores one sweep's samples at `timestampMs` (ms since the epoch) in one transaction. A sample
    /// of a series and metric already stored at that time replaces it.
    Status append(std::int64_t timestampMs, const std::vector<TelemetrySample>& samples);
    /// Downsamples what is older than the raw window (as of `nowMs`) and drops what is older than
    /// the minute window.
    Status compact(std::int64_t nowMs);
    /// The points of one series and metric from `fromMs` to `toMs` (inclusive), oldest first.
    Result<std::vector<TelemetryPoint>> query(std::string_view series, std::string_view metric, std::int64_t fromMs,
        std::int64_t toMs) const;
    /// Every series name stored, sorted.
    Result<std::vector<std::string>> seriesNames() const;
    /// Rows in the raw, 10 s and 1 min tables (for tests and the bound on disk use).
    Result<std::vector<std::int64_t>> rowCounts() const;

    const std::filesystem::path& path() const { return m_path; }

private:
    TelemetryStore(std::filesystem::path path, SqliteConnection db, Retention retention);
    Error sqlError(std::string_view action) const;
    Result<std::int64_t> seriesId(const std::string& series, const std::string& metric);

    std::filesystem::path m_path;
    mutable SqliteConnection m_db;
    Retention m_retention;
    std::int64_t m_lastCompactMs = 0;
    std::map<std::pair<std::string, std::string>, std::int64_t> m_ids; ///< (series, metric) -> row id
};

} // namespace railyard::core::store
