// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/catalog_reader.h"

#include "core/text.h"

#include <cmath>

namespace railyard::core::detail {

namespace {

    using nlohmann::json;

    constexpr std::size_t kMaxShownChars = 40;
    constexpr double kMaxNumber = 1e9;

    bool isIdChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    }

    std::string knownList(std::span<const std::string_view> known)
    {
        std::string out;
        for (auto k : known) {
            if (!out.empty())
                out += ", ";
            out += k;
        }
        return out;
    }

    std::string rangeMessage(int min, int max)
    {
        if (min == 1 && max >= 1000000)
            return "must be a positive integer";
        if (min == 0 && max >= 1000000)
            return "must be a non-negative integer";
        return "must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
    }

    std::optional<PortRate> readIbRate(ObjectReader& r)
    {
        static constexpr std::string_view kKeys[] = { "generation", "width" };
        r.rejectUnknown(kKeys);
        const std::string name = r.text("generation", Need::Required);
        const int width = r.integer("width", Need::Required, 4, 1, 12);
        if (r.context().failed())
            return std::nullopt;
        const auto generation = parseIbGeneration(name);
        if (!generation) {
            r.context().fail(r.field("generation"), "unknown InfiniBand generation " + describeValue(name),
                "one of SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR");
            return std::nullopt;
        }
        auto rate = ibRate(*generation, width);
        if (!rate) {
            r.context().fail(r.field("width"),
                std::string(toString(*generation)) + " is not offered at width " + std::to_string(width));
        }
        return rate;
    }

    std::optional<PortRate> readEthernetRate(ObjectReader& r)
    {
        static constexpr std::string_view kKeys[] = { "speed_gbps", "lanes" };
        r.rejectUnknown(kKeys);
        const int speed = r.integer("speed_gbps", Need::Required, 0, 1, 1000000);
        const int lanes = r.integer("lanes", Need::Required, 4, 1, 16);
        if (r.context().failed())
            return std::nullopt;
        auto rate = ethernetRate(speed, lanes);
        if (!rate) {
            const std::string field = ethernetGrade(speed, 4) || ethernetGrade(speed, 8) || ethernetGrade(speed, 2)
                    || ethernetGrade(speed, 1)
                ? "lanes"
                : "speed_gbps";
            r.context().fail(r.field(field),
                "no Ethernet PHY runs " + std::to_string(speed) + "G over " + std::to_string(lanes) + " lanes",
                "known: 100G over 4, 2 or 1 lanes; 200G over 4 or 2; 400G over 8 or 4; 800G over 8 or 4");
        }
        return rate;
    }

} // namespace

std::string describeValue(const json& value)
{
    std::string s = value.dump();
    if (s.size() > kMaxShownChars)
        s = s.substr(0, kMaxShownChars - 3) + "...";
    return s;
}

EntryContext::EntryContext(std::string file, std::string section, std::size_t index)
    : m_file(std::move(file))
    , m_section(std::move(section))
    , m_index(index)
{
}

EntryContext::EntryContext(std::string file)
    : m_file(std::move(file))
{
}

void EntryContext::fail(const std::string& field, std::string message, std::string hint)
{
    if (!m_error)
        m_error = Error { "CATALOG_FIELD", std::move(message), where(field), std::move(hint) };
}

std::string EntryContext::where(const std::string& field) const
{
    std::string out = m_file;
    if (!m_section.empty()) {
        out += ": " + m_section + "[" + std::to_string(m_index) + "]";
        if (!m_id.empty())
            out += " (id \"" + m_id + "\")";
    }
    if (!field.empty())
        out += ": " + field;
    return out;
}

ObjectReader::ObjectReader(const json& value, std::string path, EntryContext& ctx)
    : m_path(std::move(path))
    , m_ctx(ctx)
{
    if (value.is_object())
        m_object = &value;
    else
        m_ctx.fail(m_path, "must be an object, got " + describeValue(value));
}

std::string ObjectReader::field(std::string_view key) const
{
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

const json* ObjectReader::find(std::string_view key) const
{
    if (!m_object)
        return nullptr;
    const auto it = m_object->find(key);
    return it == m_object->end() ? nullptr : &*it;
}

void ObjectReader::rejectUnknown(std::span<const std::string_view> known, std::string_view noun)
{
    if (!m_object)
        return;
    for (const auto& item : m_object->items()) {
        bool isKnown = false;
        for (auto k : known)
            isKnown = isKnown || k == item.key();
        if (!isKnown) {
            m_ctx.fail(field(item.key()), "unknown " + std::string(noun),
                "known " + std::string(noun) + "s: " + knownList(known));
            return;
        }
    }
}

std::string ObjectReader::text(std::string_view key, Need need)
{
    const json* v = find(key);
    if (!v) {
        if (need == Need::Required && m_object)
            m_ctx.fail(field(key), "required field is missing");
        return {};
    }
    if (!v->is_string()) {
        m_ctx.fail(field(key), "must be a string, got " + describeValue(*v));
        return {};
    }
    std::string s = v->get<std::string>();
    if (need == Need::Required && s.empty())
        m_ctx.fail(field(key), "must not be empty");
    return s;
}

std::string ObjectReader::id(std::string_view key, Need need)
{
    std::string s = text(key, need);
    bool good = !s.empty() && s.front() != '-' && s.front() != '.';
    for (char c : s)
        good = good && isIdChar(c);
    if (!s.empty() && !good) {
        m_ctx.fail(field(key), "must be a lower-case id (a-z, 0-9, '-', '.', '_'), got " + describeValue(s));
        return {};
    }
    return s;
}

int ObjectReader::integer(std::string_view key, Need need, int fallback, int min, int max)
{
    const json* v = find(key);
    if (!v) {
        if (need == Need::Required && m_object)
            m_ctx.fail(field(key), "required field is missing");
        return fallback;
    }
    if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > max) {
        m_ctx.fail(field(key), rangeMessage(min, max) + ", got " + describeValue(*v));
        return fallback;
    }
    return static_cast<int>(v->get<long long>());
}

double ObjectReader::number(std::string_view key, Need need, double fallback, bool allowZero)
{
    const json* v = find(key);
    if (!v) {
        if (need == Need::Required && m_object)
            m_ctx.fail(field(key), "required field is missing");
        return fallback;
    }
    const double d = v->is_number() ? v->get<double>() : -1;
    if (!v->is_number() || !std::isfinite(d) || d < 0 || (d == 0 && !allowZero) || d > kMaxNumber) {
        m_ctx.fail(field(key),
            std::string(allowZero ? "must be a non-negative number" : "must be a positive number") + ", got "
                + describeValue(*v));
        return fallback;
    }
    return d;
}

std::optional<double> ObjectReader::optionalNumber(std::string_view key)
{
    if (!find(key))
        return std::nullopt;
    return number(key, Need::Optional, 0, true);
}

bool ObjectReader::flag(std::string_view key, bool fallback)
{
    const json* v = find(key);
    if (!v)
        return fallback;
    if (!v->is_boolean()) {
        m_ctx.fail(field(key), "must be true or false, got " + describeValue(*v));
        return fallback;
    }
    return v->get<bool>();
}

const json* ObjectReader::array(std::string_view key, Need need)
{
    const json* v = find(key);
    if (!v) {
        if (need == Need::Required && m_object)
            m_ctx.fail(field(key), "required field is missing");
        return nullptr;
    }
    if (!v->is_array()) {
        m_ctx.fail(field(key), "must be a list, got " + describeValue(*v));
        return nullptr;
    }
    if (need == Need::Required && v->empty()) {
        m_ctx.fail(field(key), "must not be empty");
        return nullptr;
    }
    return v;
}

std::optional<Fabric> ObjectReader::fabric(std::string_view key)
{
    const std::string s = text(key, Need::Required);
    if (s.empty())
        return std::nullopt;
    auto f = parseFabric(s);
    if (!f)
        m_ctx.fail(field(key), "must be \"infiniband\" or \"rocev2\", got " + describeValue(s));
    return f;
}

std::vector<Fabric> ObjectReader::fabrics(std::string_view key)
{
    std::vector<Fabric> out;
    const json* list = array(key, Need::Optional);
    if (!list)
        return out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& v = (*list)[i];
        const auto f = v.is_string() ? parseFabric(v.get<std::string>()) : std::nullopt;
        if (!f) {
            m_ctx.fail(elementPath(field(key), i), "must be \"infiniband\" or \"rocev2\", got " + describeValue(v));
            return {};
        }
        out.push_back(*f);
    }
    return out;
}

std::string elementPath(const std::string& path, std::size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

std::optional<PortRate> readRate(const json& value, const std::string& path, Fabric fabric, EntryContext& ctx)
{
    ObjectReader r(value, path, ctx);
    if (!r.ok())
        return std::nullopt;
    return fabric == Fabric::InfiniBand ? readIbRate(r) : readEthernetRate(r);
}

} // namespace railyard::core::detail
