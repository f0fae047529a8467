// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Parsers of node-side tool outputs. The common part (lines, transcripts, preamble, truncation,
// errors) comes first; then one section per tool. The rules are stated in tool_parsers.h.
#include "live/common/tool_parsers.h"
#include "live/common/text_scan.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <set>
#include <span>
#include <utility>

namespace railyard::live {

namespace {

    using namespace text;

    // ---------------------------------------------------------------------------------------
    // Text helpers

    /// "GPU3" with prefix "GPU" -> true.
    bool isNumbered(std::string_view s, std::string_view prefix) { return startsWith(s, prefix) && allDigits(s.substr(prefix.size())); }

    // ---------------------------------------------------------------------------------------
    // Lines and transcripts

    struct Line {
        int number = 0;        ///< 1-based, in the whole input
        std::string_view text; ///< without the line end (and without a trailing '\r')
    };

    /// Every program the transcript reader knows as a producer of a tool output: a '#' line that
    /// names one of them is a root prompt, any other '#' line is a comment.
    const std::set<std::string, std::less<>>& knownTools()
    {
        static const std::set<std::string, std::less<>> tools { "ibstat", "ibdev2netdev", "nvidia-smi", "lldpctl",
            "lldpcli", "ethtool", "mlnx_qos", "dcb", "lsmod", "ibv_devinfo", "ip", "show_gids", "cat", "sudo" };
        return tools;
    }

    struct Command {
        std::string program; ///< basename of the command run; empty for a bare prompt or assignment
        char promptChar = '$';
        bool bareHashLine = false; ///< "# ..." with nothing before the '#'
    };

    /// A shell prompt line ("$ ibstat", "[root@h ~]# ibstat", "((env) ) [u@h ~]$ ip a",
    /// "sh-5.1# nvidia-smi topo -mp") or a `set -x` trace line ("+ mlnx_qos -i eth4").
    std::optional<Command> commandOf(std::string_view line)
    {
        Command cmd;
        std::string_view rest;
        if (startsWith(line, "+ ") || startsWith(line, "++ ")) {
            rest = line.substr(line.find(' ') + 1);
            cmd.promptChar = '+';
        } else {
            std::size_t pos = 0;
            // "((sglang-0.5.9) ) ": balanced parentheses (virtualenv / conda prefixes).
            while (pos < line.size() && line[pos] == '(') {
                int depth = 0;
                std::size_t i = pos;
                for (; i < line.size(); ++i) {
                    if (line[i] == '(')
                        ++depth;
                    else if (line[i] == ')' && --depth == 0)
                        break;
                }
                if (i >= line.size())
                    return std::nullopt;
                pos = i + 1;
                while (pos < line.size() && line[pos] == ' ')
                    ++pos;
            }
            if (pos < line.size() && line[pos] == '[') {
                const auto close = line.find(']', pos);
                if (close == std::string_view::npos)
                    return std::nullopt;
                pos = close + 1;
            } else {
                while (pos < line.size()
                    && (std::isalnum(static_cast<unsigned char>(line[pos])) != 0 || std::string_view("_.@:~/-").find(line[pos]) != std::string_view::npos))
                    ++pos;
            }
            const std::size_t promptStart = pos;
            while (pos < line.size() && line[pos] == ' ')
                ++pos;
            if (pos >= line.size() || (line[pos] != '$' && line[pos] != '#'))
                return std::nullopt;
            cmd.promptChar = line[pos];
            cmd.bareHashLine = promptStart == 0 && line[pos] == '#';
            rest = line.substr(pos + 1);
            // "$foo" (no space) is no prompt, except at the end of the line.
            if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t')
                return std::nullopt;
        }
        for (const auto word : splitWs(rest)) {
            if (word == "sudo" || word == "time" || word.find('=') != std::string_view::npos)
                continue;
            if (word.front() == '-' && cmd.program.empty())
                continue; // sudo's options
            const auto slash = word.rfind('/');
            cmd.program = std::string(slash == std::string_view::npos ? word : word.substr(slash + 1));
            break;
        }
        return cmd;
    }

    struct Transcript {
        std::vector<Line> lines; ///< the tool's own lines (of its last run)
        int lastNumber = 0;      ///< number of the last non-blank line of the whole input
        int runs = 0;            ///< runs of the tool seen through its command lines
        std::vector<std::string> otherPrograms; ///< commands of other programs whose output was skipped
        bool hadContent = false; ///< the input had any non-blank, non-comment line
    };

    Transcript readTranscript(std::string_view text, std::initializer_list<std::string_view> programs)
    {
        Transcript t;
        enum class Mode { Neutral, Own, Foreign } mode = Mode::Neutral;
        int number = 0;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            auto end = text.find('\n', pos);
            if (end == std::string_view::npos)
                end = text.size();
            std::string_view s = text.substr(pos, end - pos);
            if (!s.empty() && s.back() == '\r')
                s.remove_suffix(1);
            ++number;
            const bool atEnd = end >= text.size();
            pos = end + 1;
            if (atEnd && s.empty())
                break;
            if (trim(s).empty()) {
                if (mode != Mode::Foreign)
                    t.lines.push_back({ number, s });
                continue;
            }
            t.lastNumber = number;
            if (const auto cmd = commandOf(s)) {
                const bool own = std::find(programs.begin(), programs.end(), cmd->program) != programs.end();
                if (cmd->bareHashLine && !own && !knownTools().contains(cmd->program))
                    continue; // a comment such as the fixtures' "# source:" line
                if (own) {
                    const bool any = std::any_of(t.lines.begin(), t.lines.end(), [](const Line& l) { return !trim(l.text).empty(); });
                    if (any)
                        t.lines.clear();
                    ++t.runs;
                    mode = Mode::Own;
                } else {
                    mode = Mode::Foreign;
                    const std::string name = cmd->program.empty() ? std::string(trim(s)) : cmd->program;
                    if (std::find(t.otherPrograms.begin(), t.otherPrograms.end(), name) == t.otherPrograms.end())
                        t.otherPrograms.push_back(name);
                }
                continue;
            }
            if (mode == Mode::Foreign)
                continue;
            t.hadContent = true;
            t.lines.push_back({ number, s });
        }
        return t;
    }

    core::Error toolError(std::string_view tool, std::string message, const Line* line, std::string_view expected)
    {
        core::Error e;
        e.code = "TOOL_OUTPUT";
        e.message = std::string(tool) + ": ";
        if (line) {
            e.message += "line " + std::to_string(line->number) + " " + quoteLine(line->text) + " " + message;
            e.where = "line " + std::to_string(line->number);
        } else {
            e.message += message;
        }
        if (!expected.empty())
            e.message += " (expected " + std::string(expected) + ")";
        e.hint = "give the output of `" + std::string(tool) + "` as the tool printed it";
        return e;
    }

    /// The walk over a tool's own lines that every parser shares: skips the preamble up to the
    /// first line `isStart` accepts, then hands each line to the parser; a line the parser refuses
    /// is an error, or, when it is the input's last line, a cut-off line (warning).
    class Walker {
    public:
        Walker(std::string_view tool, std::string_view expected, std::vector<std::string>& warnings)
            : m_tool(tool)
            , m_expected(expected)
            , m_warnings(warnings)
        {
        }

        template <class IsStart, class Handle>
        core::Status run(const Transcript& t, IsStart isStart, Handle handle)
        {
            std::size_t i = 0;
            const Line* firstSkipped = nullptr;
            int skipped = 0;
            for (; i < t.lines.size(); ++i) {
                const Line& l = t.lines[i];
                if (trim(l.text).empty())
                    continue;
                if (isStart(l.text))
                    break;
                if (!firstSkipped)
                    firstSkipped = &l;
                ++skipped;
            }
            if (i == t.lines.size()) {
                if (firstSkipped)
                    return toolError(m_tool, "is not " + std::string(m_tool) + " output, and no later line is", firstSkipped, m_expected);
                std::string what = t.hadContent || t.runs > 0 || !t.otherPrograms.empty() ? "the input has no " + m_tool + " output" : "the input is empty";
                if (!t.otherPrograms.empty()) {
                    what += "; it holds the output of other commands:";
                    for (std::size_t k = 0; k < t.otherPrograms.size() && k < 4; ++k)
                        what += (k ? ", " : " ") + quoteLine(t.otherPrograms[k]);
                }
                return toolError(m_tool, what, nullptr, m_expected);
            }
            if (skipped > 0)
                m_warnings.push_back(m_tool + ": skipped " + std::to_string(skipped) + " line(s) before the output, from line "
                    + std::to_string(firstSkipped->number) + " " + quoteLine(firstSkipped->text));
            if (t.runs > 1)
                m_warnings.push_back(m_tool + ": the input holds " + std::to_string(t.runs) + " runs; the last one is used");
            for (; i < t.lines.size(); ++i) {
                const Line& l = t.lines[i];
                if (m_stopped)
                    break;
                if (trim(l.text).empty() && !m_wantBlank)
                    continue;
                std::string why;
                if (handle(l, why))
                    continue;
                if (l.number == t.lastNumber) {
                    m_warnings.push_back(m_tool + ": the last line " + std::to_string(l.number) + " " + quoteLine(l.text)
                        + " is incomplete (truncated input?) and was left out" + (why.empty() ? "" : ": " + why));
                    m_truncated = true;
                    break;
                }
                return toolError(m_tool, why.empty() ? "does not fit" : why, &l, m_expected);
            }
            return {};
        }

        void stop() { m_stopped = true; }
        void wantBlankLines(bool want) { m_wantBlank = want; }
        bool truncated() const { return m_truncated; }
        void warn(std::string text) { m_warnings.push_back(m_tool + ": " + std::move(text)); }

    private:
        std::string m_tool;
        std::string m_expected;
        std::vector<std::string>& m_warnings;
        bool m_stopped = false;
        bool m_wantBlank = false;
        bool m_truncated = false;
    };

    /// "Key: value" -> {"Key", "value"} (at the first ':').
    std::optional<std::pair<std::string_view, std::string_view>> keyValue(std::string_view line)
    {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            return std::nullopt;
        return std::pair { trim(line.substr(0, colon)), trim(line.substr(colon + 1)) };
    }

} // namespace

// -------------------------------------------------------------------------------------------
// GUIDs

std::optional<std::string> guidToSysfsForm(std::string_view text)
{
    text = trim(text);
    std::string hex;
    if (startsWith(text, "0x") || startsWith(text, "0X")) {
        text.remove_prefix(2);
        if (text.empty() || text.size() > 16)
            return std::nullopt;
        for (const char c : text) {
            if (std::isxdigit(static_cast<unsigned char>(c)) == 0)
                return std::nullopt;
            hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        hex.insert(0, 16 - hex.size(), '0');
    } else {
        // "b83f:d203:00a4:5e52": four groups of four hex digits.
        if (text.size() != 19)
            return std::nullopt;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (i % 5 == 4) {
                if (c != ':')
                    return std::nullopt;
                continue;
            }
            if (std::isxdigit(static_cast<unsigned char>(c)) == 0)
                return std::nullopt;
            hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    std::string out;
    for (std::size_t i = 0; i < 16; i += 4) {
        if (i)
            out += ':';
        out += hex.substr(i, 4);
    }
    return out;
}

// -------------------------------------------------------------------------------------------
// ibstat

namespace {
    struct StateName {
        std::string_view printed;
        int value;
        std::string_view sysfsName;
    };
    // infiniband-diags ibstat.c: port_state_str and port_phy_state_str; sysfs names for state.
    constexpr StateName kPortStates[] = { { "Down", 1, "DOWN" }, { "Initializing", 2, "INIT" }, { "Armed", 3, "ARMED" },
        { "Active", 4, "ACTIVE" } };
    constexpr StateName kPhysStates[] = { { "Sleep", 1, "Sleep" }, { "Polling", 2, "Polling" }, { "Disabled", 3, "Disabled" },
        { "PortConfigurationTraining", 4, "PortConfigurationTraining" }, { "LinkUp", 5, "LinkUp" },
        { "LinkErrorRecovery", 6, "LinkErrorRecovery" }, { "PhyTest", 7, "Phy Test" }, { "Phy Test", 7, "Phy Test" } };

    const StateName* findState(std::span<const StateName> table, std::string_view printed)
    {
        for (const auto& s : table)
            if (s.printed == printed)
                return &s;
        return nullptr;
    }

    bool isIbstatKey(std::string_view key)
    {
        // "CA type", "Number of ports", "SM lid": words, the first capitalised.
        if (key.empty() || std::isupper(static_cast<unsigned char>(key.front())) == 0)
            return false;
        return std::all_of(key.begin(), key.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == ' '; });
    }
} // namespace

core::Result<std::vector<RdmaDevice>> parseIbstat(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseIbstat(text, warnings);
}

core::Result<std::vector<RdmaDevice>> parseIbstat(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "ibstat" });
    Walker walker("ibstat", "\"CA '<name>'\" blocks with indented \"Key: value\" lines", warnings);
    std::vector<RdmaDevice> devices;
    std::vector<int> declaredPorts;
    std::vector<bool> portHasLinkLayer;
    bool elided = false;
    const auto isStart = [](std::string_view l) { return startsWith(trim(l), "CA '"); };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const std::string_view l = trim(line.text);
        if (l == "..." || l == "…") {
            elided = true;
            return true;
        }
        if (startsWith(l, "ibpanic:")) {
            walker.warn("the listing stopped at line " + std::to_string(line.number) + ": " + std::string(l));
            walker.stop();
            return true;
        }
        if (startsWith(l, "CA '")) {
            const auto close = l.find('\'', 4);
            if (close == std::string_view::npos || close == 4 || trim(l.substr(close + 1)) != "") {
                why = "is not a complete \"CA '<name>'\" line";
                return false;
            }
            RdmaDevice d;
            d.name = std::string(l.substr(4, close - 4));
            devices.push_back(std::move(d));
            declaredPorts.push_back(-1);
            portHasLinkLayer.push_back(false);
            return true;
        }
        if (devices.empty())
            return false;
        RdmaDevice& d = devices.back();
        if (startsWith(l, "Port ") && l.back() == ':') {
            const auto n = toNumber<int>(l.substr(5, l.size() - 6));
            if (!n || *n < 1) {
                why = "has no port number";
                return false;
            }
            RdmaPort p;
            p.number = *n;
            d.ports.push_back(std::move(p));
            portHasLinkLayer.back() = false;
            return true;
        }
        const auto kv = keyValue(l);
        if (!kv || !isIbstatKey(kv->first)) {
            why = "is not a \"Key: value\" line of ibstat";
            return false;
        }
        const auto [key, value] = *kv;
        if (value == "..." || value == "…") {
            elided = true;
            return true;
        }
        // Device keys.
        if (key == "CA type") {
            d.hcaType = std::string(value);
            return true;
        }
        if (key == "Firmware version") {
            d.fwVersion = std::string(value);
            return true;
        }
        if (key == "Number of ports") {
            const auto n = toNumber<int>(value);
            if (!n) {
                why = "has no number of ports";
                return false;
            }
            declaredPorts.back() = *n;
            return true;
        }
        if (key == "Node GUID" || key == "System image GUID") {
            // ibstat prints "0x%016llx": fewer digits is a cut line.
            const auto guid = value.size() == 18 ? guidToSysfsForm(value) : std::nullopt;
            if (!guid) {
                why = "has no 64-bit GUID (0x and 16 hex digits)";
                return false;
            }
            (key == "Node GUID" ? d.nodeGuid : d.sysImageGuid) = *guid;
            return true;
        }
        if (key == "Hardware version")
            return true;
        const bool portKey = key == "State" || key == "Physical state" || key == "Rate" || key == "Base lid" || key == "SM lid"
            || key == "Link layer" || key == "LMC" || key == "Capability mask" || key == "Port GUID";
        if (!portKey)
            return true; // a key this version of ibstat adds: nothing of the model
        if (d.ports.empty()) {
            why = "is a port value before any \"Port N:\" line";
            return false;
        }
        RdmaPort& p = d.ports.back();
        if (key == "State") {
            if (const auto* s = findState(kPortStates, value)) {
                p.state = s->value;
                p.stateName = std::string(s->sysfsName);
                return true;
            }
            why = "has a port state ibstat does not print";
            return false;
        }
        if (key == "Physical state") {
            if (const auto* s = findState(kPhysStates, value)) {
                p.physState = s->value;
                p.physStateName = std::string(s->sysfsName);
                return true;
            }
            why = "has a physical state ibstat does not print";
            return false;
        }
        if (key == "Rate") {
            const auto r = toNumber<double>(value);
            if (!r || *r < 0) {
                why = "has no rate in Gb/s";
                return false;
            }
            p.rateGbps = *r;
            p.rateText = std::string(value);
            return true;
        }
        if (key == "Base lid" || key == "SM lid") {
            const auto lid = toNumber<int>(value);
            if (!lid || *lid < 0 || *lid > 65535) {
                why = "has no LID";
                return false;
            }
            (key == "Base lid" ? p.lid : p.smLid) = *lid;
            return true;
        }
        if (key == "Link layer") {
            if (value == "InfiniBand")
                p.linkLayer = LinkLayer::InfiniBand;
            else if (value == "Ethernet")
                p.linkLayer = LinkLayer::Ethernet;
            else {
                why = "has a link layer other than InfiniBand or Ethernet";
                return false;
            }
            portHasLinkLayer.back() = true;
            return true;
        }
        return true; // LMC, Capability mask, Port GUID: not in the model
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    if (devices.empty())
        return toolError("ibstat", "the listing has no complete \"CA '<name>'\" block", nullptr, "");
    if (elided)
        warnings.push_back("ibstat: some values were elided as '...' in this copy; they stay unknown");
    const RdmaDevice& last = devices.back();
    if ((declaredPorts.back() >= 0 && static_cast<int>(last.ports.size()) < declaredPorts.back()) || last.ports.empty() || !portHasLinkLayer.back())
        warnings.push_back("ibstat: the listing ends inside CA '" + last.name + "' (truncated input?): its values may be incomplete");
    return devices;
}

// -------------------------------------------------------------------------------------------
// ibdev2netdev

core::Result<std::vector<NetdevLink>> parseIbdev2netdev(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseIbdev2netdev(text, warnings);
}

core::Result<std::vector<NetdevLink>> parseIbdev2netdev(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "ibdev2netdev" });
    Walker walker("ibdev2netdev", "\"<device> port <n> ==> <netdev> (Up|Down)\"", warnings);
    std::vector<NetdevLink> links;
    const auto parseLine = [](std::string_view l, NetdevLink& out) -> bool {
        if (const auto hash = l.find('#'); hash != std::string_view::npos)
            l = l.substr(0, hash); // comments added after `column -t`
        const auto tok = splitWs(l);
        if (tok.size() != 6 || tok[1] != "port" || tok[3] != "==>")
            return false;
        const auto port = toNumber<int>(tok[2]);
        if (!port || *port < 1)
            return false;
        if (tok[5] != "(Up)" && tok[5] != "(Down)")
            return false;
        out.device = std::string(tok[0]);
        out.port = *port;
        out.netdev = std::string(tok[4]);
        out.up = tok[5] == "(Up)";
        return true;
    };
    const auto isStart = [&](std::string_view l) {
        NetdevLink probe;
        return parseLine(l, probe);
    };
    const auto handle = [&](const Line& line, std::string&) {
        NetdevLink link;
        if (!parseLine(line.text, link))
            return false;
        links.push_back(std::move(link));
        return true;
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    return links;
}

// -------------------------------------------------------------------------------------------
// nvidia-smi topo -m

std::optional<int> topoRelationRank(std::string_view relation)
{
    if (relation == "PIX")
        return 0;
    if (relation == "PXB")
        return 1;
    if (relation == "PHB")
        return 2;
    if (relation == "NODE")
        return 3;
    if (relation == "SYS" || relation == "SOC")
        return 4;
    return std::nullopt;
}

std::optional<std::size_t> closestNic(const GpuTopology& topology, std::size_t gpu)
{
    if (gpu >= topology.gpuToNic.size())
        return std::nullopt;
    std::optional<std::size_t> best;
    int bestRank = 0;
    const auto& row = topology.gpuToNic[gpu];
    for (std::size_t n = 0; n < row.size(); ++n) {
        const auto rank = topoRelationRank(row[n]);
        if (rank && (!best || *rank < bestRank)) {
            best = n;
            bestRank = *rank;
        }
    }
    return best;
}

namespace {
    bool isTopoRelation(std::string_view cell)
    {
        if (cell == "X" || cell == "N/A" || topoRelationRank(cell))
            return true;
        return isNumbered(cell, "NV") || cell == "NV#";
    }
} // namespace

core::Result<GpuTopology> parseNvidiaSmiTopo(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseNvidiaSmiTopo(text, warnings);
}

core::Result<GpuTopology> parseNvidiaSmiTopo(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "nvidia-smi" });
    Walker walker("nvidia-smi topo -m", "a matrix whose header starts with GPU0, then GPU and NIC rows and legends", warnings);
    GpuTopology topo;
    std::vector<std::string> relationColumns; // names in the header ("GPU0", "NIC3", "mlx5_0")
    std::vector<bool> columnIsGpu;
    std::vector<std::string> infoColumns;     // "CPU Affinity", "NUMA Affinity", "GPU NUMA ID"
    std::map<std::string, std::string> legend; // "NIC0" -> "mlx5_0"
    enum class Part { Header, Rows, Legend, NicLegend } part = Part::Header;
    int lastNumber = t.lastNumber;

    const auto isHeader = [](std::string_view l) {
        const auto tok = splitWs(l);
        if (tok.empty() || !isNumbered(tok[0], "GPU"))
            return false;
        if (tok.size() == 1)
            return !l.empty() && isSpace(l.front());
        return isNumbered(tok[1], "GPU") || isNumbered(tok[1], "NIC") || tok[1] == "CPU" || startsWith(tok[1], "mlx");
    };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const std::string_view l = trim(line.text);
        if (part == Part::Header) {
            const auto tok = splitWs(l);
            for (std::size_t i = 0; i < tok.size(); ++i) {
                const auto rest = std::vector<std::string_view>(tok.begin() + static_cast<std::ptrdiff_t>(i), tok.end());
                if (rest.size() >= 3 && rest[0] == "GPU" && rest[1] == "NUMA" && rest[2] == "ID") {
                    infoColumns.emplace_back("GPU NUMA ID");
                    i += 2;
                } else if (rest.size() >= 2 && (rest[0] == "CPU" || rest[0] == "NUMA") && rest[1] == "Affinity") {
                    infoColumns.push_back(std::string(rest[0]) + " Affinity");
                    i += 1;
                } else if (!infoColumns.empty()) {
                    why = "has a column after the affinity columns that nvidia-smi does not print";
                    return false;
                } else {
                    relationColumns.emplace_back(tok[i]);
                    columnIsGpu.push_back(isNumbered(tok[i], "GPU"));
                }
            }
            for (std::size_t c = 0; c < relationColumns.size(); ++c)
                if (!columnIsGpu[c])
                    topo.nics.push_back(relationColumns[c]);
            part = Part::Rows;
            return true;
        }
        if (l.empty()) {
            return true;
        }
        if (l == "Legend:") {
            part = Part::Legend;
            return true;
        }
        if (l == "NIC Legend:") {
            part = Part::NicLegend;
            return true;
        }
        if (part == Part::Legend) {
            if (l.find(" = ") != std::string_view::npos || l.find("= ") != std::string_view::npos)
                return true;
            why = "is not a legend line (\"<word> = <meaning>\")";
            return false;
        }
        if (part == Part::NicLegend) {
            const auto kv = keyValue(l);
            if (!kv || !isNumbered(kv->first, "NIC") || kv->second.empty() || kv->second.find(' ') != std::string_view::npos) {
                why = "is not a NIC legend line (\"NIC<n>: <device>\")";
                return false;
            }
            legend[std::string(kv->first)] = std::string(kv->second);
            return true;
        }
        // A GPU or NIC row.
        auto tok = splitWs(l);
        const std::string name(tok[0]);
        const auto column = std::find(relationColumns.begin(), relationColumns.end(), name);
        if (column == relationColumns.end()) {
            why = "is not a row of a GPU or NIC in the header";
            return false;
        }
        const bool gpuRow = columnIsGpu[static_cast<std::size_t>(column - relationColumns.begin())];
        const std::size_t nRel = relationColumns.size();
        const bool cut = line.number == lastNumber && tok.size() < 1 + nRel;
        if (cut)
            tok.pop_back(); // the last cell of a cut row may itself be cut ("NV" of "NV18")
        if (tok.size() < 1 + nRel && !cut) {
            why = "has " + std::to_string(tok.size() - 1) + " cells for " + std::to_string(nRel) + " GPU and NIC columns";
            return false;
        }
        for (std::size_t c = 1; c < tok.size() && c <= nRel; ++c) {
            if (!isTopoRelation(tok[c])) {
                why = "has a cell " + quoteLine(tok[c]) + " that is no topology relation (X, NV#, PIX, PXB, PHB, NODE, SYS)";
                return false;
            }
        }
        if (!gpuRow) {
            if (tok.size() > 1 + nRel) {
                why = "has more cells than the header has GPU and NIC columns";
                return false;
            }
            return true;
        }
        if (tok.size() > 1 + nRel + infoColumns.size()) {
            why = "has more cells than the header has columns";
            return false;
        }
        topo.gpus.push_back(name);
        std::vector<std::string> nicCells;
        for (std::size_t c = 0; c < nRel; ++c) {
            if (columnIsGpu[c])
                continue;
            nicCells.push_back(1 + c < tok.size() ? std::string(tok[1 + c]) : std::string());
        }
        topo.gpuToNic.push_back(std::move(nicCells));
        int numa = -1;
        std::string cpus;
        for (std::size_t k = 0; k < infoColumns.size(); ++k) {
            const std::size_t idx = 1 + nRel + k;
            if (idx >= tok.size())
                break;
            if (infoColumns[k] == "NUMA Affinity")
                numa = toNumber<int>(tok[idx]).value_or(-1);
            else if (infoColumns[k] == "CPU Affinity" && tok[idx] != "N/A")
                cpus = std::string(tok[idx]);
        }
        topo.gpuNuma.push_back(numa);
        topo.gpuCpuAffinity.push_back(std::move(cpus));
        if (cut)
            walker.warn("the row of " + name + " is cut short at line " + std::to_string(line.number)
                + " (truncated input?): its missing cells are unknown");
        return true;
    };
    walker.wantBlankLines(true);
    if (auto st = walker.run(t, isHeader, handle); !st)
        return st.errors();
    for (auto& nic : topo.nics)
        if (const auto it = legend.find(nic); it != legend.end())
            nic = it->second;
    if (topo.gpus.empty())
        warnings.push_back("nvidia-smi topo -m: the matrix has no GPU rows");
    if (!topo.nics.empty() && legend.empty() && std::any_of(topo.nics.begin(), topo.nics.end(), [](const std::string& n) { return isNumbered(n, "NIC"); }))
        warnings.push_back("nvidia-smi topo -m: no NIC legend (truncated input?): NICs keep their column names");
    return topo;
}

// -------------------------------------------------------------------------------------------
// lldpctl -f keyvalue

core::Result<std::vector<LldpNeighbor>> parseLldpctlKeyvalue(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseLldpctlKeyvalue(text, warnings);
}

core::Result<std::vector<LldpNeighbor>> parseLldpctlKeyvalue(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "lldpctl", "lldpcli" });
    Walker walker("lldpctl -f keyvalue", "\"lldp.<interface>.<key>=<value>\" lines", warnings);
    // Top-level sections of lldpd's keyvalue output after the interface name.
    static const std::set<std::string, std::less<>> kSections { "via", "rid", "age", "chassis", "port", "vlan", "ppvid", "pi",
        "lldp-med", "unknown-tlvs", "ttl", "dot3", "dot1" };
    struct Entry {
        LldpNeighbor n;
        int chassisIdRank = 99;
        int portIdRank = 99;
    };
    std::vector<Entry> entries;
    std::string* lastValue = nullptr; // for continuation lines
    std::string sink;
    const auto isStart = [](std::string_view l) { return startsWith(l, "lldp.") && l.find('=') != std::string_view::npos; };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const std::string_view l = line.text;
        if (!startsWith(l, "lldp.")) {
            // A value that spans lines (a switch's multi-line system description).
            if (lastValue) {
                *lastValue += '\n';
                *lastValue += std::string(trim(l));
            }
            return true;
        }
        const auto eq = l.find('=');
        if (eq == std::string_view::npos) {
            why = "has no '='";
            return false;
        }
        const std::string_view path = l.substr(5, eq - 5);
        const std::string_view value = l.substr(eq + 1);
        std::vector<std::string_view> parts;
        for (std::size_t b = 0;;) {
            const auto dot = path.find('.', b);
            parts.push_back(path.substr(b, dot == std::string_view::npos ? std::string_view::npos : dot - b));
            if (dot == std::string_view::npos)
                break;
            b = dot + 1;
        }
        std::size_t sectionAt = 1;
        while (sectionAt < parts.size() && !kSections.contains(parts[sectionAt]))
            ++sectionAt;
        if (sectionAt >= parts.size())
            sectionAt = 1;
        if (parts.size() < 2 || parts[0].empty()) {
            why = "has no interface and key";
            return false;
        }
        std::string iface(path.substr(0, static_cast<std::size_t>(parts[sectionAt].data() - path.data()) - 1));
        std::string key(path.substr(static_cast<std::size_t>(parts[sectionAt].data() - path.data())));
        auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.n.localInterface == iface; });
        if (it == entries.end()) {
            entries.push_back({});
            entries.back().n.localInterface = iface;
            it = entries.end() - 1;
        }
        LldpNeighbor& n = it->n;
        static const char* const kChassisIds[] = { "chassis.mac", "chassis.local", "chassis.ip", "chassis.ifname" };
        static const char* const kPortIds[] = { "port.ifname", "port.local", "port.mac", "port.ip" };
        lastValue = &sink;
        if (key == "chassis.name") {
            n.systemName = std::string(value);
            lastValue = &n.systemName;
        } else if (key == "port.descr") {
            n.portDescription = std::string(value);
            lastValue = &n.portDescription;
        } else {
            for (int r = 0; r < 4; ++r) {
                if (key == kChassisIds[r] && r < it->chassisIdRank) {
                    it->chassisIdRank = r;
                    n.chassisId = std::string(value);
                }
                if (key == kPortIds[r] && r < it->portIdRank) {
                    it->portIdRank = r;
                    n.portId = std::string(value);
                }
            }
        }
        return true;
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    std::vector<LldpNeighbor> out;
    for (auto& e : entries) {
        if (e.n.systemName.empty() && e.n.chassisId.empty())
            warnings.push_back("lldpctl -f keyvalue: interface " + e.n.localInterface + " has no chassis name or id");
        out.push_back(std::move(e.n));
    }
    return out;
}

// -------------------------------------------------------------------------------------------
// ethtool -S

core::Result<std::map<std::string, std::uint64_t>> parseEthtoolStats(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseEthtoolStats(text, warnings);
}

core::Result<std::map<std::string, std::uint64_t>> parseEthtoolStats(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "ethtool" });
    Walker walker("ethtool -S", "\"NIC statistics:\" and \"<name>: <unsigned integer>\" lines", warnings);
    std::map<std::string, std::uint64_t> stats;
    std::vector<std::string> duplicates;
    bool begun = false;
    const auto split = [](std::string_view l) -> std::optional<std::pair<std::string_view, std::uint64_t>> {
        // ethtool prints "%s: %llu": the last ':' followed by white space ends the name.
        std::size_t colon = std::string_view::npos;
        for (std::size_t i = 0; i + 1 < l.size(); ++i)
            if (l[i] == ':' && (l[i + 1] == ' ' || l[i + 1] == '\t'))
                colon = i;
        if (colon == std::string_view::npos)
            return std::nullopt;
        const auto name = trim(l.substr(0, colon));
        const auto value = toNumber<std::uint64_t>(l.substr(colon + 1));
        if (name.empty() || !value)
            return std::nullopt;
        return std::pair { name, *value };
    };
    const auto isStart = [&](std::string_view l) { return trim(l) == "NIC statistics:" || split(l).has_value(); };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        if (trim(line.text) == "NIC statistics:") {
            if (begun && !stats.empty()) {
                walker.warn("a second \"NIC statistics:\" list starts at line " + std::to_string(line.number) + "; the last list is used");
                stats.clear();
            }
            begun = true;
            return true;
        }
        begun = true;
        const auto kv = split(line.text);
        if (!kv) {
            why = "is not \"<name>: <unsigned integer>\"";
            return false;
        }
        if (!stats.emplace(std::string(kv->first), kv->second).second)
            duplicates.emplace_back(kv->first);
        return true;
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    if (!duplicates.empty())
        warnings.push_back("ethtool -S: " + std::to_string(duplicates.size()) + " statistic name(s) repeat (first: " + duplicates.front()
            + "); the first value of each is kept");
    return stats;
}

// -------------------------------------------------------------------------------------------
// mlnx_qos

core::Result<MlnxQos> parseMlnxQos(std::string_view text)
{
    std::vector<std::string> warnings;
    return parseMlnxQos(text, warnings);
}

core::Result<MlnxQos> parseMlnxQos(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "mlnx_qos" });
    Walker walker("mlnx_qos", "\"DCBX mode:\", \"Priority trust state:\" and \"PFC configuration:\" sections", warnings);
    MlnxQos qos;
    std::vector<int> priorityColumns; // from the "priority 0 1 ... 7" row
    bool begun = false;
    const auto isStart = [](std::string_view l) {
        l = trim(l);
        return startsWith(l, "DCBX mode:") || startsWith(l, "Priority trust state:") || startsWith(l, "PFC configuration:");
    };
    const auto numbersAfter = [](const std::vector<std::string_view>& tok) -> std::optional<std::vector<int>> {
        std::vector<int> v;
        for (std::size_t i = 1; i < tok.size(); ++i) {
            const auto n = toNumber<int>(tok[i]);
            if (!n)
                return std::nullopt;
            v.push_back(*n);
        }
        return v;
    };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const std::string_view l = trim(line.text);
        if (startsWith(l, "DCBX mode:")) {
            if (begun && (qos.pfcKnown || !qos.trust.empty())) {
                walker.warn("a second listing starts at line " + std::to_string(line.number) + "; the last one is used");
                qos = MlnxQos {};
                priorityColumns.clear();
            }
            begun = true;
            return true;
        }
        begun = true;
        const auto tok = splitWs(l);
        if (!tok.empty() && (tok[0] == "priority" || tok[0] == "enabled" || tok[0] == "buffer")) {
            const auto nums = numbersAfter(tok);
            if (!nums || nums->empty()) {
                why = "is not a row of the PFC table";
                return false;
            }
            if (tok[0] == "priority") {
                priorityColumns = *nums;
                return true;
            }
            if (tok[0] == "enabled") {
                if (priorityColumns.empty())
                    for (int p = 0; p < 8; ++p)
                        priorityColumns.push_back(p);
                if (nums->size() != priorityColumns.size()) {
                    why = "has " + std::to_string(nums->size()) + " values for " + std::to_string(priorityColumns.size()) + " priorities";
                    return false;
                }
                for (std::size_t i = 0; i < nums->size(); ++i) {
                    const int prio = priorityColumns[i];
                    if (prio < 0 || prio > 7 || ((*nums)[i] != 0 && (*nums)[i] != 1)) {
                        why = "has a priority or value out of range";
                        return false;
                    }
                    qos.pfcEnabled[static_cast<std::size_t>(prio)] = (*nums)[i] == 1;
                }
                qos.pfcKnown = true;
            }
            return true;
        }
        const auto kv = keyValue(l);
        if (!kv) {
            why = "is neither \"<key>: <value>\" nor a row of the PFC table";
            return false;
        }
        if (kv->first == "Priority trust state" || kv->first == "Priority trust mode") {
            if (kv->second != "pcp" && kv->second != "dscp") {
                why = "has a trust state other than pcp or dscp";
                return false;
            }
            qos.trust = std::string(kv->second);
        }
        return true; // dscp2prio rows, cable length, tc/tsa, buffer sizes: not in the model
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    if (!qos.pfcKnown)
        warnings.push_back("mlnx_qos: no \"enabled\" row under \"PFC configuration:\": PFC unknown");
    if (qos.trust.empty())
        warnings.push_back("mlnx_qos: no \"Priority trust state:\" line: trust unknown");
    return qos;
}

// -------------------------------------------------------------------------------------------
// dcb pfc show

core::Result<std::array<bool, 8>> parseDcbPfcShow(std::string_view text)
{
    std::vector<std::string> warnings;
    auto r = parseDcbPfc(text, warnings);
    if (!r)
        return r.errors();
    if (!r->prioPfcKnown)
        return toolError("dcb pfc show", "the output has no prio-pfc list", nullptr, "\"prio-pfc 0:off 1:off ...\"");
    return r->prioPfc;
}

core::Result<DcbPfc> parseDcbPfc(std::string_view text, std::vector<std::string>& warnings)
{
    const Transcript t = readTranscript(text, { "dcb" });
    Walker walker("dcb pfc show", "\"pfc-cap N macsec-bypass on|off delay N\" and \"prio-pfc 0:on|off ...\"", warnings);
    DcbPfc out;
    static const std::set<std::string, std::less<>> kKeys { "pfc-cap", "macsec-bypass", "delay", "prio-pfc", "pg-pfc", "requests", "indications" };
    const auto isStart = [](std::string_view l) {
        const auto tok = splitWs(l);
        return !tok.empty() && kKeys.contains(tok[0]);
    };
    const auto item = [](std::string_view tok) -> std::optional<std::pair<int, std::string_view>> {
        const auto colon = tok.find(':');
        if (colon == std::string_view::npos)
            return std::nullopt;
        const auto prio = toNumber<int>(tok.substr(0, colon));
        if (!prio || *prio < 0 || *prio > 7)
            return std::nullopt;
        return std::pair { *prio, tok.substr(colon + 1) };
    };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const auto tok = splitWs(line.text);
        for (std::size_t i = 0; i < tok.size();) {
            const std::string_view key = tok[i++];
            if (key == "pfc-cap" || key == "delay") {
                const auto n = i < tok.size() ? toNumber<int>(tok[i]) : std::nullopt;
                if (!n) {
                    why = std::string(key) + " has no number";
                    return false;
                }
                ++i;
                (key == "pfc-cap" ? out.pfcCap : out.delay) = *n;
            } else if (key == "macsec-bypass") {
                if (i >= tok.size() || (tok[i] != "on" && tok[i] != "off")) {
                    why = "macsec-bypass is not on or off";
                    return false;
                }
                out.macsecBypass = tok[i++] == "on";
            } else if (key == "prio-pfc" || key == "pg-pfc") {
                std::array<bool, 8> pfc {};
                int seen = 0;
                for (; i < tok.size(); ++i) {
                    const auto it = item(tok[i]);
                    if (!it)
                        break;
                    if (it->second != "on" && it->second != "off") {
                        why = "has a priority that is not on or off";
                        return false;
                    }
                    pfc[static_cast<std::size_t>(it->first)] = it->second == "on";
                    ++seen;
                }
                if (seen == 0) {
                    why = "prio-pfc has no \"<prio>:on|off\" items";
                    return false;
                }
                out.prioPfc = pfc;
                out.prioPfcKnown = true;
            } else if (key == "requests" || key == "indications") {
                std::array<std::uint64_t, 8> counts {};
                int seen = 0;
                for (; i < tok.size(); ++i) {
                    const auto it = item(tok[i]);
                    if (!it)
                        break;
                    const auto n = toNumber<std::uint64_t>(it->second);
                    if (!n) {
                        why = std::string(key) + " has a count that is no number";
                        return false;
                    }
                    counts[static_cast<std::size_t>(it->first)] = *n;
                    ++seen;
                }
                if (seen == 0) {
                    why = std::string(key) + " has no \"<prio>:<count>\" items";
                    return false;
                }
                (key == "requests" ? out.requests : out.indications) = counts;
            } else {
                why = "has " + quoteLine(key) + ", which dcb pfc show does not print";
                return false;
            }
        }
        return true;
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    if (!out.prioPfcKnown)
        warnings.push_back("dcb pfc show: no prio-pfc list: PFC unknown");
    return out;
}

// -------------------------------------------------------------------------------------------
// lsmod

core::Result<std::vector<std::string>> parseLsmod(std::string_view text)
{
    std::vector<std::string> warnings;
    const Transcript t = readTranscript(text, { "lsmod" });
    Walker walker("lsmod", "\"Module Size Used by\" and \"<module> <size> <count> [users]\" lines", warnings);
    std::vector<std::string> modules;
    const auto isModuleLine = [](std::string_view l) {
        const auto tok = splitWs(l);
        return tok.size() >= 3 && allDigits(tok[1]) && (allDigits(tok[2]) || tok[2] == "-");
    };
    const auto isStart = [&](std::string_view l) {
        const auto tok = splitWs(l);
        return (tok.size() >= 2 && tok[0] == "Module" && tok[1] == "Size") || isModuleLine(l);
    };
    const auto handle = [&](const Line& line, std::string& why) -> bool {
        const auto tok = splitWs(line.text);
        if (tok.size() >= 2 && tok[0] == "Module" && tok[1] == "Size")
            return true;
        if (!isModuleLine(line.text)) {
            why = "is not \"<module> <size> <count> [users]\"";
            return false;
        }
        modules.emplace_back(tok[0]);
        return true;
    };
    if (auto st = walker.run(t, isStart, handle); !st)
        return st.errors();
    return modules;
}

} // namespace railyard::live
