// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/counters_compact.h"

#include "live/common/inventory_json.h"
#include "live/common/text_scan.h"

#include <array>
#include <charconv>
#include <cstring>
#include <utility>

namespace railyard::live {

namespace {

    constexpr const char* kHint = "a railyard-agent's /v1/counters?format=compact answer is expected (live/README.md, "
                                  "\"Compact counters\"); the JSON form /v1/counters reads any agent";

    bool oneWord(std::string_view s)
    {
        if (s.empty())
            return false;
        for (char c : s)
            if (text::isSpace(c))
                return false;
        return true;
    }

    /// "-" for empty (node, netdev), else the word itself.
    std::string_view orDash(std::string_view s) { return s.empty() ? std::string_view("-") : s; }
    std::string_view undash(std::string_view s) { return s == "-" ? std::string_view {} : s; }

    void appendNumber(std::string& out, std::int64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
    void appendNumber(std::string& out, std::uint64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }

    /// Up to 6 words of one line; `count` 7 means "more than 6".
    struct Words {
        std::array<std::string_view, 6> w;
        std::size_t count = 0;
    };

    // Words are separated by what oneWord() refuses in a word (text::isSpace), so that whatever
    // is read here can be written back (a name with a '\f' or '\v' in it was read as one word
    // and then refused by toCompactText; found by fuzz/fuzz_agent_answers).
    Words wordsOf(const char* p, const char* end)
    {
        Words out;
        while (p < end) {
            while (p < end && text::isSpace(*p))
                ++p;
            if (p == end)
                break;
            const char* start = p;
            while (p < end && !text::isSpace(*p))
                ++p;
            if (out.count == out.w.size()) {
                out.count = out.w.size() + 1;
                break;
            }
            out.w[out.count++] = std::string_view(start, static_cast<std::size_t>(p - start));
        }
        return out;
    }

    template <class T>
    bool number(std::string_view s, T& v)
    {
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        return r.ec == std::errc {} && r.ptr == s.data() + s.size();
    }

    bool kindOf(std::string_view s, CounterKind& kind)
    {
        // The JSON's words (toString(CounterKind)), so both forms say the same.
        static const std::array<std::pair<std::string, CounterKind>, 4> kinds = [] {
            std::array<std::pair<std::string, CounterKind>, 4> k;
            std::size_t i = 0;
            for (CounterKind c : { CounterKind::Plain, CounterKind::Words4, CounterKind::Saturating, CounterKind::Wrapping32 })
                k[i++] = { std::string(toString(c)), c };
            return k;
        }();
        for (const auto& [word, k] : kinds)
            if (s == word) {
                kind = k;
                return true;
            }
        return false;
    }

    /// A sample line exactly as toCompactText() writes it (one space between words), read in
    /// one pass; false for anything else, which the word-by-word reading below then reads (more
    /// blanks) or refuses (with the error). This is where the time of a sweep goes: 16 lines a
    /// port, 2M a sweep at 16K nodes.
    bool fastSample(const char* p, const char* e, CounterNames& names, std::size_t position, CounterSection& section,
        std::uint32_t& id, Counter& c)
    {
        if (e - p < 2 || p[1] != ' ')
            return false;
        switch (p[0]) {
        case 'c': section = CounterSection::Counters; break;
        case 'h': section = CounterSection::HwCounters; break;
        case 'e': section = CounterSection::Ethtool; break;
        default: return false;
        }
        p += 2;
        // The ports of a fleet list the same names in the same order: compare in place first.
        id = names.predicted(section, position);
        const std::size_t size = id < CounterNames::kMaxNames ? names.name(id).size() : 0;
        if (size > 0 && static_cast<std::size_t>(e - p) > size && std::memcmp(p, names.name(id).data(), size) == 0 && p[size] == ' ') {
            p += size + 1;
        } else {
            // Up to any blank, as wordsOf() reads it: a name with a '\r' in it was taken whole
            // here (fuzz/fuzz_agent_answers); now such a line goes to wordsOf(), which refuses it.
            const char* word = p;
            while (p < e && !text::isSpace(*p))
                ++p;
            if (p == word || p == e || *p != ' ')
                return false;
            id = names.intern(section, std::string_view(word, static_cast<std::size_t>(p - word)), position);
            ++p;
        }
        if (section == CounterSection::Ethtool) {
            c = Counter {};
            const auto r = std::from_chars(p, e, c.value);
            return r.ec == std::errc {} && r.ptr == e;
        }
        const char* word = p;
        while (p < e && *p != ' ')
            ++p;
        if (p == e || !kindOf(std::string_view(word, static_cast<std::size_t>(p - word)), c.kind))
            return false;
        ++p;
        auto r = std::from_chars(p, e, c.widthBits);
        if (r.ec != std::errc {} || r.ptr == e || *r.ptr != ' ' || c.widthBits < 1 || c.widthBits > 64)
            return false;
        r = std::from_chars(r.ptr + 1, e, c.value);
        if (r.ec != std::errc {})
            return false;
        c.saturated = r.ptr != e;
        return r.ptr == e || std::string_view(r.ptr, static_cast<std::size_t>(e - r.ptr)) == " saturated";
    }

    void appendSamples(std::string& out, char tag, const std::map<std::string, Counter>& counters)
    {
        for (const auto& [name, c] : counters) {
            out += tag;
            out += ' ';
            out += name;
            out += ' ';
            out += toString(c.kind);
            out += ' ';
            appendNumber(out, static_cast<std::int64_t>(c.widthBits));
            out += ' ';
            appendNumber(out, c.value);
            if (c.saturated)
                out += " saturated";
            out += '\n';
        }
    }

    /// Builds a CounterSnapshot: what countersFromCompact() gives.
    class SnapshotSink final : public CompactCountersSink {
    public:
        explicit SnapshotSink(const CounterNames& names)
            : m_names(names)
        {
        }
        void begin(std::string_view node, std::int64_t timestampMs) override
        {
            snapshot.node = node;
            snapshot.timestampMs = timestampMs;
        }
        void port(std::string_view device, int port, int rail, std::string_view netdev) override
        {
            PortCounters& p = snapshot.ports.emplace_back();
            p.device = device;
            p.port = port;
            p.rail = rail;
            p.netdev = netdev;
        }
        void sample(CounterSection section, std::uint32_t name, const Counter& value) override
        {
            PortCounters& p = snapshot.ports.back();
            const std::string& n = m_names.name(name);
            switch (section) {
            case CounterSection::Counters: p.counters[n] = value; break;
            case CounterSection::HwCounters: p.hwCounters[n] = value; break;
            case CounterSection::Ethtool: p.ethtool[n] = value.value; break;
            }
        }
        CounterSnapshot snapshot;

    private:
        const CounterNames& m_names;
    };

} // namespace

core::Result<std::string> toCompactText(const CounterSnapshot& s)
{
    auto refuse = [](const std::string& what, std::string_view value) {
        return core::Error { "AGENT_COMPACT", what + " " + text::quoteLine(value) + " is not one word: the compact counter text cannot carry it",
            "", "ask for the JSON form (/v1/counters without ?format=compact)" };
    };
    if (!s.node.empty() && !oneWord(s.node))
        return refuse("node", s.node);
    std::string out;
    out.reserve(64 + s.ports.size() * 1024);
    out += "railyard-counters ";
    appendNumber(out, static_cast<std::int64_t>(kApiVersion));
    out += ' ';
    out += orDash(s.node);
    out += ' ';
    appendNumber(out, s.timestampMs);
    out += '\n';
    std::size_t samples = 0;
    for (const PortCounters& p : s.ports) {
        if (!oneWord(p.device))
            return refuse("device", p.device);
        if (!p.netdev.empty() && !oneWord(p.netdev))
            return refuse("netdev", p.netdev);
        for (const auto* m : { &p.counters, &p.hwCounters })
            for (const auto& [name, c] : *m)
                if (!oneWord(name))
                    return refuse("counter", name);
        for (const auto& [name, v] : p.ethtool)
            if (!oneWord(name))
                return refuse("statistic", name);
        out += "port ";
        out += p.device;
        out += ' ';
        appendNumber(out, static_cast<std::int64_t>(p.port));
        out += ' ';
        appendNumber(out, static_cast<std::int64_t>(p.rail));
        out += ' ';
        out += orDash(p.netdev);
        out += '\n';
        appendSamples(out, 'c', p.counters);
        appendSamples(out, 'h', p.hwCounters);
        for (const auto& [name, v] : p.ethtool) {
            out += "e ";
            out += name;
            out += ' ';
            appendNumber(out, v);
            out += '\n';
        }
        samples += p.counters.size() + p.hwCounters.size() + p.ethtool.size();
    }
    out += "end ";
    appendNumber(out, static_cast<std::uint64_t>(s.ports.size()));
    out += ' ';
    appendNumber(out, static_cast<std::uint64_t>(samples));
    out += '\n';
    return out;
}

std::uint32_t CounterNames::intern(CounterSection section, std::string_view name, std::size_t position)
{
    if (position < m_byPosition.size()) {
        const std::uint32_t id = m_byPosition[position];
        if (id < m_names.size() && m_sections[id] == section && m_names[id] == name)
            return id;
    }
    auto& ids = m_ids[static_cast<std::size_t>(section)];
    std::uint32_t id;
    if (const auto it = ids.find(name); it != ids.end()) {
        id = it->second;
    } else {
        if (m_names.size() >= kMaxNames)
            return static_cast<std::uint32_t>(kMaxNames);
        id = static_cast<std::uint32_t>(m_names.size());
        m_names.emplace_back(name);
        m_sections.push_back(section);
        ids.emplace(std::string(name), id);
    }
    // The memo is only a guess; a position far beyond any real port's counter count is not kept.
    if (position < 4096) {
        if (position >= m_byPosition.size())
            m_byPosition.resize(position + 1, static_cast<std::uint32_t>(kMaxNames));
        m_byPosition[position] = id;
    }
    return id;
}

core::Status parseCompactCounters(std::string_view text, std::string_view where, CounterNames& names, CompactCountersSink& sink)
{
    const char* p = text.data();
    const char* const end = text.data() + text.size();
    std::size_t lineNo = 0;
    std::string_view line;
    auto fail = [&](const std::string& what) {
        return core::Error { "AGENT_COMPACT", "line " + std::to_string(lineNo) + ": " + what + ", got " + text::quoteLine(line),
            std::string(where), kHint };
    };
    bool header = false, ended = false, inPort = false;
    std::size_t ports = 0, samples = 0, position = 0;
    while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        const char* lineEnd = nl ? nl : end;
        line = std::string_view(p, static_cast<std::size_t>(lineEnd - p));
        p = nl ? nl + 1 : end;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (inPort && !ended) {
            CounterSection section;
            std::uint32_t id = 0;
            Counter c;
            if (fastSample(line.data(), line.data() + line.size(), names, position, section, id, c)) {
                ++position;
                if (id >= CounterNames::kMaxNames)
                    return fail("at most " + std::to_string(CounterNames::kMaxNames) + " distinct counter names");
                sink.sample(section, id, c);
                ++samples;
                continue;
            }
        }
        const Words w = wordsOf(line.data(), line.data() + line.size());
        if (w.count == 0)
            return fail("an empty line");
        if (ended)
            return fail("nothing after the \"end\" line");
        const std::string_view tag = w.w[0];
        if (!header) {
            if (tag != "railyard-counters")
                return fail("the first line \"railyard-counters <api_version> <node> <timestamp_ms>\"");
            std::uint64_t version = 0;
            std::int64_t ms = 0;
            if (w.count != 4 || !number(w.w[1], version) || !number(w.w[3], ms))
                return fail("\"railyard-counters <api_version> <node> <timestamp_ms>\" (whole numbers)");
            if (core::Status supported = checkApiVersion(version, where); !supported)
                return supported.error();
            sink.begin(undash(w.w[2]), ms);
            header = true;
            continue;
        }
        const bool withSaturated = w.count == 6;
        if ((tag == "c" || tag == "h") && (w.count == 5 || withSaturated)) {
            if (!inPort)
                return fail("a \"port\" line before the first sample");
            Counter c;
            if (!kindOf(w.w[2], c.kind))
                return fail("a kind plain, words4, saturating or wrapping32");
            if (!number(w.w[3], c.widthBits) || c.widthBits < 1 || c.widthBits > 64)
                return fail("a width of 1 to 64 bits");
            if (!number(w.w[4], c.value))
                return fail("a value, a whole number from 0 to 2^64-1");
            if (withSaturated && w.w[5] != "saturated")
                return fail("\"saturated\" or nothing after the value");
            c.saturated = withSaturated;
            const CounterSection section = tag == "c" ? CounterSection::Counters : CounterSection::HwCounters;
            const std::uint32_t id = names.intern(section, w.w[1], position++);
            if (id >= CounterNames::kMaxNames)
                return fail("at most " + std::to_string(CounterNames::kMaxNames) + " distinct counter names");
            sink.sample(section, id, c);
            ++samples;
        } else if (tag == "e" && w.count == 3) {
            if (!inPort)
                return fail("a \"port\" line before the first sample");
            Counter c;
            if (!number(w.w[2], c.value))
                return fail("a value, a whole number from 0 to 2^64-1");
            const std::uint32_t id = names.intern(CounterSection::Ethtool, w.w[1], position++);
            if (id >= CounterNames::kMaxNames)
                return fail("at most " + std::to_string(CounterNames::kMaxNames) + " distinct counter names");
            sink.sample(CounterSection::Ethtool, id, c);
            ++samples;
        } else if (tag == "port" && w.count == 5) {
            int number1 = 0, rail = 0;
            if (!number(w.w[2], number1) || !number(w.w[3], rail))
                return fail("\"port <device> <port> <rail> <netdev>\" with whole numbers");
            sink.port(w.w[1], number1, rail, undash(w.w[4]));
            inPort = true;
            position = 0;
            ++ports;
        } else if (tag == "end" && w.count == 3) {
            std::size_t sentPorts = 0, sentSamples = 0;
            if (!number(w.w[1], sentPorts) || !number(w.w[2], sentSamples))
                return fail("\"end <ports> <samples>\" with whole numbers");
            if (sentPorts != ports || sentSamples != samples)
                return fail("the counts of what came before (" + std::to_string(ports) + " ports, " + std::to_string(samples)
                    + " samples)");
            ended = true;
        } else {
            return fail("\"port <device> <port> <rail> <netdev>\", \"c|h <name> <kind> <width> <value> [saturated]\", "
                        "\"e <name> <value>\" or \"end <ports> <samples>\"");
        }
    }
    if (!header)
        return core::Error { "AGENT_COMPACT", "empty: no \"railyard-counters\" line", std::string(where), kHint };
    if (!ended)
        return core::Error { "AGENT_COMPACT",
            "cut short after line " + std::to_string(lineNo) + ": no \"end <ports> <samples>\" line", std::string(where), kHint };
    return core::Status::success();
}

core::Result<CounterSnapshot> countersFromCompact(std::string_view text, std::string_view where)
{
    CounterNames names;
    SnapshotSink sink(names);
    if (core::Status s = parseCompactCounters(text, where, names, sink); !s)
        return s.errors();
    return std::move(sink.snapshot);
}

} // namespace railyard::live
