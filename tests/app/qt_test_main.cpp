// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// GoogleTest main for the Qt tests: an application object, offscreen unless told otherwise.
#include <QApplication>

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setAttribute(Qt::AA_Use96Dpi); // stable font metrics
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Railyard-tests"));
    QApplication::setApplicationName(QStringLiteral("railyard-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
