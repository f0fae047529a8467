// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Cable map and bill of materials as CSV and JSON. Rows are built in a std::string and
// written in 1 MiB chunks: a 393K-link cable map has no per-field stream overhead.
#include "planner/exporters.h"

#include "planner/addressing.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::planner {

namespace {

    constexpr std::string_view kCablesHeader
        = "a,a_cage,a_pos,b,b_cage,b_pos,tier,type,length_m,part,assembly,installed,label\n";
    constexpr std::string_view kAddressColumns = ",a_address,b_address";
    constexpr std::size_t kChunkBytes = std::size_t { 1 } << 20; ///< rows are written in chunks of about this size
    constexpr std::size_t kCableIdDigits = 6; ///< "C000123": at least this many digits
    constexpr std::string_view kLabelJoin = " <-> ";

    constexpr std::string_view kBomHeader = "category,item,part,catalog_id,length_m,quantity,"
                                            "unit_price_usd,total_price_usd,unit_power_w\n";

    void appendInt(std::string& row, long long value)
    {
        char buf[24];
        const auto result = std::to_chars(buf, buf + sizeof buf, value);
        row.append(buf, result.ptr);
    }

    /// formatNumber() for cable lengths, remembering the few distinct lengths a plan has.
    class LengthText {
    public:
        const std::string& operator()(float value)
        {
            for (const auto& [v, text] : m_cache)
                if (v == value)
                    return text;
            if (m_cache.size() < kMaxCached)
                return m_cache.emplace_back(value, core::formatNumber(value)).second;
            m_scratch = core::formatNumber(value);
            return m_scratch;
        }

    private:
        static constexpr std::size_t kMaxCached = 64;
        std::vector<std::pair<float, std::string>> m_cache;
        std::string m_scratch;
    };

    void appendCage(std::string& row, const core::Plan& plan, const core::PortRef& port)
    {
        const auto [cage, position] = plan.cageOf(port);
        if (cage > 0) {
            appendInt(row, cage);
            row += ',';
            appendInt(row, position);
        } else {
            row += ',';
        }
    }

    /// "C000123"; appended without a temporary string.
    void appendCableId(std::string& text, std::size_t linkIndex)
    {
        char buf[24];
        const auto result = std::to_chars(buf, buf + sizeof buf, static_cast<unsigned long long>(linkIndex) + 1);
        const auto digits = static_cast<std::size_t>(result.ptr - buf);
        text += 'C';
        if (digits < kCableIdDigits)
            text.append(kCableIdDigits - digits, '0');
        text.append(buf, digits);
    }

    void appendLabel(std::string& text, std::size_t linkIndex, std::string_view a, std::string_view b)
    {
        appendCableId(text, linkIndex);
        text += ' ';
        text += a;
        text += kLabelJoin;
        text += b;
    }

    void appendLink(std::string& row, const core::Plan& plan, std::size_t index, LengthText& length)
    {
        const core::Link& link = plan.links[index];
        const std::string a = plan.portName(link.a);
        const std::string b = plan.portName(link.b);
        core::appendCsvField(row, a);
        row += ',';
        appendCage(row, plan, link.a);
        row += ',';
        core::appendCsvField(row, b);
        row += ',';
        appendCage(row, plan, link.b);
        row += ',';
        row += core::toString(link.tier);
        row += ',';
        row += core::toString(link.medium);
        row += ',';
        row += length(link.lengthM);
        row += ',';
        if (link.assembly < plan.assemblies.size()) {
            core::appendCsvField(row, plan.assemblies[link.assembly].cable);
            row += ',';
            appendInt(row, static_cast<long long>(link.assembly) + 1);
        } else {
            row += ',';
        }
        row += link.installed ? ",yes," : ",no,";
        if (core::csvNeedsQuotes(a) || core::csvNeedsQuotes(b)) {
            std::string label;
            appendLabel(label, index, a, b);
            core::appendCsvField(row, label);
        } else {
            appendLabel(row, index, a, b); // the common case: no temporary
        }
        row += '\n';
    }

    bool everyLinePriced(const core::Plan& plan)
    {
        for (const auto& line : plan.bom)
            if (!line.unitPriceUsd)
                return false;
        return true;
    }

    double totalPowerW(const core::Plan& plan)
    {
        double sum = 0;
        for (const auto& line : plan.bom)
            sum += line.unitPowerW * static_cast<double>(line.quantity);
        return sum;
    }

    double totalCostUsd(const core::Plan& plan)
    {
        double sum = 0;
        for (const auto& line : plan.bom)
            sum += line.unitPriceUsd.value_or(0) * static_cast<double>(line.quantity);
        return sum;
    }

    void appendBomLine(std::string& row, const core::BomLine& line)
    {
        core::appendCsvField(row, line.category);
        row += ',';
        core::appendCsvField(row, line.item);
        row += ',';
        core::appendCsvField(row, line.part);
        row += ',';
        core::appendCsvField(row, line.catalogId);
        row += ',';
        if (line.lengthM > 0)
            row += core::formatNumber(line.lengthM);
        row += ',';
        appendInt(row, line.quantity);
        row += ',';
        if (line.unitPriceUsd) {
            row += core::formatNumber(*line.unitPriceUsd);
            row += ',';
            row += core::formatNumber(*line.unitPriceUsd * static_cast<double>(line.quantity));
        } else {
            row += ',';
        }
        row += ',';
        row += core::formatNumber(line.unitPowerW);
        row += '\n';
    }

    void appendBomTotals(std::string& row, const core::Plan& plan)
    {
        long long quantity = 0;
        for (const auto& line : plan.bom)
            quantity += line.quantity;
        row += "total,Total,,,,";
        appendInt(row, quantity);
        row += ",,";
        if (everyLinePriced(plan))
            row += core::formatNumber(totalCostUsd(plan));
        row += ',';
        row += core::formatNumber(totalPowerW(plan));
        row += '\n';
    }

    /// One BOM line with the CSV's columns in the CSV's order; `length_m` for cables only,
    /// prices null when the catalog has none.
    nlohmann::ordered_json bomLineJson(const core::BomLine& line)
    {
        nlohmann::ordered_json j;
        j["category"] = line.category;
        j["item"] = line.item;
        j["part"] = line.part;
        j["catalog_id"] = line.catalogId;
        if (line.lengthM > 0)
            j["length_m"] = line.lengthM;
        j["quantity"] = line.quantity;
        j["unit_price_usd"] = line.unitPriceUsd ? nlohmann::ordered_json(*line.unitPriceUsd) : nullptr;
        j["total_price_usd"] = line.unitPriceUsd
            ? nlohmann::ordered_json(*line.unitPriceUsd * static_cast<double>(line.quantity))
            : nullptr;
        j["unit_power_w"] = line.unitPowerW;
        return j;
    }

} // namespace

std::string cableId(std::size_t linkIndex)
{
    std::string id;
    appendCableId(id, linkIndex);
    return id;
}

std::string cableLabel(const core::Plan& plan, std::size_t linkIndex)
{
    if (linkIndex >= plan.links.size())
        return cableId(linkIndex);
    const core::Link& link = plan.links[linkIndex];
    std::string label;
    appendLabel(label, linkIndex, plan.portName(link.a), plan.portName(link.b));
    return label;
}

namespace {

    /// "10.0.0.1/31"; nothing when the link has no address (an address plan that failed).
    void appendAddress(std::string& row, const std::string& address, int prefixLength)
    {
        if (address.empty())
            return;
        row += address;
        row += '/';
        appendInt(row, prefixLength);
    }

    void writeCables(const core::Plan& plan, std::ostream& out, const AddressPlan* addresses)
    {
        std::string text(kCablesHeader);
        if (addresses) {
            text.pop_back(); // the address columns go at the end, so that readers of the old columns keep working
            text += kAddressColumns;
            text += '\n';
        }
        text.reserve(kChunkBytes + 1024);
        LengthText length;
        for (std::size_t i = 0; i < plan.links.size(); ++i) {
            appendLink(text, plan, i, length);
            if (addresses) {
                text.pop_back();
                const bool known = i < addresses->links.size();
                text += ',';
                if (known)
                    appendAddress(text, addresses->links[i].aAddress, addresses->links[i].prefixLength);
                text += ',';
                if (known)
                    appendAddress(text, addresses->links[i].bAddress, addresses->links[i].prefixLength);
                text += '\n';
            }
            if (text.size() >= kChunkBytes) {
                out.write(text.data(), static_cast<std::streamsize>(text.size()));
                text.clear();
            }
        }
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }

} // namespace

void writeCablesCsv(const core::Plan& plan, std::ostream& out, const AddressPlan& addresses)
{
    writeCables(plan, out, &addresses);
}

void writeCablesCsv(const core::Plan& plan, std::ostream& out)
{
    if (!isRouted(plan)) {
        writeCables(plan, out, nullptr);
        return;
    }
    // A routed plan whose ranges are too small has the columns, empty; its findings say why.
    const core::Result<AddressPlan> addresses = planAddresses(plan);
    const AddressPlan none;
    writeCables(plan, out, addresses ? &*addresses : &none);
}

void writeBomCsv(const core::Plan& plan, std::ostream& out)
{
    std::string text(kBomHeader);
    for (const auto& line : plan.bom)
        appendBomLine(text, line);
    appendBomTotals(text, plan);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void writeBomJson(const core::Plan& plan, std::ostream& out)
{
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    std::map<std::string, long long> quantities;
    for (const auto& line : plan.bom) {
        lines.push_back(bomLineJson(line));
        quantities[line.category] += line.quantity;
    }
    nlohmann::ordered_json totals { { "quantity", quantities }, { "power_w", totalPowerW(plan) } };
    if (everyLinePriced(plan))
        totals["cost_usd"] = totalCostUsd(plan);
    const nlohmann::ordered_json doc { { "plan", plan.spec.name }, { "lines", std::move(lines) },
        { "totals", std::move(totals) } };
    out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

} // namespace railyard::planner
