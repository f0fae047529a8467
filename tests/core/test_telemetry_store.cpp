// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The telemetry database: sweeps stored and read back, downsampled into 10 s and 1 min buckets
// (mean, max, count) as they age, dropped past retention, and foreign files refused untouched.
#include "core/store/telemetry_store.h"

#include <gtest/gtest.h>

#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <random>

namespace railyard::core::store {
namespace {

    namespace fs = std::filesystem;

    struct Dir {
        fs::path path;
        Dir()
        {
            std::random_device rd;
            path = fs::temp_directory_path()
                / ("railyard-telemetry-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-"
                    + std::to_string(rd()));
            fs::create_directories(path);
        }
        ~Dir()
        {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    };

    constexpr std::int64_t kT0 = 1'779'999'960'000; // ms, on a minute boundary (buckets are aligned to the clock)

    TEST(TelemetryStore, SweepsComeBackInOrder)
    {
        Dir dir;
        auto store = TelemetryStore::open(dir.path / "a.telemetry");
        ASSERT_TRUE(store) << store.error().toString();
        for (int i = 0; i < 5; ++i)
            ASSERT_TRUE(store->append(kT0 + i * 1000,
                { { "node001/mlx5_0/1", "tx_gbps", 100.0 + i }, { "node001/mlx5_0/1", "rx_gbps", 50.0 }, { "rail 0", "tx_gbps", 400.0 } }));
        auto points = store->query("node001/mlx5_0/1", "tx_gbps", kT0, kT0 + 10000);
        ASSERT_TRUE(points);
        ASSERT_EQ(points->size(), 5u);
        EXPECT_EQ((*points)[4].ms, kT0 + 4000);
        EXPECT_DOUBLE_EQ((*points)[4].mean, 104.0);
        EXPECT_EQ((*points)[4].resolutionMs, 0);
        EXPECT_EQ(*store->seriesNames(), (std::vector<std::string> { "node001/mlx5_0/1", "rail 0" }));
        EXPECT_TRUE(store->query("node009/mlx5_0/1", "tx_gbps", kT0, kT0 + 10000)->empty());
    }

    TEST(TelemetryStore, OldSamplesAreDownsampledKeepingMeanMaxAndCountThenDropped)
    {
        Dir dir;
        Retention r;
        r.rawMs = 60'000;       // 1 min raw
        r.tenSecondMs = 300'000; // 5 min of 10 s buckets
        r.minuteMs = 900'000;   // 15 min in all
        auto store = TelemetryStore::open(dir.path / "b.telemetry", r);
        ASSERT_TRUE(store);
        // 20 minutes at 1 Hz; a 1 s burst of 900 at t = 605 s.
        for (int s = 0; s < 1200; ++s)
            ASSERT_TRUE(store->append(kT0 + s * 1000LL, { { "rail 2", "tx_gbps", s == 605 ? 900.0 : 100.0 } }));
        ASSERT_TRUE(store->compact(kT0 + 1200 * 1000LL));
        const auto counts = *store->rowCounts();
        EXPECT_LE(counts[0], 61);           // raw: the last minute
        EXPECT_LE(counts[1], 31);           // 10 s buckets: up to 5 minutes
        EXPECT_LE(counts[2], 16);           // 1 min buckets: up to 15 minutes
        auto points = store->query("rail 2", "tx_gbps", 0, kT0 + 2000 * 1000LL);
        ASSERT_TRUE(points);
        // Nothing older than the minute window.
        EXPECT_GE(points->front().ms, kT0 + (1200 - 900) * 1000LL - 60000);
        bool sawBurst = false;
        std::int64_t covered = 0;
        for (std::size_t i = 0; i < points->size(); ++i) {
            const auto& p = (*points)[i];
            if (i > 0) {
                EXPECT_GT(p.ms, (*points)[i - 1].ms);
            }
            covered += p.count;
            if (p.max == 900.0) {
                sawBurst = true;
                EXPECT_GT(p.resolutionMs, 0);
                EXPECT_NEAR(p.mean, 100.0 + 800.0 / static_cast<double>(p.count), 1e-9);
            } else {
                EXPECT_DOUBLE_EQ(p.mean, 100.0);
            }
        }
        EXPECT_TRUE(sawBurst);
        EXPECT_GE(covered, 900); // every second of the last 15 minutes is accounted for
    }

    TEST(TelemetryStore, AppendCompactsByItself)
    {
        Dir dir;
        Retention r;
        r.rawMs = 30'000;
        auto store = TelemetryStore::open(dir.path / "c.telemetry", r);
        ASSERT_TRUE(store);
        for (int s = 0; s < 300; ++s)
            ASSERT_TRUE(store->append(kT0 + s * 1000LL, { { "x", "m", 1.0 } }));
        EXPECT_LE((*store->rowCounts())[0], 100);
    }

    TEST(TelemetryStore, AForeignFileIsRefusedAndLeftAlone)
    {
        Dir dir;
        const fs::path other = dir.path / "other.db";
        {
            sqlite3* db = nullptr;
            ASSERT_EQ(sqlite3_open(other.string().c_str(), &db), SQLITE_OK);
            ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE customers (id INTEGER);", nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        }
        const auto before = fs::last_write_time(other);
        const auto size = fs::file_size(other);
        auto store = TelemetryStore::open(other);
        ASSERT_FALSE(store);
        EXPECT_EQ(store.error().code, "TELEMETRY_FOREIGN");
        EXPECT_EQ(fs::last_write_time(other), before);
        EXPECT_EQ(fs::file_size(other), size);

        const fs::path text = dir.path / "notes.txt";
        std::ofstream(text) << "not a database at all, but long enough to be read as one";
        auto t = TelemetryStore::open(text);
        ASSERT_FALSE(t);
        EXPECT_EQ(t.error().code, "TELEMETRY_FOREIGN");
        EXPECT_EQ(TelemetryStore::open(dir.path / "missing-folder" / "x.telemetry").error().code, "TELEMETRY_IO");
    }

    TEST(TelemetryStore, ReopeningKeepsTheSeries)
    {
        Dir dir;
        {
            auto store = TelemetryStore::open(dir.path / "d.telemetry");
            ASSERT_TRUE(store);
            ASSERT_TRUE(store->append(kT0, { { "su1-rail2-leaf/33", "xmit_wait_per_s", 12345.0 } }));
        }
        auto store = TelemetryStore::open(dir.path / "d.telemetry");
        ASSERT_TRUE(store) << store.error().toString();
        ASSERT_TRUE(store->append(kT0 + 1000, { { "su1-rail2-leaf/33", "xmit_wait_per_s", 5.0 } }));
        EXPECT_EQ(store->query("su1-rail2-leaf/33", "xmit_wait_per_s", kT0, kT0 + 1000)->size(), 2u);
    }

} // namespace
} // namespace railyard::core::store
