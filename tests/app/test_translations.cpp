// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/main_window.h"
#include "test_plans.h"

#include <QCoreApplication>
#include <QFile>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTranslator>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// Installs a translator for the lifetime of the guard.
class InstalledTranslator {
public:
    explicit InstalledTranslator(QTranslator& translator)
        : m_translator(translator)
    {
        QCoreApplication::installTranslator(&m_translator);
    }
    ~InstalledTranslator() { QCoreApplication::removeTranslator(&m_translator); }
    InstalledTranslator(const InstalledTranslator&) = delete;
    InstalledTranslator& operator=(const InstalledTranslator&) = delete;

private:
    QTranslator& m_translator;
};

} // namespace

TEST(Translations, EveryLanguageIsEmbedded)
{
    for (const char* language : { "en", "ko" }) {
        const QString path = QStringLiteral(":/i18n/railyard_%1.qm").arg(QLatin1String(language));
        EXPECT_TRUE(QFile::exists(path)) << qPrintable(path);
        QTranslator translator;
        EXPECT_TRUE(translator.load(path)) << qPrintable(path);
    }
}

TEST(Translations, KoreanCatalogTranslatesTheMainWindow)
{
    QTranslator korean;
    ASSERT_TRUE(korean.load(QLocale(QLocale::Korean), QStringLiteral("railyard"), QStringLiteral("_"), QStringLiteral(":/i18n")));
    EXPECT_EQ(korean.language(), QStringLiteral("ko_KR"));
    EXPECT_EQ(korean.translate("railyard::app::MainWindow", "Summary"), QStringLiteral("요약"));

    const InstalledTranslator installed(korean);
    app::MainWindow window(catalog());
    auto* pages = window.findChild<QTabWidget*>();
    ASSERT_NE(pages, nullptr);
    EXPECT_EQ(pages->tabText(0), QStringLiteral("요약"));
    EXPECT_EQ(pages->tabText(5), QStringLiteral("자재 명세서"));
    const QList<QAction*> menus = window.menuBar()->actions();
    ASSERT_FALSE(menus.isEmpty());
    EXPECT_EQ(menus.front()->text(), QStringLiteral("파일(&F)"));
}

// Free functions translate in the context of a Q_DECLARE_TR_FUNCTIONS class that lupdate reads too,
// so the contexts the code asks for at run time are the ones the catalogs hold.
TEST(Translations, FreeFunctionContextsAreInTheCatalogs)
{
    QTranslator korean;
    ASSERT_TRUE(korean.load(QStringLiteral(":/i18n/railyard_ko.qm")));
    EXPECT_EQ(korean.translate("railyard::app::Export", "Export bill of materials"), QStringLiteral("자재 명세서 내보내기"));
    EXPECT_FALSE(korean.translate("railyard::app::ReportPdf", "Bill of materials").isEmpty());
    EXPECT_FALSE(korean.translate("railyard::app::SummaryView", "Switches").isEmpty());
    EXPECT_FALSE(korean.translate("railyard::app::WhatIfPanel", "Capacity lost:").isEmpty());
    EXPECT_EQ(korean.translate("railyard::app::TopologyView", "%n spine(s)", nullptr, 3), QStringLiteral("스파인 %n대"));
    EXPECT_FALSE(korean.translate("railyard::app::topo::RailLegend", "Rails").isEmpty());

    QTranslator english;
    ASSERT_TRUE(english.load(QStringLiteral(":/i18n/railyard_en.qm")));
    EXPECT_EQ(english.translate("railyard::app::TopologyView", "%n spine(s)", nullptr, 1), QStringLiteral("%n spine"));
    EXPECT_EQ(english.translate("railyard::app::TopologyView", "%n spine(s)", nullptr, 4), QStringLiteral("%n spines"));
}

TEST(Translations, EnglishIsTheSourceLanguage)
{
    app::MainWindow window(catalog());
    auto* pages = window.findChild<QTabWidget*>();
    ASSERT_NE(pages, nullptr);
    EXPECT_EQ(pages->tabText(0), QStringLiteral("Summary"));
    EXPECT_NE(window.findChild<QMenu*>(QStringLiteral("menuLanguage")), nullptr);
}

// Every Korean entry is translated: after `update_translations`, new strings need Korean before they ship.
TEST(Translations, KoreanCatalogHasNoUnfinishedEntries)
{
    QFile file(QStringLiteral(RAILYARD_SOURCE_DIR "/resources/translations/railyard_ko.ts"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << qPrintable(file.fileName());
    QXmlStreamReader xml(&file);
    QString source;
    QStringList unfinished;
    int messages = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("message")) {
            ++messages;
        } else if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (type == QLatin1String("unfinished") || text.trimmed().isEmpty())
                unfinished << source;
        }
    }
    ASSERT_FALSE(xml.hasError()) << qPrintable(xml.errorString());
    EXPECT_GT(messages, 100);
    EXPECT_TRUE(unfinished.isEmpty()) << "untranslated in railyard_ko.ts: " << qPrintable(unfinished.join(QStringLiteral(" | ")));
}
