// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// core/text.h: a cut that never splits a UTF-8 character; comparisons that ignore ASCII case;
// natural order; CSV fields; numbers written with a point whatever the C locale says.
#include "core/text.h"
#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <string>

using railyard::core::appendCsvField;
using railyard::core::csvNeedsQuotes;
using railyard::core::equalsIgnoreCase;
using railyard::core::formatFixed;
using railyard::core::formatNumber;
using railyard::core::naturalLess;
using railyard::core::startsWithIgnoreCase;
using railyard::core::utf8Prefix;

TEST(Text, Utf8PrefixNeverSplitsACharacter)
{
    EXPECT_EQ(utf8Prefix("node007", 10), "node007");
    EXPECT_EQ(utf8Prefix("node007", 4), "node");
    EXPECT_EQ(utf8Prefix("", 0), "");
    const std::string text = "ab\xC3\xA9" "c\xE2\x82\xAC" "d\xF0\x9F\x98\x80"; // a b é c € d U+1F600
    EXPECT_EQ(utf8Prefix(text, 3), "ab");                       // inside é
    EXPECT_EQ(utf8Prefix(text, 4), "ab\xC3\xA9");
    EXPECT_EQ(utf8Prefix(text, 6), "ab\xC3\xA9" "c");          // inside €, after its lead byte
    EXPECT_EQ(utf8Prefix(text, 7), "ab\xC3\xA9" "c");          // inside €, before its last byte
    EXPECT_EQ(utf8Prefix(text, 10), "ab\xC3\xA9" "c\xE2\x82\xAC" "d"); // inside U+1F600, after its lead byte
    EXPECT_EQ(utf8Prefix(text, 12), "ab\xC3\xA9" "c\xE2\x82\xAC" "d"); // inside U+1F600, before its last byte
    EXPECT_EQ(utf8Prefix(text, 13), text);
    // Bytes that are no UTF-8 (a run of continuation bytes) are cut where asked.
    EXPECT_EQ(utf8Prefix("a\x80\x80\x80\x80\x80", 5), "a\x80\x80\x80\x80");
}

TEST(Text, ComparisonsIgnoreOnlyTheCaseOfAsciiLetters)
{
    EXPECT_TRUE(equalsIgnoreCase("mlx5_0", "MLX5_0"));
    EXPECT_TRUE(equalsIgnoreCase("0000:1A:00.0", "0000:1a:00.0"));
    EXPECT_TRUE(equalsIgnoreCase("", ""));
    EXPECT_FALSE(equalsIgnoreCase("mlx5_0", "mlx5_01"));
    EXPECT_FALSE(equalsIgnoreCase("mlx5_0", "mlx5-0"));
    // '@' and '`' sit next to 'A'-'Z' and 'a'-'z'; bytes beyond ASCII are compared as they are.
    EXPECT_FALSE(equalsIgnoreCase("@", "`"));
    EXPECT_FALSE(equalsIgnoreCase("\xC3\xA9", "\xC3\x89"));
    EXPECT_TRUE(startsWithIgnoreCase("HTTP://10.0.0.1:9473", "http://"));
    EXPECT_TRUE(startsWithIgnoreCase("Bearer abc", "bearer"));
    EXPECT_TRUE(startsWithIgnoreCase("x", ""));
    EXPECT_FALSE(startsWithIgnoreCase("http:", "http://"));
    EXPECT_FALSE(startsWithIgnoreCase("https://h", "http://"));
    EXPECT_EQ(railyard::core::toLower("MLX5_0 \xC3\x89"), "mlx5_0 \xC3\x89");
}

TEST(Text, NaturalOrderComparesDigitRunsAsNumbers)
{
    EXPECT_TRUE(naturalLess("mlx5_2", "mlx5_10"));
    EXPECT_FALSE(naturalLess("mlx5_10", "mlx5_2"));
    EXPECT_TRUE(naturalLess("2", "10"));
    EXPECT_TRUE(naturalLess("mlx5_9", "mlx5_bond_0"));
    EXPECT_TRUE(naturalLess("dgx-h100-superpod-2su", "dgx-h100-superpod-16su"));
    EXPECT_TRUE(naturalLess("node9", "node010")); // leading zeros aside
    EXPECT_FALSE(naturalLess("node010", "node9"));
    EXPECT_TRUE(naturalLess("node", "node1")); // a prefix first
    EXPECT_FALSE(naturalLess("node1", "node1"));
    EXPECT_FALSE(naturalLess("", ""));
}

TEST(Text, CsvFieldsAreQuotedOnlyWhenRfc4180AsksForIt)
{
    const auto field = [](std::string_view text) {
        std::string row;
        appendCsvField(row, text);
        return row;
    };
    EXPECT_EQ(field("su1-rail2-leaf"), "su1-rail2-leaf");
    EXPECT_EQ(field(""), "");
    EXPECT_EQ(field("OSFP, 2x400G"), "\"OSFP, 2x400G\"");
    EXPECT_EQ(field("12\" tray"), "\"12\"\" tray\"");
    EXPECT_EQ(field("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(field("cr\r"), "\"cr\r\"");
    EXPECT_FALSE(csvNeedsQuotes("node007 mlx5_0; 400G"));
    EXPECT_TRUE(csvNeedsQuotes("a,b"));
}

TEST(Text, NumbersAreWrittenWithAPointUnderACommaLocale)
{
    // The desktop app runs under the user's locale (QApplication sets it from LANG), where printf
    // writes 62,9: exports, project files and Prometheus' time= parameter must not follow it.
    // de_DE is compiled from the `locales` package's sources into a folder of the test's own.
    const railyard::live::test::TempDir dir("comma-locale");
    const std::string compile = "localedef -i de_DE -f UTF-8 '" + (dir.path() / "de_DE.UTF-8").string() + "' 2>/dev/null";
    if (std::system(compile.c_str()) != 0)
        GTEST_SKIP() << "localedef could not compile de_DE.UTF-8 (the Debian package locales has its sources)";
    const char* before = std::getenv("LOCPATH");
    const std::string saved = before ? before : "";
    ::setenv("LOCPATH", dir.path().c_str(), 1);
    const char* set = std::setlocale(LC_NUMERIC, "de_DE.UTF-8");
    ASSERT_NE(set, nullptr) << "de_DE.UTF-8 was compiled but could not be set";
    char printed[32];
    std::snprintf(printed, sizeof printed, "%.1f", 62.94);
    const std::string fixed = formatFixed(62.94, 1), fixed3 = formatFixed(1733580000.1234, 3), general = formatNumber(62.9),
                      negative = formatFixed(-0.25, 2), whole = formatNumber(400);
    std::setlocale(LC_NUMERIC, "C");
    if (before)
        ::setenv("LOCPATH", saved.c_str(), 1);
    else
        ::unsetenv("LOCPATH");
    EXPECT_STREQ(printed, "62,9"); // the locale is in force: printf follows it
    EXPECT_EQ(fixed, "62.9");
    EXPECT_EQ(fixed3, "1733580000.123");
    EXPECT_EQ(general, "62.9");
    EXPECT_EQ(negative, "-0.25");
    EXPECT_EQ(whole, "400");
}
