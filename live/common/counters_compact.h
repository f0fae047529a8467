// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent's compact counter text (`GET /v1/counters?format=compact`): the same snapshot as the
// JSON `/v1/counters` (inventory.h CounterSnapshot), one line per sample, so that a client
// polling 16K nodes reads it with std::from_chars and no allocation per sample. The format (also
// in live/README.md), words separated by one or more blanks, lines by "\n" ("\r\n" accepted):
//
//   railyard-counters <api_version> <node> <timestamp_ms>     first line
//   port <device> <port> <rail> <netdev>                     a port; the samples below are its own
//   c <name> <kind> <width> <value> [saturated]              ports/<n>/counters/<name>
//   h <name> <kind> <width> <value> [saturated]              ports/<n>/hw_counters/<name>
//   e <name> <value>                                         netdev statistic (ethtool -S)
//   end <ports> <samples>                                    last line: what was sent, so a cut text is refused
//
// <kind> is plain, words4, saturating or wrapping32 (toString(CounterKind)), <width> 1 to 64 bits,
// "-" stands for an empty node or netdev. Names and devices are single words (the sysfs and
// ethtool names are). A name given twice in one port: the last one counts, as in the JSON.
// Readers accept api_version up to kApiVersion and refuse a newer one (AGENT_API_VERSION).
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace railyard::live {

/// The media type the agent sends the compact text with.
inline constexpr const char* kCompactCountersType = "text/plain; version=railyard-counters-1; charset=utf-8";

/// The snapshot as compact text. Fails (AGENT_COMPACT) when a name, device or node is not one
/// word, which the format cannot carry; the JSON form can.
core::Result<std::string> toCompactText(const CounterSnapshot& snapshot);

/// Where a sample comes from, as in PortCounters.
enum class CounterSection : std::uint8_t { Counters, HwCounters, Ethtool };

/// Counter names interned: one id per (section, name), kept across documents so that the same
/// names of 16K nodes are looked up once. A name is first compared with the one seen at the
/// same position of the previous port (the ports of a fleet have the same counters in the same
/// order), and hashed only when that differs.
class CounterNames {
public:
    /// At most this many distinct names (a hostile agent cannot grow the table without bound).
    static constexpr std::size_t kMaxNames = 1u << 16;

    /// The id of (section, name), made on first sight; kMaxNames when the table is full.
    std::uint32_t intern(CounterSection section, std::string_view name, std::size_t position);
    /// The id last seen at `position` when it is of `section`, else kMaxNames: the reader
    /// compares its name with the text in place and interns only when that differs.
    std::uint32_t predicted(CounterSection section, std::size_t position) const
    {
        if (position >= m_byPosition.size())
            return static_cast<std::uint32_t>(kMaxNames);
        const std::uint32_t id = m_byPosition[position];
        return id < m_names.size() && m_sections[id] == section ? id : static_cast<std::uint32_t>(kMaxNames);
    }
    const std::string& name(std::uint32_t id) const { return m_names[id]; }
    CounterSection section(std::uint32_t id) const { return m_sections[id]; }
    std::size_t size() const { return m_names.size(); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::vector<std::string> m_names;
    std::vector<CounterSection> m_sections;
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> m_ids[3];
    std::vector<std::uint32_t> m_byPosition; ///< the id last seen at each position in a port
};

/// What a compact text holds, in order. The parser calls begin() once, port() per port and
/// sample() per sample of the port before it; on an error it stops and the sink's content is
/// to be dropped (a document counts whole or not at all).
class CompactCountersSink {
public:
    virtual ~CompactCountersSink() = default;
    virtual void begin(std::string_view node, std::int64_t timestampMs) = 0;
    virtual void port(std::string_view device, int port, int rail, std::string_view netdev) = 0;
    /// An ethtool statistic comes as {value, Plain, 64, false}.
    virtual void sample(CounterSection section, std::uint32_t name, const Counter& value) = 0;
};

/// Reads one compact text into `sink`, names interned in `names`. Refuses anything else with
/// an error (code AGENT_COMPACT, or AGENT_API_VERSION) that names the line, its text and `where`
/// ("http://10.0.0.7:9473/v1/counters?format=compact"). Never reads past `text`.
core::Status parseCompactCounters(std::string_view text, std::string_view where, CounterNames& names, CompactCountersSink& sink);

/// The compact text as a CounterSnapshot (what countersFromJson gives for the JSON form).
core::Result<CounterSnapshot> countersFromCompact(std::string_view text, std::string_view where);

} // namespace railyard::live
