// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The UTF-8 repair every tool-output document goes through (live/common/text_scan.h): the same
// documents as nlohmann's own replacement (dump with error_handler_t::replace, parsed again),
// and exactly the strings nlohmann's strict dump() takes counted as valid.
#include "live/common/text_scan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>

using namespace railyard::live;

namespace {

/// What nlohmann's strict dump() of a string does: takes it, or throws type_error 316.
bool nlohmannTakes(const std::string& s)
{
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

nlohmann::json replacedByNlohmann(const nlohmann::json& doc)
{
    return nlohmann::json::parse(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

/// Bytes drawn mostly from where UTF-8 has its edges: ASCII, continuation bytes, every lead
/// byte range and the bytes that are never UTF-8.
std::string randomBytes(std::mt19937& rng)
{
    static constexpr unsigned char kEdges[] = { 0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
        0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF };
    std::uniform_int_distribution<int> length(0, 12);
    std::uniform_int_distribution<int> pick(0, static_cast<int>(sizeof(kEdges)));
    std::uniform_int_distribution<int> any(0, 255);
    std::string s;
    for (int n = length(rng); n > 0; --n) {
        const int p = pick(rng);
        s.push_back(static_cast<char>(p == static_cast<int>(sizeof(kEdges)) ? any(rng) : kEdges[p]));
    }
    return s;
}

} // namespace

TEST(TextScan, IsValidUtf8TakesWhatNlohmannTakes)
{
    EXPECT_TRUE(text::isValidUtf8(""));
    EXPECT_TRUE(text::isValidUtf8("node007 mlx5_0"));
    EXPECT_TRUE(text::isValidUtf8("\xC3\xA9"));         // é
    EXPECT_TRUE(text::isValidUtf8("\xE2\x82\xAC"));     // €
    EXPECT_TRUE(text::isValidUtf8("\xF0\x9F\x98\x80")); // U+1F600
    EXPECT_TRUE(text::isValidUtf8("\xF4\x8F\xBF\xBF")); // U+10FFFF
    EXPECT_FALSE(text::isValidUtf8("\xE9"));             // Latin-1 é
    EXPECT_FALSE(text::isValidUtf8("\xC0\xAF"));         // overlong '/'
    EXPECT_FALSE(text::isValidUtf8("\xE0\x80\xAF"));     // overlong, 3 bytes
    EXPECT_FALSE(text::isValidUtf8("\xED\xA0\x80"));     // surrogate U+D800
    EXPECT_FALSE(text::isValidUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
    EXPECT_FALSE(text::isValidUtf8("\xE2\x82"));         // cut inside a character
    EXPECT_FALSE(text::isValidUtf8("ok\x80"));           // a lone continuation byte

    std::mt19937 rng(20261204);
    int invalid = 0;
    for (int i = 0; i < 200000; ++i) {
        const std::string s = randomBytes(rng);
        const bool valid = text::isValidUtf8(s);
        ASSERT_EQ(valid, nlohmannTakes(s)) << nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
        invalid += valid ? 0 : 1;
    }
    EXPECT_GT(invalid, 1000); // the draw reaches both sides
    EXPECT_LT(invalid, 199000);
}

TEST(TextScan, WithValidUtf8RepairsStringsAndKeysAsNlohmannReplaces)
{
    // Two keys that become the same after the repair: the later one's value stays.
    const nlohmann::json clash = { { "a\xE9", 1 }, { "a\xFF", 2 } };
    EXPECT_EQ(text::withValidUtf8(clash), replacedByNlohmann(clash));
    EXPECT_EQ(text::withValidUtf8(clash).size(), 1U);
    EXPECT_EQ(text::withValidUtf8(nlohmann::json("host\xE9")), nlohmann::json("host\xEF\xBF\xBD"));

    std::mt19937 rng(4122026);
    std::uniform_int_distribution<int> shape(0, 3);
    for (int i = 0; i < 5000; ++i) {
        nlohmann::json doc = nlohmann::json::object();
        for (int k = shape(rng); k >= 0; --k) {
            nlohmann::json row = { { "host", randomBytes(rng) }, { "line", i }, { "ok", true }, { "words", { randomBytes(rng), randomBytes(rng) } } };
            row[randomBytes(rng)] = randomBytes(rng);
            doc[randomBytes(rng)] = { { "rows", { row, nullptr, 1.5 } }, { randomBytes(rng), row } };
        }
        const nlohmann::json repaired = text::withValidUtf8(doc);
        ASSERT_EQ(repaired, replacedByNlohmann(doc)) << replacedByNlohmann(doc).dump();
        ASSERT_NO_THROW((void)repaired.dump(2));
    }
}

// Found by fuzz/fuzz_dumps (fuzz/regressions/fuzz_dumps/line-cut-inside-a-character): a warning
// quoting a long line cut it at 100 bytes, inside a character, and the report's dump() threw.
TEST(TextScan, QuoteLineCutsLongLinesBetweenCharacters)
{
    const std::string line = std::string(99, 'x') + "\xC3\xA9" + "tail";
    const std::string quoted = text::quoteLine(line);
    EXPECT_EQ(quoted, "'" + std::string(99, 'x') + "...'");
    EXPECT_TRUE(text::isValidUtf8(quoted));
    EXPECT_EQ(text::quoteLine("  short  "), "'short'");
}
