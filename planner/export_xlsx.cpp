// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Cable map and bill of materials as XLSX workbooks (libxlsxwriter, C API). Same columns as
// the CSV exports; numbers are written as numbers. The cable sheet uses constant-memory mode
// (rows are streamed to a temporary file in order), so a 393K-link map stays small in memory.
#include "planner/exporters.h"

#include "planner/addressing.h"

#include <xlsxwriter.h>

#include <array>
#include <string_view>

namespace railyard::planner {

namespace {

    struct Column {
        const char* title;
        double width;
    };

    constexpr std::array<Column, 13> kCableColumns { {
        { "a", 24 }, { "a_cage", 8 }, { "a_pos", 7 }, { "b", 24 }, { "b_cage", 8 }, { "b_pos", 7 },
        { "tier", 11 }, { "type", 6 }, { "length_m", 9 }, { "part", 26 }, { "assembly", 9 },
        { "installed", 9 }, { "label", 52 },
    } };
    /// Appended after the label on a routed RoCEv2 plan (addressing.h), so that the old columns stay put.
    constexpr std::array<Column, 2> kAddressColumns { { { "a_address", 18 }, { "b_address", 18 } } };

    constexpr std::array<Column, 9> kBomColumns { {
        { "category", 12 }, { "item", 52 }, { "part", 24 }, { "catalog_id", 22 }, { "length_m", 9 },
        { "quantity", 10 }, { "unit_price_usd", 15 }, { "total_price_usd", 16 }, { "unit_power_w", 13 },
    } };

    constexpr lxw_color_t kHeaderFill = 0xDCE6F1;

    /// Sheet writer that keeps the first libxlsxwriter error instead of checking every call.
    struct Sheet {
        lxw_worksheet* ws = nullptr;
        lxw_error error = LXW_NO_ERROR;

        void keep(lxw_error e)
        {
            if (error == LXW_NO_ERROR)
                error = e;
        }
        void text(lxw_row_t row, lxw_col_t col, std::string_view value, lxw_format* format = nullptr)
        {
            if (!value.empty())
                keep(worksheet_write_string(ws, row, col, std::string(value).c_str(), format));
        }
        void number(lxw_row_t row, lxw_col_t col, double value, lxw_format* format = nullptr)
        {
            keep(worksheet_write_number(ws, row, col, value, format));
        }
    };

    core::Error xlsxError(const std::string& path, std::string_view what, lxw_error e)
    {
        core::Error error;
        error.code = "EXPORT_WRITE";
        error.message = std::string("cannot write the XLSX workbook: ") + std::string(what)
            + (e != LXW_NO_ERROR ? std::string(" (") + lxw_strerror(e) + ")" : std::string());
        error.where = path;
        error.hint = "check that the folder exists, is writable and has free space";
        return error;
    }

    lxw_format* headerFormat(lxw_workbook* wb)
    {
        lxw_format* format = workbook_add_format(wb);
        format_set_bold(format);
        format_set_bg_color(format, kHeaderFill);
        format_set_bottom(format, LXW_BORDER_THIN);
        return format;
    }

    template <std::size_t N>
    void writeHeader(Sheet& sheet, const std::array<Column, N>& columns, lxw_format* format,
        lxw_row_t lastRow)
    {
        for (std::size_t c = 0; c < N; ++c) {
            const auto col = static_cast<lxw_col_t>(c);
            sheet.keep(worksheet_set_column(sheet.ws, col, col, columns[c].width, nullptr));
            sheet.text(0, col, columns[c].title, format);
        }
        worksheet_freeze_panes(sheet.ws, 1, 0);
        sheet.keep(worksheet_autofilter(sheet.ws, 0, 0, lastRow, static_cast<lxw_col_t>(N - 1)));
    }

    void writeCage(Sheet& sheet, lxw_row_t row, lxw_col_t col, std::pair<int, int> cage)
    {
        if (cage.first <= 0)
            return;
        sheet.number(row, col, cage.first);
        sheet.number(row, col + 1, cage.second);
    }

    void writeLinkRow(Sheet& sheet, lxw_row_t row, const core::Plan& plan, std::size_t index)
    {
        const core::Link& link = plan.links[index];
        sheet.text(row, 0, plan.portName(link.a));
        writeCage(sheet, row, 1, plan.cageOf(link.a));
        sheet.text(row, 3, plan.portName(link.b));
        writeCage(sheet, row, 4, plan.cageOf(link.b));
        sheet.text(row, 6, core::toString(link.tier));
        sheet.text(row, 7, core::toString(link.medium));
        sheet.number(row, 8, link.lengthM);
        if (link.assembly < plan.assemblies.size()) {
            sheet.text(row, 9, plan.assemblies[link.assembly].cable);
            sheet.number(row, 10, static_cast<double>(link.assembly) + 1);
        }
        sheet.text(row, 11, link.installed ? "yes" : "no");
        sheet.text(row, 12, cableLabel(plan, index));
    }

    void writeBomRow(Sheet& sheet, lxw_row_t row, const core::BomLine& line, lxw_format* money)
    {
        sheet.text(row, 0, line.category);
        sheet.text(row, 1, line.item);
        sheet.text(row, 2, line.part);
        sheet.text(row, 3, line.catalogId);
        if (line.lengthM > 0)
            sheet.number(row, 4, line.lengthM);
        sheet.number(row, 5, static_cast<double>(line.quantity));
        if (line.unitPriceUsd) {
            sheet.number(row, 6, *line.unitPriceUsd, money);
            sheet.number(row, 7, *line.unitPriceUsd * static_cast<double>(line.quantity), money);
        }
        sheet.number(row, 8, line.unitPowerW);
    }

    void writeBomTotals(Sheet& sheet, lxw_row_t row, const core::Plan& plan, lxw_format* bold,
        lxw_format* boldMoney)
    {
        double quantity = 0, cost = 0, power = 0;
        bool priced = true;
        for (const auto& line : plan.bom) {
            const auto q = static_cast<double>(line.quantity);
            quantity += q;
            power += line.unitPowerW * q;
            priced = priced && line.unitPriceUsd.has_value();
            cost += line.unitPriceUsd.value_or(0) * q;
        }
        sheet.text(row, 0, "total", bold);
        sheet.text(row, 1, "Total", bold);
        sheet.number(row, 5, quantity, bold);
        if (priced)
            sheet.number(row, 7, cost, boldMoney);
        sheet.number(row, 8, power, bold);
    }

    /// Closes the workbook (which writes the file) and turns the first error into a Status.
    core::Status finish(lxw_workbook* wb, const Sheet& sheet, const std::string& path)
    {
        const lxw_error closeError = workbook_close(wb);
        if (sheet.error != LXW_NO_ERROR)
            return xlsxError(path, "a cell could not be written", sheet.error);
        if (closeError != LXW_NO_ERROR)
            return xlsxError(path, "the file could not be created", closeError);
        return core::Status::success();
    }

    lxw_workbook* openWorkbook(const std::string& path, bool constantMemory)
    {
        lxw_workbook_options options {};
        options.constant_memory = constantMemory ? LXW_TRUE : LXW_FALSE;
        options.use_zip64 = LXW_TRUE;
        return workbook_new_opt(path.c_str(), &options);
    }

} // namespace

namespace {

    void writeAddressHeader(Sheet& sheet, lxw_format* format)
    {
        for (std::size_t c = 0; c < kAddressColumns.size(); ++c) {
            const auto col = static_cast<lxw_col_t>(kCableColumns.size() + c);
            sheet.keep(worksheet_set_column(sheet.ws, col, col, kAddressColumns[c].width, nullptr));
            sheet.text(0, col, kAddressColumns[c].title, format);
        }
    }

    void writeAddressCells(Sheet& sheet, lxw_row_t row, const LinkAddresses& l)
    {
        const auto col = static_cast<lxw_col_t>(kCableColumns.size());
        const std::string suffix = "/" + std::to_string(l.prefixLength);
        if (!l.aAddress.empty())
            sheet.text(row, col, l.aAddress + suffix);
        if (!l.bAddress.empty())
            sheet.text(row, col + 1, l.bAddress + suffix);
    }

    core::Status writeCables(const core::Plan& plan, const std::string& path, const AddressPlan* addresses)
    {
        if (plan.links.size() >= LXW_ROW_MAX)
            return xlsxError(path, "the cable map has more rows than a worksheet holds", LXW_NO_ERROR);
        lxw_workbook* wb = openWorkbook(path, true);
        if (!wb)
            return xlsxError(path, "out of memory", LXW_NO_ERROR);
        Sheet sheet { workbook_add_worksheet(wb, "Cables") };
        const auto lastRow = static_cast<lxw_row_t>(plan.links.size());
        lxw_format* header = headerFormat(wb);
        writeHeader(sheet, kCableColumns, header, lastRow);
        if (addresses) {
            writeAddressHeader(sheet, header);
            const auto lastCol = static_cast<lxw_col_t>(kCableColumns.size() + kAddressColumns.size() - 1);
            sheet.keep(worksheet_autofilter(sheet.ws, 0, 0, lastRow, lastCol));
        }
        lxw_row_t row = 1;
        for (std::size_t i = 0; i < plan.links.size(); ++i) {
            // Constant-memory mode writes a row once it is left: every cell of the row first.
            writeLinkRow(sheet, row, plan, i);
            if (addresses && i < addresses->links.size())
                writeAddressCells(sheet, row, addresses->links[i]);
            ++row;
        }
        return finish(wb, sheet, path);
    }

} // namespace

core::Status writeCablesXlsx(const core::Plan& plan, const std::string& path, const AddressPlan& addresses)
{
    return writeCables(plan, path, &addresses);
}

core::Status writeCablesXlsx(const core::Plan& plan, const std::string& path)
{
    if (!isRouted(plan))
        return writeCables(plan, path, nullptr);
    const core::Result<AddressPlan> addresses = planAddresses(plan);
    const AddressPlan none;
    return writeCables(plan, path, addresses ? &*addresses : &none);
}

core::Status writeBomXlsx(const core::Plan& plan, const std::string& path)
{
    lxw_workbook* wb = openWorkbook(path, false);
    if (!wb)
        return xlsxError(path, "out of memory", LXW_NO_ERROR);
    Sheet sheet { workbook_add_worksheet(wb, "BOM") };
    lxw_format* money = workbook_add_format(wb);
    format_set_num_format(money, "#,##0.00");
    lxw_format* bold = workbook_add_format(wb);
    format_set_bold(bold);
    format_set_top(bold, LXW_BORDER_THIN);
    lxw_format* boldMoney = workbook_add_format(wb);
    format_set_bold(boldMoney);
    format_set_top(boldMoney, LXW_BORDER_THIN);
    format_set_num_format(boldMoney, "#,##0.00");
    writeHeader(sheet, kBomColumns, headerFormat(wb), static_cast<lxw_row_t>(plan.bom.size()));
    lxw_row_t row = 1;
    for (const auto& line : plan.bom)
        writeBomRow(sheet, row++, line, money);
    writeBomTotals(sheet, row, plan, bold, boldMoney);
    return finish(wb, sheet, path);
}

} // namespace railyard::planner
