// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The NCCL log analyser. The order: text helpers; the line prefix; one reader per message (each
// with the forms NCCL printed over its history, from the NVIDIA/nccl sources); the report and
// its findings; JSON. The rules are stated in nccl_log.h.
#include "live/common/nccl_log.h"
#include "live/common/text_scan.h"

#include "core/plan_json.h"
#include "live/common/ibv_wc_status.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <tuple>
#include <utility>

namespace railyard::live {

namespace {

    using namespace text;

    // ---------------------------------------------------------------------------------------
    // Text helpers

    constexpr std::string_view kTool = "nccl log";

    bool isHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

    /// The (optionally signed) decimal number at the start of `s`; `used` gets its length.
    std::optional<long long> leadingNumber(std::string_view s, std::size_t* used = nullptr)
    {
        long long v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc {})
            return std::nullopt;
        if (used)
            *used = static_cast<std::size_t>(end - s.data());
        return v;
    }

    std::optional<int> leadingInt(std::string_view s, std::size_t* used = nullptr)
    {
        const auto v = leadingNumber(s, used);
        if (!v || *v < -2147483647LL || *v > 2147483647LL)
            return std::nullopt;
        return static_cast<int>(*v);
    }

    /// The number that follows `key` (a whole word) among `msg`'s words: "nRanks 16" -> 16.
    std::optional<int> wordValue(const std::vector<std::string_view>& words, std::string_view key)
    {
        for (std::size_t i = 0; i + 1 < words.size(); ++i)
            if (words[i] == key)
                return toNumber<int>(words[i + 1]);
        return std::nullopt;
    }

    /// The number right after the first `key` in `s` ("vendor err 129" with key "vendor err ").
    std::optional<int> intAfter(std::string_view s, std::string_view key)
    {
        const auto p = s.find(key);
        if (p == std::string_view::npos)
            return std::nullopt;
        return leadingInt(s.substr(p + key.size()));
    }

    /// The word right after the first `key` in `s`, up to the next space.
    std::string_view wordAfter(std::string_view s, std::string_view key)
    {
        const auto p = s.find(key);
        if (p == std::string_view::npos)
            return {};
        auto rest = s.substr(p + key.size());
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        const auto e = rest.find_first_of(" \t");
        return rest.substr(0, e);
    }

    std::string hex(long long v)
    {
        static const char* digits = "0123456789abcdef";
        if (v < 0)
            return std::to_string(v);
        std::string out;
        do {
            out.insert(out.begin(), digits[v % 16]);
            v /= 16;
        } while (v > 0);
        return "0x" + out;
    }

    std::string joinList(const std::vector<std::string>& items, std::string_view lastSep = " and ")
    {
        std::string out;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0)
                out += i + 1 == items.size() ? std::string(lastSep) : std::string(", ");
            out += items[i];
        }
        return out;
    }

    std::string plural(long long n, std::string_view one, std::string_view many)
    {
        return std::to_string(n) + " " + std::string(n == 1 ? one : many);
    }

    /// "2.27.5" -> {2, 27}; {0, 0} when unknown.
    std::pair<int, int> majorMinor(std::string_view version)
    {
        const auto parts = split(version, '.');
        if (parts.size() < 2)
            return { 0, 0 };
        const auto major = toNumber<int>(parts[0]);
        std::size_t used = 0;
        const auto minor = leadingInt(parts[1], &used);
        if (!major || !minor)
            return { 0, 0 };
        return { *major, *minor };
    }

    bool versionAtLeast(std::pair<int, int> v, int major, int minor)
    {
        return v.first > major || (v.first == major && v.second >= minor);
    }

    // ---------------------------------------------------------------------------------------
    // The line prefix: "host:pid:tid [dev] NCCL INFO msg", "... [dev] net_ib.cc:2453 NCCL WARN msg",
    // "... [dev] 1.234 func:56 NCCL TRACE msg".

    struct Head {
        std::string host;      ///< "" when absent
        long long pid = -1;    ///< -1 when the prefix has no host:pid:tid
        int dev = -1;          ///< the "[dev]" (local CUDA device); -1 when absent
        char level = 'I';      ///< 'I' INFO, 'W' WARN, 'T' TRACE
        std::string_view source; ///< WARN: "transport/net_ib.cc:2453"
        std::string_view msg;
        std::size_t markerPos = 0; ///< where "NCCL INFO" starts in the line
    };

    /// Where the level marker "NCCL INFO|WARN|TRACE" is in `s` (at the start or after a blank);
    /// npos when none. `level` and `length` get the marker's letter and length.
    std::size_t findMarker(std::string_view s, std::size_t from, char& level, std::size_t& length)
    {
        for (std::size_t p = s.find("NCCL ", from); p != std::string_view::npos; p = s.find("NCCL ", p + 1)) {
            if (p > 0 && !isSpace(s[p - 1]))
                continue;
            const auto rest = s.substr(p + 5);
            for (const auto& [word, letter] : { std::pair<std::string_view, char> { "INFO", 'I' }, { "WARN", 'W' }, { "TRACE", 'T' } }) {
                if (startsWith(rest, word) && (rest.size() == word.size() || isSpace(rest[word.size()]))) {
                    level = letter;
                    length = 5 + word.size();
                    return p;
                }
            }
        }
        return std::string_view::npos;
    }

    /// "host:pid:tid" (host may be empty or carry "[1,0]<stdout>:" in front) -> host and pid.
    bool readHostPidTid(std::string_view token, std::string& host, long long& pid)
    {
        const auto c2 = token.rfind(':');
        if (c2 == std::string_view::npos || c2 == 0)
            return false;
        const auto c1 = token.rfind(':', c2 - 1);
        if (c1 == std::string_view::npos)
            return false;
        const auto p = toNumber<long long>(token.substr(c1 + 1, c2 - c1 - 1));
        const auto t = toNumber<long long>(token.substr(c2 + 1));
        if (!p || !t)
            return false;
        auto h = token.substr(0, c1);
        // mpirun --tag-output "[1,0]<stdout>:host", torchrun "[rank0]:host"
        for (std::string_view tag : { ">:", "]:" })
            if (const auto at = h.rfind(tag); at != std::string_view::npos)
                h = h.substr(at + 2);
        host = std::string(h);
        pid = *p;
        return true;
    }

    std::optional<Head> readHead(std::string_view line)
    {
        char level = 'I';
        std::size_t length = 0;
        const auto pos = findMarker(line, 0, level, length);
        if (pos == std::string_view::npos)
            return std::nullopt;
        Head head;
        head.level = level;
        head.markerPos = pos;
        head.msg = trim(line.substr(pos + length));
        const auto words = splitWs(line.substr(0, pos));
        // The host:pid:tid word, then "[dev]", then (WARN, TRACE) the source location. The word before "[dev]" wins
        // (a time of day "12:35:26" in front reads like host:pid:tid too); else the last word of that form.
        auto isDev = [](std::string_view w) { return w.size() > 2 && w.front() == '[' && w.back() == ']' && toNumber<int>(w.substr(1, w.size() - 2)); };
        std::optional<std::size_t> hostWord;
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::string host;
            long long pid = -1;
            if (!readHostPidTid(words[i], host, pid))
                continue;
            if (i + 1 < words.size() && isDev(words[i + 1])) {
                hostWord = i;
                break;
            }
            hostWord = i;
        }
        for (std::size_t i = hostWord.value_or(words.size()); i < words.size(); ++i) {
            std::string host;
            long long pid = -1;
            if (!readHostPidTid(words[i], host, pid))
                continue;
            head.host = std::move(host);
            head.pid = pid;
            std::size_t j = i + 1;
            if (j < words.size() && isDev(words[j])) {
                head.dev = *toNumber<int>(words[j].substr(1, words[j].size() - 2));
                ++j;
            }
            if (level != 'I' && j < words.size())
                head.source = words.back();
            return head;
        }
        // No host:pid:tid: only a bare "NCCL INFO ..." or "[0] NCCL INFO ..." is NCCL's (not prose that names it).
        if (words.empty() || isDev(words.back()))
            return head;
        return std::nullopt;
    }

    // ---------------------------------------------------------------------------------------
    // ibv_wc_status (verbs.h) and what each usually means on a GPU cluster.

    struct StatusText {
        std::string_view meaning;
        std::string_view causes;
    };

    const StatusText* statusText(int status)
    {
        static const StatusText table[] = {
            { "success", "" },
            { "local length error: a message did not fit the receive buffer",
                "usually the two sides disagree (different NCCL versions or settings on the peers)" },
            { "local QP operation error: the HCA refused a malformed work request",
                "a driver or firmware problem on this host; check dmesg and the HCA firmware" },
            { "local EE context operation error", "a driver or firmware problem" },
            { "local protection error: the HCA was not allowed to access the registered memory",
                "in most cases PCIe ACS (Access Control Services) or the IOMMU blocks the peer-to-peer traffic of GPUDirect RDMA "
                "between the NIC and the GPU: disable ACS on the PCIe switches and bridges, or put the IOMMU in passthrough "
                "(NCCL_NET_GDR_LEVEL=0 turns GPUDirect RDMA off and confirms it); otherwise a GPU buffer registered through a "
                "broken nvidia-peermem or dma-buf path" },
            { "work request flushed: the queue pair had already failed, so its pending requests were cancelled",
                "a consequence, not a cause: look for the first error before it on this HCA or on its peer (NCCL's hint: NICs "
                "of the same host that cannot reach each other)" },
            { "memory window bind error", "a driver problem" },
            { "bad response: the peer's answer was unexpected", "a transport or firmware problem on the path" },
            { "local access error: a protection error on the local buffer",
                "memory registration on this host (GPUDirect RDMA through nvidia-peermem or dma-buf)" },
            { "remote invalid request: the peer rejected the request",
                "the two sides disagree (versions, settings) or the peer's queue pair is misconfigured" },
            { "remote access error: the peer refused the RDMA access to its memory (key or permissions)",
                "the peer's memory registration went away (its process died or freed the buffer) or GPUDirect RDMA fails on the peer" },
            { "remote operation error: the peer could not complete the request",
                "a problem on the peer host (its HCA, driver or memory registration)" },
            { "transport retry counter exceeded: the peer never acknowledged the packets, even after every retransmission",
                "a link that flaps or is down on the path; on RoCE a wrong GID index (NCCL_IB_GID_INDEX: RoCE v1 against v2, an IPv4 "
                "against an IPv6 GID, a GID of another subnet or VLAN) or no route between the two NICs (traffic between rails that "
                "the fabric does not carry); packets dropped because PFC/ECN do not match NCCL_IB_TC (the lossless priority and DSCP "
                "trust); the peer process gone or hung; or NCCL_IB_TIMEOUT too short for a large, congested fabric" },
            { "receiver-not-ready retry counter exceeded: the peer had no receive posted in time",
                "the peer process stalled, hung or died" },
            { "local RDD violation", "a driver problem" },
            { "remote invalid RD request", "a driver problem" },
            { "remote aborted: the peer aborted the operation", "a problem on the peer host" },
            { "invalid EE context number", "a driver problem" },
            { "invalid EE context state", "a driver problem" },
            { "fatal HCA error", "the HCA or its firmware failed; check dmesg, reset the HCA" },
            { "response timeout", "the peer or the path stopped answering" },
            { "general error", "see the HCA driver's messages (dmesg)" },
        };
        if (status < 0 || status >= static_cast<int>(std::size(table)))
            return nullptr;
        return &table[status];
    }

    std::string errorMeaning(int status, std::optional<int> vendorErr)
    {
        std::string out = "status " + std::to_string(status);
        if (const auto* t = statusText(status)) {
            const auto meaning = t->meaning;
            const auto colon = meaning.find(": ");
            out += " (" + std::string(ibvWcStatus(status)->enumerator) + ", " + std::string(meaning.substr(0, colon)) + ")";
            if (colon != std::string_view::npos)
                out += ": " + std::string(meaning.substr(colon + 2));
            if (!t->causes.empty())
                out += "; usual causes: " + std::string(t->causes);
        } else {
            out += " is not an ibv_wc_status number known to verbs";
        }
        if (vendorErr)
            out += "; vendor error " + std::to_string(*vendorErr) + " (" + hex(*vendorErr) + ") is the NIC firmware's own syndrome for it";
        return out;
    }

    // ---------------------------------------------------------------------------------------
    // PCI path types, by release (NCCL's topoPathTypeStr / ncclPathDist).

    const std::vector<std::string_view>& pathNames(std::pair<int, int> v, bool oldForm)
    {
        static const std::vector<std::string_view> v24 { "PIX", "PXB", "PHB", "NODE", "SYS" };
        static const std::vector<std::string_view> v26 { "LOC", "NVL", "PIX", "PXB", "PHB", "SYS", "NET" };
        static const std::vector<std::string_view> v28 { "LOC", "NVL", "NVB", "PIX", "PXB", "PHB", "SYS" };
        static const std::vector<std::string_view> v212 { "LOC", "NVL", "NVB", "PIX", "PXB", "PXN", "PHB", "SYS", "NET", "DIS" };
        static const std::vector<std::string_view> v226 { "LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "PXN", "PHB", "SYS", "NET", "DIS" };
        static const std::vector<std::string_view> v227 { "LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS" };
        static const std::vector<std::string_view> none;
        if (v.first == 0)
            return oldForm ? v24 : none;
        if (!versionAtLeast(v, 2, 6))
            return v24;
        if (!versionAtLeast(v, 2, 8))
            return v26;
        if (!versionAtLeast(v, 2, 12))
            return v28;
        if (!versionAtLeast(v, 2, 26))
            return v212;
        if (!versionAtLeast(v, 2, 27))
            return v226;
        return v227;
    }

    std::string pathName(std::pair<int, int> v, bool oldForm, std::optional<int> n)
    {
        const auto& names = pathNames(v, oldForm);
        if (!n || *n < 0 || *n >= static_cast<int>(names.size()))
            return {};
        return std::string(names[static_cast<std::size_t>(*n)]);
    }

    // ---------------------------------------------------------------------------------------
    // Accumulators

    struct NicAcc {
        NcclNic nic;
        bool hcaEnabled = false;
        bool hcaDisabled = false;
        std::string hcaReason;
        int chanGdr = 0;
        int chanNoGdr = 0;
    };

    /// A GDR statement as printed; interpreted at the end, once the release is known.
    struct RawGdr {
        std::string gpu;
        std::string hcaText;    ///< as printed ("0", "1", "a" in 2.22+'s hex)
        bool hcaAlwaysDecimal = false;
        std::string hcaName;    ///< 2.4's "'mlx5_0'"
        bool enabled = false;
        bool headForm = false;  ///< "GPU/0-1 (rank 1) - NET/0-3 (...)" (2.29)
        bool oldForm = false;   ///< "(distance d >= l)" (2.4, 2.5)
        std::optional<int> distance, limit;
        std::string reason;
    };

    struct HostAcc {
        std::string host;
        int firstLine = 0;
        std::vector<NicAcc> nics;
        std::set<int> ranks, gpus;
        std::set<long long> pids;
        int gdrCh = 0, noGdrCh = 0, sockCh = 0;
        int gdrRecv = 0, noGdrRecv = 0; ///< receive-side lines with and without GDRDMA (socket ones left out)
        std::vector<RawGdr> gdr;
        std::set<std::string> gdrKeys;
        std::optional<bool> dmaBuf;
        std::optional<bool> peermem;
        std::string netPlugin, oob;
        std::vector<std::string> socketIfs;
        std::optional<bool> ringGdr, ringPxn;
        bool noIbDevice = false;
        std::map<int, int> noGdrByNic; ///< NIC index -> connection lines without GDRDMA
    };

    struct ConnEnds {
        std::optional<std::pair<std::size_t, int>> send; ///< host index, NIC index
        std::optional<std::pair<std::size_t, int>> recv;
    };

    struct WarnSummary {
        std::string host;
        std::string message;
        std::string source;
        int count = 0;
        int firstLine = 0;
    };

    enum class Use { NotMine, Used, Cut };

} // namespace

// -------------------------------------------------------------------------------------------
// The parser state

struct NcclLogParser::State {
    NcclLogReport report;
    std::vector<HostAcc> hosts;
    std::map<std::string, std::size_t, std::less<>> hostIndex;
    std::map<std::tuple<int, int, int, int>, ConnEnds> conns; ///< channel, connIndex, from, to
    std::map<std::string, std::size_t> errorIndex;
    std::vector<WarnSummary> warns;
    std::map<std::string, std::size_t> warnIndex;
    std::set<std::string> commIds;
    std::set<std::string> hintSet, pluginSet;
    std::map<std::string, std::set<std::string>> envConflicts;
    std::optional<int> qpGid;
    std::optional<int> crossNicPattern;
    bool nvlsConnected = false, nvlsAvailable = false, nvlsNotAvailable = false;
    bool collnetConnected = false, collnetDisabled = false;
    int netDevLines = 0, netDevSmall = 0, netDevOther = 0;
    int lineNumber = 0;
    bool recognised = false;
    int splitLines = 0;
    // The first NCCL line is held until the same process speaks again (its host may be cut).
    std::optional<std::pair<std::string, int>> held;
    int sinceHeld = 0;
    bool firstSeen = false;
    // The last line that was cut (a message of a known form that stops short).
    std::optional<std::pair<int, std::string>> lastCut;
    int lastCutAt = 0;

    HostAcc& host(const std::string& name, int number = 0)
    {
        const auto it = hostIndex.find(name);
        if (it != hostIndex.end()) {
            HostAcc& h = hosts[it->second];
            if (number > 0 && number < h.firstLine)
                h.firstLine = number;
            return h;
        }
        hostIndex.emplace(name, hosts.size());
        hosts.push_back(HostAcc {});
        hosts.back().host = name;
        hosts.back().firstLine = number > 0 ? number : lineNumber;
        return hosts.back();
    }

    std::size_t hostId(const std::string& name)
    {
        host(name);
        return hostIndex.find(name)->second;
    }

    /// The host's NIC with NCCL index `index` (and `name` when given), created when missing.
    NicAcc& nic(HostAcc& h, int index, std::string_view name = {})
    {
        if (!name.empty()) {
            for (auto& n : h.nics)
                if (n.nic.name == name && (index < 0 || n.nic.index < 0 || n.nic.index == index)) {
                    if (n.nic.index < 0)
                        n.nic.index = index;
                    return n;
                }
        }
        if (index >= 0) {
            for (auto& n : h.nics)
                if (n.nic.index == index) {
                    if (n.nic.name.empty() && !name.empty())
                        n.nic.name = std::string(name);
                    return n;
                }
        }
        NicAcc n;
        n.nic.index = index;
        n.nic.name = std::string(name);
        h.nics.push_back(std::move(n));
        return h.nics.back();
    }

    void warn(std::string text) { report.warnings.push_back(std::string(kTool) + ": " + std::move(text)); }

    void feedLine(std::string_view line, int number);
    void releaseHeld(const std::string& host);
    void process(const Head& head, std::string_view line, int number);
    Use dispatch(HostAcc& h, const Head& head, std::string_view msg, int number, std::string_view line);
    void setEnv(const std::string& key, const std::string& value);

    Use readVersion(std::string_view msg);
    Use readUsing(HostAcc& h, std::string_view msg);
    Use readProbe(HostAcc& h, std::string_view msg);
    Use readGdr(HostAcc& h, std::string_view msg);
    Use readConnection(HostAcc& h, std::string_view msg);
    Use readCompletion(HostAcc& h, const Head& head, std::string_view msg, int number, std::string_view line);
    Use readComm(HostAcc& h, std::string_view msg);
    Use readChannelsSummary(std::string_view msg);

    NcclLogReport finish();
    void finishHosts();
    void finishFindings();
};

void NcclLogParser::State::setEnv(const std::string& key, const std::string& value)
{
    const auto [it, inserted] = report.env.emplace(key, value);
    if (!inserted && it->second != value)
        envConflicts[key].insert(value);
}

// "NCCL version 2.27.5+cuda12.9" (INFO in 2.2x, a bare line before), also "NCCL version 2.18.1nv+cuda12.1".
Use NcclLogParser::State::readVersion(std::string_view msg)
{
    if (!startsWith(msg, "NCCL version "))
        return Use::NotMine;
    auto v = trim(msg.substr(13));
    v = v.substr(0, v.find_first_of(" \t"));
    if (v.empty() || !isDigit(v.front()))
        return Use::NotMine;
    std::string version;
    std::string cuda;
    const auto plus = v.find('+');
    auto number = v.substr(0, plus);
    std::size_t i = 0;
    while (i < number.size() && (isDigit(number[i]) || number[i] == '.'))
        ++i;
    version = std::string(number.substr(0, i));
    if (plus != std::string_view::npos && startsWith(v.substr(plus + 1), "cuda"))
        cuda = std::string(v.substr(plus + 5));
    if (majorMinor(version).first == 0)
        return Use::Cut;
    if (report.version.empty()) {
        report.version = version;
        report.cuda = cuda;
    } else if (report.version != version) {
        warn("the log holds two NCCL versions, " + report.version + " and " + version + "; " + report.version + " is reported");
    }
    return Use::Used;
}

// "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_2:1/IB [RO]; OOB ibp209s0f0:10.128.3.13<0>" (2.4: "... ; OOB ..."),
// "[0]mlx5_0:1:3/IB" (rail id), "[0]mlx5_0:1::2/IB" (plane), "[0]mlx5_0:1/IB/SHARP" (HPC-X plugin);
// "NET/Socket : Using [0]eth0:10.0.0.1<0> [1]ib0:10.1.0.1<0>".
Use NcclLogParser::State::readUsing(HostAcc& h, std::string_view msg)
{
    if (!startsWith(msg, "NET/"))
        return Use::NotMine;
    const auto using_ = msg.find("Using ");
    const auto colon = msg.find(':');
    if (using_ == std::string_view::npos || colon == std::string_view::npos || colon > using_)
        return Use::NotMine;
    const auto netName = trim(msg.substr(4, colon - 4));
    if (trim(msg.substr(colon + 1, using_ - colon - 1)) != "")
        return Use::NotMine;
    auto list = msg.substr(using_ + 6);
    bool cut = false;
    const auto semi = list.find(';');
    if (semi != std::string_view::npos) {
        const auto oob = trim(list.substr(semi + 1));
        if (startsWith(oob, "OOB "))
            h.oob = std::string(trim(oob.substr(4)));
        list = list.substr(0, semi);
    } else if (netName != "Socket") {
        cut = true; // every NET/IB Using line names its OOB interface
    }
    if (netName == "Socket") {
        for (const auto word : splitWs(list)) {
            const auto close = word.find(']');
            if (word.front() != '[' || close == std::string_view::npos)
                continue;
            std::string name(word.substr(close + 1));
            if (std::find(h.socketIfs.begin(), h.socketIfs.end(), name) == h.socketIfs.end())
                h.socketIfs.push_back(std::move(name));
        }
        return Use::Used;
    }
    if (!startsWith(netName, "IB"))
        return Use::NotMine;
    auto words = splitWs(list);
    if (cut && !words.empty())
        words.pop_back(); // the last device may be cut
    for (const auto word : words) {
        if (word == "[RO]" || word.size() < 4 || word.front() != '[')
            continue;
        const auto close = word.find(']');
        if (close == std::string_view::npos)
            continue;
        const auto index = toNumber<int>(word.substr(1, close - 1));
        auto spec = word.substr(close + 1);
        const auto slash = spec.find('/');
        if (!index || slash == std::string_view::npos)
            continue;
        const auto linkParts = split(spec.substr(slash + 1), '/');
        const auto nameParts = split(spec.substr(0, slash), ':');
        if (nameParts.empty() || nameParts[0].empty())
            continue;
        const std::string name(nameParts[0]);
        NicAcc& n = nic(h, *index, name);
        if (n.nic.name != name) {
            warn("host " + (h.host.empty() ? std::string("''") : h.host) + ": NCCL's NIC [" + std::to_string(*index) + "] is " + n.nic.name
                + " in one process and " + name + " in another; " + n.nic.name + " is kept");
            continue;
        }
        if (nameParts.size() > 1)
            if (const auto port = toNumber<int>(nameParts[1]))
                n.nic.port = *port;
        if (nameParts.size() > 2)
            if (const auto rail = toNumber<int>(nameParts[2]))
                n.nic.rail = *rail;
        n.nic.link = std::string(linkParts[0]);
        for (std::size_t i = 1; i < linkParts.size(); ++i)
            if (linkParts[i] == "SHARP")
                n.nic.sharp = true;
    }
    return cut ? Use::Cut : Use::Used;
}

// NCCL_DEBUG_SUBSYS=NET probes (2.2x): "NET/IB: [2] mlx5_2:uverbs2:1/RoCE provider=Mlx5 speed=400000 context=0x...
// pciPath=... ar=0" ([2] is the verbs device number, not NCCL's index) and
// "NET/IB : Made virtual device [0] name=mlx5_0 speed=400000 ndevs=1".
Use NcclLogParser::State::readProbe(HostAcc& h, std::string_view msg)
{
    if (startsWith(msg, "NET/IB: [") && contains(msg, " provider=")) {
        const auto close = msg.find("] ");
        if (close == std::string_view::npos)
            return Use::NotMine;
        const auto spec = wordAfter(msg.substr(close), "] ");
        const auto slash = spec.find('/');
        const auto parts = split(spec.substr(0, slash), ':');
        if (slash == std::string_view::npos || parts.size() < 3 || parts[0].empty())
            return Use::Cut;
        NicAcc& n = nic(h, -1, parts[0]);
        if (const auto port = toNumber<int>(parts[2]))
            n.nic.port = *port;
        if (n.nic.link.empty())
            n.nic.link = std::string(spec.substr(slash + 1));
        if (const auto speed = intAfter(msg, " speed="))
            n.nic.speedMbps = *speed;
        return Use::Used;
    }
    if (contains(msg, "Made virtual device [") && contains(msg, " name=")) {
        const auto name = wordAfter(msg, " name=");
        if (name.empty())
            return Use::Cut;
        if (contains(name, "+"))
            return Use::Used; // a merged device (NCCL_IB_MERGE_NICS): not one HCA
        NicAcc& n = nic(h, -1, name);
        if (const auto speed = intAfter(msg, " speed="))
            n.nic.speedMbps = *speed;
        return Use::Used;
    }
    return Use::NotMine;
}

// GPUDirect RDMA, every form:
// 2.4:   "NET/IB : GPU Direct RDMA Disabled for GPU 2[2] / HCA 0 (distance 3 >= 2)",
//        "NET/IB : GPU Direct RDMA Enabled for GPU 0[0] / HCA 0 (distance 1 < 2), read 0",
//        "NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 0 'mlx5_0' (no module or not supported by GPU)"
// 2.5:   "NET/IB : GPU Direct RDMA Disabled for GPU 1b000 / HCA 0 (distance 3 >= 2)"
// 2.6+:  "GPU Direct RDMA Disabled for GPU 81000 / HCA 1 (distance 5 > 4)", "... Enabled ... (distance 6 <= 7), read 0"
// 2.22+: "... / HCA %lx ..." (a topology id in hex); 2.24+: "GPU %d" is the rank; 2.27: "..., read 0 mode Default"
// 2.29:  "GPU Direct RDMA Enabled for GPU/0-1 (rank 1) - NET/0-3 (distance 4 <= 5, read 0, mode Default)"
// HCA:   "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)" (2.5-2.17),
//        "NET/IB : GPU Direct RDMA Enabled|Disabled for HCA 0 'mlx5_0'" (2.18+: no peermem and no dma-buf when Disabled)
Use NcclLogParser::State::readGdr(HostAcc& h, std::string_view msg)
{
    const auto p = msg.find("GPU Direct RDMA ");
    if (p == std::string_view::npos) {
        // A line cut inside "GPU Direct RDMA".
        for (std::string_view head : { "NET/IB : GPU Direct RDMA", "GPU Direct RDMA" })
            if (msg.size() >= 8 && startsWith(head, msg))
                return Use::Cut;
        return Use::NotMine;
    }
    auto rest = msg.substr(p + 16);
    bool enabled = false;
    if (startsWith(rest, "Enabled"))
        enabled = true;
    else if (!startsWith(rest, "Disabled"))
        return startsWith("Enabled", rest) || startsWith("Disabled", rest) ? Use::Cut : Use::NotMine;
    const auto forPos = rest.find(" for ");
    if (forPos == std::string_view::npos)
        return Use::Cut;
    rest = rest.substr(forPos + 5);
    if (startsWith(rest, "HCA ")) {
        std::size_t used = 0;
        const auto index = leadingInt(rest.substr(4), &used);
        if (!index)
            return Use::Cut;
        auto after = rest.substr(4 + used);
        std::string name;
        if (const auto q1 = after.find('\''); q1 != std::string_view::npos) {
            const auto q2 = after.find('\'', q1 + 1);
            if (q2 == std::string_view::npos)
                return Use::Cut;
            name = std::string(after.substr(q1 + 1, q2 - q1 - 1));
        }
        NicAcc& n = nic(h, *index, name);
        if (enabled) {
            n.hcaEnabled = true;
        } else {
            n.hcaDisabled = true;
            if (contains(after, "no module")) {
                n.hcaReason = "the nvidia-peermem kernel module (nv_peer_mem on older stacks) is not loaded";
                h.peermem = false;
            } else {
                n.hcaReason = "NCCL found neither nvidia-peermem nor dma-buf support";
            }
        }
        return Use::Used;
    }
    RawGdr g;
    g.enabled = enabled;
    if (startsWith(rest, "GPU/")) {
        // 2.29: "GPU/0-1 (rank 1) - NET/0-3 (distance 4 <= 5, read 0, mode Default)"
        g.headForm = true;
        const auto rank = intAfter(rest, "(rank ");
        const auto net = rest.find("NET/");
        if (!rank || net == std::string_view::npos)
            return Use::Cut;
        g.gpu = std::to_string(*rank);
        const auto id = wordAfter(rest.substr(net), "NET/");
        const auto dash = id.find('-');
        if (dash == std::string_view::npos)
            return Use::Cut;
        g.hcaText = std::string(id.substr(dash + 1));
        g.hcaAlwaysDecimal = true;
    } else if (startsWith(rest, "GPU ")) {
        const auto slash = rest.find(" / HCA ");
        if (slash == std::string_view::npos)
            return Use::Cut;
        g.gpu = std::string(trim(rest.substr(4, slash - 4)));
        auto after = rest.substr(slash + 7);
        const auto end = after.find_first_of(" (");
        g.hcaText = std::string(after.substr(0, end));
        if (g.hcaText.empty() || !std::all_of(g.hcaText.begin(), g.hcaText.end(), isHexDigit))
            return Use::Cut;
        if (const auto q1 = after.find('\''); q1 != std::string_view::npos) {
            const auto q2 = after.find('\'', q1 + 1);
            if (q2 != std::string_view::npos)
                g.hcaName = std::string(after.substr(q1 + 1, q2 - q1 - 1));
        }
        if (contains(after, "no module"))
            g.reason = "no nvidia-peermem (nv_peer_mem) module, or the GPU does not support GPUDirect RDMA";
    } else {
        return Use::NotMine;
    }
    if (const auto d = rest.find("distance "); d != std::string_view::npos) {
        std::size_t used = 0;
        auto s = rest.substr(d + 9);
        g.distance = leadingInt(s, &used);
        s = s.substr(g.distance ? used : 0);
        while (!s.empty() && s.front() == ' ')
            s.remove_prefix(1);
        std::size_t opLen = 0;
        while (opLen < s.size() && (s[opLen] == '<' || s[opLen] == '>' || s[opLen] == '='))
            ++opLen;
        const auto op = s.substr(0, opLen);
        g.oldForm = op == ">=" || (op == "<" && !g.headForm);
        s = trim(s.substr(opLen));
        g.limit = leadingInt(s);
        if (!g.distance || !g.limit)
            return Use::Cut;
    } else if (g.reason.empty()) {
        return Use::Cut;
    }
    const std::string key = g.gpu + "|" + g.hcaText + "|" + (g.enabled ? "1" : "0");
    if (h.gdrKeys.insert(key).second)
        h.gdr.push_back(std::move(g));
    return Use::Used;
}

// Connections: "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/4[/GDRDMA][(PCI)][/Shared]" (2.7+; the "[g]" is a bus
// id before 2.19 and the NVML device index after), "... via NET/IB/0(1)/GDRDMA" (sent through rank 1: PXN),
// "Ring 00 : 6 -> 2 [receive] via NET/IB/0" and "Ring 00 : 3[3] -> 1[1] via P2P/IPC" (2.4-2.6), intra-node
// "via P2P/IPC", "via SHM/direct/direct", "via P2P/CUMEM/read"; CollNet: "CollNet 00/0 : 0 [send] via COLLNET/SHARP/0".
// Ring orders: "Channel 00/16 :  0  7  6 ..." (16 channels), "Ring 00 : 1 -> 0 -> 1".
Use NcclLogParser::State::readConnection(HostAcc& h, std::string_view msg)
{
    const bool collnet = startsWith(msg, "CollNet ");
    std::string_view rest;
    if (startsWith(msg, "Channel "))
        rest = msg.substr(8);
    else if (startsWith(msg, "Ring "))
        rest = msg.substr(5);
    else if (collnet)
        rest = msg.substr(8);
    else
        return Use::NotMine;
    std::size_t used = 0;
    const auto channel = leadingInt(rest, &used);
    if (!channel || used == 0 || !isDigit(rest.front()))
        return Use::NotMine;
    rest = rest.substr(used);
    std::optional<int> sub;
    if (!rest.empty() && rest.front() == '/') {
        sub = leadingInt(rest.substr(1), &used);
        if (!sub)
            return Use::NotMine;
        rest = rest.substr(1 + used);
    }
    rest = trim(rest);
    if (!startsWith(rest, ":"))
        return Use::NotMine;
    rest = trim(rest.substr(1));
    const auto via = rest.find(" via ");
    if (via == std::string_view::npos) {
        if (rest.empty() || !isDigit(rest.front()))
            return Use::NotMine;
        if (contains(rest, "->"))
            return startsWith(msg, "Ring ") ? Use::Used : Use::NotMine; // "Ring 00 : 1 -> 0 -> 1"
        // A ring order: "Channel 00/16 :  0 7 6 ..." (16 channels) or, before 2.7, "Ring 00 :  0 1 2 3" / "Channel 00 :  0 1".
        report.topology.ringChannels = std::max(report.topology.ringChannels.value_or(0), sub && startsWith(msg, "Channel ") ? *sub : *channel + 1);
        return Use::Used;
    }
    const auto ends = splitWs(rest.substr(0, via));
    const auto transport = trim(rest.substr(via + 5));
    if (collnet) {
        collnetConnected = true;
        const auto parts = split(transport, '/');
        if (parts.size() > 1 && (contains(parts[1], "SHARP") || contains(parts[1], "Sharp") || contains(parts[1], "sharp")))
            report.topology.sharp = true;
        return Use::Used;
    }
    // "a[g] -> b[g] [send]", "a -> b [receive]", "a[g] -> b[g]"
    if (ends.size() < 3 || ends[1] != "->")
        return Use::Cut;
    auto endpoint = [](std::string_view s, int& rank, std::string_view& dev) {
        const auto open = s.find('[');
        const auto r = toNumber<int>(s.substr(0, open));
        if (!r)
            return false;
        rank = *r;
        if (open != std::string_view::npos && s.back() == ']')
            dev = s.substr(open + 1, s.size() - open - 2);
        return true;
    };
    int from = 0, to = 0;
    std::string_view fromDev, toDev;
    if (!endpoint(ends[0], from, fromDev) || !endpoint(ends[2], to, toDev))
        return Use::Cut;
    std::string_view direction = ends.size() > 3 ? ends[3] : std::string_view {};
    const bool send = direction == "[send]";
    const bool recv = direction == "[receive]";
    const auto parts = split(transport, '/');
    if (parts.empty())
        return Use::Cut;
    if (parts[0] != "NET") {
        // Intra-node transports: both ranks are on this host.
        if (parts[0] == "P2P" || parts[0] == "SHM" || parts[0] == "CUMEM") {
            h.ranks.insert(from);
            h.ranks.insert(to);
        } else if (send) {
            h.ranks.insert(from);
        } else if (recv) {
            h.ranks.insert(to);
        }
        return Use::Used;
    }
    if (!send && !recv)
        return Use::Cut;
    if (parts.size() < 3)
        return Use::Cut;
    const auto plugin = parts[1];
    const auto devIndex = leadingInt(parts[2], &used);
    if (!devIndex || used == 0)
        return Use::Cut;
    bool gdr = false;
    for (std::size_t i = 3; i < parts.size(); ++i) {
        const auto flag = trim(parts[i]);
        if (startsWith(flag, "GDRDMA"))
            gdr = true;
        else if (flag != "Shared" && i + 1 == parts.size() && (startsWith("GDRDMA", flag) || startsWith("Shared", flag)))
            return Use::Cut;
    }
    const int local = send ? from : to;
    h.ranks.insert(local);
    const bool socket = plugin == "Socket";
    if (gdr) {
        ++h.gdrCh;
        h.gdrRecv += recv ? 1 : 0;
    } else {
        ++h.noGdrCh;
        if (socket) {
            ++h.sockCh;
        } else {
            ++h.noGdrByNic[*devIndex];
            h.noGdrRecv += recv ? 1 : 0;
        }
    }
    if (!socket) {
        NicAcc& n = nic(h, *devIndex);
        if (gdr)
            ++n.chanGdr;
        else
            ++n.chanNoGdr;
    }
    // Both ends of a connection, for rails.
    if (!socket) {
        ConnEnds& c = conns[{ *channel, sub.value_or(0), from, to }];
        const std::pair<std::size_t, int> end { hostId(h.host), *devIndex };
        if (send && !c.send)
            c.send = end;
        if (recv && !c.recv)
            c.recv = end;
    }
    // The peer's GPU against ours ("[g]" as device indices: at most two decimal digits).
    if (!fromDev.empty() && !toDev.empty()) {
        ++netDevLines;
        auto small = [](std::string_view s) { return s.size() <= 2 && std::all_of(s.begin(), s.end(), isDigit); };
        if (small(fromDev) && small(toDev)) {
            ++netDevSmall;
            if (fromDev != toDev)
                ++netDevOther;
        }
    }
    return Use::Used;
}

// Completion errors, every form (WARN):
// 2.4-2.9:  "NET/IB : Got completion with error 12, opcode 1, len 32561, vendor err 129"
// 2.10-2.19: "NET/IB : Got completion from peer 10.0.0.2<45678> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid ... remoteGid ..."
// 2.20-2.21: "NET/IB : Got completion from peer ... with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ... remoteGids..."
// 2.22-2.28: "NET/IB: Got completion from peer ... with status=4 opcode=0 len=0 vendor err 81 (Send) localGid ... remoteGids... hca mlx5_0"
// 2.28.9+:  "NET/IB: Got completion from peer ... with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) ... vendor_err=129 ... hca mlx5_0"
// Also "NET/IB/GIN: ...", and plugins (HPC-X "ib_plugin.c"). TRACE lines with status=0 are successes.
Use NcclLogParser::State::readCompletion(HostAcc& h, const Head& head, std::string_view msg, int number, std::string_view line)
{
    const auto p = msg.find("Got completion");
    if (p == std::string_view::npos)
        return Use::NotMine;
    const auto rest = msg.substr(p);
    NcclError e;
    std::optional<int> status;
    if (const auto s = rest.find("status="); s != std::string_view::npos) {
        auto v = rest.substr(s + 7);
        if (!v.empty() && isDigit(v.front())) {
            status = leadingInt(v);
        } else {
            const auto open = v.find('(');
            const auto close = v.find(')');
            if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
                e.statusName = std::string(v.substr(0, open));
                status = toNumber<int>(v.substr(open + 1, close - open - 1));
            }
        }
    } else if (const auto s2 = rest.find("with error "); s2 != std::string_view::npos) {
        status = leadingInt(rest.substr(s2 + 11));
    }
    if (!status)
        return head.level == 'W' ? Use::Cut : Use::NotMine;
    if (*status == 0)
        return Use::Used; // a successful completion (TRACE)
    e.status = *status;
    if (e.statusName.empty())
        e.statusName = ibvWcStatus(e.status) ? std::string(ibvWcStatus(e.status)->enumerator) : std::string();
    if (const auto o = rest.find("opcode="); o != std::string_view::npos) {
        auto v = rest.substr(o + 7);
        if (!v.empty() && isDigit(v.front()))
            e.opcode = leadingInt(v);
        else if (const auto open = v.find('('); open != std::string_view::npos && open < v.find(' '))
            e.opcode = leadingInt(v.substr(open + 1));
    } else {
        e.opcode = intAfter(rest, "opcode ");
    }
    e.vendorErr = intAfter(rest, "vendor err ");
    if (!e.vendorErr)
        e.vendorErr = intAfter(rest, "vendor_err=");
    e.peer = std::string(wordAfter(rest, "from peer "));
    if (contains(rest, "(Send)"))
        e.direction = "Send";
    else if (contains(rest, "(Recv)"))
        e.direction = "Recv";
    else
        e.direction = std::string(wordAfter(rest, "req_type=")); // 2.28.9+
    e.localGid = std::string(wordAfter(rest, "localGid "));
    if (const auto r = rest.find("remoteGid"); r != std::string_view::npos) {
        auto v = rest.substr(r + 9);
        if (startsWith(v, "s"))
            v.remove_prefix(1);
        e.remoteGid = std::string(wordAfter(v, ""));
    }
    if (const auto hca = rest.rfind(" hca "); hca != std::string_view::npos)
        e.hca = std::string(wordAfter(rest.substr(hca), " hca "));
    e.host = h.host;
    e.line = std::string(trim(line));
    e.lineNumber = number;
    e.meaning = errorMeaning(e.status, e.vendorErr);
    const std::string key = e.host + "|" + e.hca + "|" + std::to_string(e.status) + "|" + (e.vendorErr ? std::to_string(*e.vendorErr) : "-")
        + "|" + e.direction + "|" + e.peer + "|" + e.localGid + "|" + e.remoteGid;
    if (const auto it = errorIndex.find(key); it != errorIndex.end()) {
        ++report.errors[it->second].count;
    } else {
        errorIndex.emplace(key, report.errors.size());
        report.errors.push_back(std::move(e));
    }
    return Use::Used;
}

// "comm 0x55a223a946d0 rank 8 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0" (2.19+),
// "[Rank 0] ncclCommInitRank comm 0x... rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId a000 commId 0x... - Init START|COMPLETE",
// "comm 0x72a6b00 rank 0 nranks 2 cudaDev 0 busId 81000 commId 0x... - Init COMPLETE" (2.1x),
// "comm 0x7f... rank 0 nranks 8 cudaDev 0 nvmlDev 0 - Init COMPLETE" (2.4).
Use NcclLogParser::State::readComm(HostAcc& h, std::string_view msg)
{
    const auto words = splitWs(msg);
    const bool start = endsWith(msg, "Init START");
    const bool complete = endsWith(msg, "Init COMPLETE");
    auto& t = report.topology;
    if (!start && !complete) {
        if (!(startsWith(msg, "comm ") || contains(msg, " comm ")) || !contains(msg, " nRanks "))
            return Use::NotMine;
        const auto rank = wordValue(words, "rank");
        const auto nRanks = wordValue(words, "nRanks");
        if (!rank || !nRanks)
            return Use::Cut;
        h.ranks.insert(*rank);
        const auto nNodes = wordValue(words, "nNodes");
        const auto localRanks = wordValue(words, "localRanks");
        if (!t.nRanks || *nRanks > *t.nRanks || (*nRanks == *t.nRanks && !t.nNodes)) {
            t.nRanks = *nRanks;
            t.nNodes = nNodes;
            t.localRanks = localRanks;
        }
        return Use::Used;
    }
    const auto rank = wordValue(words, "rank");
    const auto nRanks = wordValue(words, "nranks");
    if (!rank && !nRanks)
        return Use::NotMine;
    if (start)
        ++report.initStarted;
    else
        ++report.initCompleted;
    if (rank)
        h.ranks.insert(*rank);
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
        if (words[i] == "commId")
            commIds.insert(std::string(words[i + 1]));
    if (nRanks && (!t.nRanks || *nRanks > *t.nRanks)) {
        t.nRanks = *nRanks;
        t.nNodes.reset();
        t.localRanks.reset();
    }
    return Use::Used;
}

// "16 coll channels, 16 collnet channels, 0 nvls channels, 16 p2p channels, 2 p2p channels per peer" (2.2x),
// "2 coll channels, 2 p2p channels, 2 p2p channels per peer" (2.1x), "2 coll channels, 0 nvls channels, ...".
Use NcclLogParser::State::readChannelsSummary(std::string_view msg)
{
    if (!contains(msg, " coll channels"))
        return Use::NotMine;
    auto& t = report.topology;
    for (const auto part : split(msg, ',')) {
        const auto words = splitWs(part);
        if (words.size() < 3 || words.back() != "channels")
            continue;
        const auto n = toNumber<int>(words[0]);
        if (!n)
            continue;
        if (words[1] == "coll")
            t.collChannels = std::max(t.collChannels.value_or(0), *n);
        else if (words[1] == "nvls")
            t.nvlsChannels = std::max(t.nvlsChannels.value_or(0), *n);
        else if (words[1] == "p2p" && words.size() == 3)
            t.p2pChannels = std::max(t.p2pChannels.value_or(0), *n);
    }
    return Use::Used;
}

Use NcclLogParser::State::dispatch(HostAcc& h, const Head& head, std::string_view msg, int number, std::string_view line)
{
    if (head.level == 'W') {
        if (const auto u = readCompletion(h, head, msg, number, line); u != Use::NotMine)
            return u;
        const std::string key = h.host + "\x1f" + std::string(msg);
        if (const auto it = warnIndex.find(key); it != warnIndex.end()) {
            ++warns[it->second].count;
        } else {
            warnIndex.emplace(key, warns.size());
            warns.push_back(WarnSummary { h.host, std::string(msg), std::string(head.source), 1, number });
        }
        return Use::Used;
    }
    for (auto reader : { &State::readVersion, &State::readChannelsSummary }) {
        if (const auto u = (this->*reader)(msg); u != Use::NotMine)
            return u;
    }
    for (auto reader : { &State::readUsing, &State::readProbe, &State::readGdr, &State::readComm }) {
        if (const auto u = (this->*reader)(h, msg); u != Use::NotMine)
            return u;
    }
    if (const auto u = readConnection(h, msg); u != Use::NotMine)
        return u;
    if (const auto u = readCompletion(h, head, msg, number, line); u != Use::NotMine)
        return u;
    auto& t = report.topology;
    // "NCCL_IB_GID_INDEX set by environment to 3." and "NCCL_IB_HCA set to mlx5_0,mlx5_1" (no "by environment").
    if (startsWith(msg, "NCCL_")) {
        const auto words = splitWs(msg);
        std::string_view value;
        if (const auto p = msg.find(" set by environment to "); p != std::string_view::npos)
            value = trim(msg.substr(p + 23));
        else if (const auto q = msg.find(" set to "); q != std::string_view::npos && q == words[0].size())
            value = trim(msg.substr(q + 8));
        else
            return Use::NotMine;
        if (endsWith(value, "."))
            value.remove_suffix(1);
        setEnv(std::string(words[0]), std::string(value));
        return Use::Used;
    }
    if (startsWith(msg, "Using network ")) {
        h.netPlugin = std::string(trim(msg.substr(14)));
        report.netPlugin = h.netPlugin;
        return Use::Used;
    }
    if (startsWith(msg, "DMA-BUF is available on GPU device")) {
        h.dmaBuf = true;
        if (const auto dev = intAfter(msg, "GPU device "))
            h.gpus.insert(*dev);
        return Use::Used;
    }
    if (startsWith(msg, "NET/IB : No device found") || startsWith(msg, "NET/IB: No device found")) {
        h.noIbDevice = true;
        return Use::Used;
    }
    for (const auto& [prefix, kind] : { std::pair<std::string_view, std::string_view> { "Loaded net plugin ", "net" },
             { "Loaded collnet plugin ", "collnet" }, { "Assigned NET plugin ", "net" }, { "Assigned GIN plugin ", "gin" },
             { "Assigned RMA plugin ", "rma" },
             { "Selected Provider is ", "ofi provider" } }) {
        if (const auto p = msg.find(prefix); p != std::string_view::npos) {
            auto name = trim(msg.substr(p + prefix.size()));
            for (std::string_view tail : { " to comm", " (found" })
                if (const auto q = name.find(tail); q != std::string_view::npos)
                    name = name.substr(0, q);
            if (kind == "net" || kind == "collnet")
                if (const auto q = name.rfind(" (v"); q != std::string_view::npos)
                    name = name.substr(0, q);
            if (kind == "collnet" && (contains(name, "SHARP") || contains(name, "Sharp") || contains(name, "sharp")))
                t.sharp = true;
            const std::string item = std::string(kind) + ": " + std::string(trim(name));
            if (pluginSet.insert(item).second)
                report.pluginsLoaded.push_back(item);
            return Use::Used;
        }
    }
    if (startsWith(msg, "Connected all rings")) {
        if (const auto pxn = intAfter(msg, "PXN ")) {
            h.ringPxn = *pxn != 0;
            t.pxn = t.pxn.value_or(false) || *pxn != 0;
        }
        if (const auto gdr = intAfter(msg, "GDR "))
            h.ringGdr = h.ringGdr.value_or(true) && *gdr != 0;
        return Use::Used;
    }
    if (startsWith(msg, "Connected all trees") || startsWith(msg, "Trees ") || (startsWith(msg, "Tree ") && msg.size() > 5 && isDigit(msg[5]))) {
        t.trees = true;
        return Use::Used;
    }
    if (startsWith(msg, "NVLS multicast support is ")) {
        (contains(msg, " not available") ? nvlsNotAvailable : nvlsAvailable) = true;
        return Use::Used;
    }
    if (startsWith(msg, "Connected NVLS")) {
        nvlsConnected = true;
        return Use::Used;
    }
    if (contains(msg, "Connected CollNet")) {
        collnetConnected = true;
        return Use::Used;
    }
    if (contains(msg, "disabling CollNet")) {
        collnetDisabled = true;
        return Use::Used;
    }
    if (startsWith(msg, "Pattern ") && contains(msg, "crossNic ")) {
        if (const auto c = intAfter(msg, "crossNic "))
            crossNicPattern = std::max(crossNicPattern.value_or(0), *c);
        return Use::Used;
    }
    if (startsWith(msg, "HINT: ")) {
        const std::string hint(trim(msg.substr(6)));
        if (hintSet.insert(hint).second)
            report.hints.push_back(hint);
        return Use::Used;
    }
    // QP lines: "NET/IB: Dev 0 Port 1 qpn 305 mtu 5 LID 4", "... qpn 1234 mtu 5 GID 3 (80FE/...)", 2.21+: "NET/IB: NCCL Dev 0
    // IbDev 0 Port 1 qpn ... GID 3 (...)".
    if (startsWith(msg, "NET/IB") && contains(msg, " qpn ")) {
        if (const auto gid = intAfter(msg, " GID "))
            qpGid = qpGid.value_or(*gid);
        return Use::Used;
    }
    return Use::NotMine;
}

/// One NCCL message of a line; `line` is the whole line (for errors and warnings).
void NcclLogParser::State::process(const Head& head, std::string_view line, int number)
{
    recognised = true;
    ++report.ncclLines;
    HostAcc& h = host(head.host, number);
    if (head.pid >= 0)
        h.pids.insert(head.pid);
    if (head.dev >= 0)
        h.gpus.insert(head.dev);
    const auto use = dispatch(h, head, head.msg, number, line);
    if (use == Use::Cut) {
        lastCut = { number, std::string(trim(line)) };
        lastCutAt = lineNumber;
    }
}

void NcclLogParser::State::feedLine(std::string_view line, int number)
{
    // The bare "NCCL version 2.16.5+cuda11.8" that rank 0 printed before 2.2x.
    if (const auto t = trim(line); startsWith(t, "NCCL version ") && t.size() > 13 && isDigit(t[13])) {
        recognised = true;
        ++report.ncclLines;
        if (readVersion(t) == Use::Cut) {
            lastCut = { number, std::string(t) };
            lastCutAt = lineNumber;
        }
        return;
    }
    auto head = readHead(line);
    if (!head) {
        if (!trim(line).empty())
            ++report.otherLines;
        return;
    }
    // Two messages run together: "...GDRDMAhost:12:34 [1] NCCL INFO ..." or "... host:12:34 [1] NCCL INFO ...".
    char level = 'I';
    std::size_t length = 0;
    const auto msgStart = static_cast<std::size_t>(head->msg.data() - line.data());
    const auto second = findMarker(line, msgStart, level, length);
    if (second != std::string_view::npos) {
        // The second message's prefix: back over "[dev]" (and the source location), then the host:pid:tid word.
        const auto before = line.substr(msgStart, second - msgStart);
        const auto open = before.rfind(" [");
        std::size_t split = std::string_view::npos;
        if (open != std::string_view::npos) {
            const auto wordStart = before.rfind(' ', open > 0 ? open - 1 : 0);
            const auto word = before.substr(wordStart == std::string_view::npos ? 0 : wordStart + 1,
                open - (wordStart == std::string_view::npos ? 0 : wordStart + 1));
            std::string glued;
            long long pid = -1;
            if (readHostPidTid(word, glued, pid)) {
                std::size_t hostStart = static_cast<std::size_t>(word.data() - line.data());
                // A host glued to the first message: split where a known host name begins.
                std::size_t best = std::string::npos;
                for (const auto& [name, index] : hostIndex) {
                    (void)index;
                    if (!name.empty() && glued.size() >= name.size() && endsWith(glued, name))
                        best = std::min(best, glued.size() - name.size());
                }
                if (best != std::string::npos) {
                    split = hostStart + best;
                } else if (wordStart != std::string_view::npos || word.data() == line.data() + msgStart) {
                    split = hostStart; // the host word stands alone
                }
            }
        }
        if (split != std::string_view::npos && split > msgStart) {
            ++splitLines;
            const auto first = std::string(line.substr(0, split));
            const auto rest = std::string(line.substr(split));
            feedLine(first, number);
            feedLine(rest, number);
            return;
        }
    }
    // The first NCCL line waits for its process's next line: a paste may have cut its host short.
    if (!firstSeen) {
        firstSeen = true;
        if (head->pid >= 0) {
            held = { std::string(line), number };
            recognised = true;
            return;
        }
    }
    if (held) {
        bool release = ++sinceHeld > 256;
        std::string host;
        if (const auto heldHead = readHead(held->first); head->pid == heldHead->pid && head->pid >= 0) {
            release = true;
            if (head->host.size() > heldHead->host.size() && endsWith(head->host, heldHead->host)) {
                warn("line " + std::to_string(held->second) + " names host '" + heldHead->host + "', read as '" + head->host
                    + "': its first characters were lost, and the same process (" + std::to_string(head->pid) + ") logs as '"
                    + head->host + "'");
                host = head->host;
            }
        }
        if (release)
            releaseHeld(host);
    }
    process(*head, line, number);
}

// -------------------------------------------------------------------------------------------
// The report

namespace {

    std::string hostName(const std::string& host) { return host.empty() ? std::string("the host (its name is not in the log)") : host; }
    std::string hostWhere(const std::string& host, const std::string& part = {})
    {
        if (part.empty())
            return host;
        return host.empty() ? part : host + "/" + part;
    }

    std::string nicLabel(const NcclNic& n)
    {
        if (n.name.empty())
            return "NIC [" + std::to_string(n.index) + "]";
        return n.name + (n.index >= 0 ? " [" + std::to_string(n.index) + "]" : std::string());
    }

    std::string gpuLabel(const NcclGdrPath& p)
    {
        if (p.gpuIsRank)
            return "the GPU of rank " + p.gpu;
        if (!p.gpu.empty() && p.gpu.find('[') == std::string::npos && p.gpu.size() >= 4)
            return "GPU " + p.gpu + " (PCI bus id)";
        return "GPU " + p.gpu;
    }

} // namespace

void NcclLogParser::State::finishHosts()
{
    const auto version = majorMinor(report.version);
    // Hosts in the order of their first line (the first line may have been held back).
    std::vector<std::size_t> order(hosts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return hosts[a].firstLine < hosts[b].firstLine; });
    std::vector<std::size_t> newIndex(hosts.size());
    {
        std::vector<HostAcc> sorted;
        for (std::size_t i = 0; i < order.size(); ++i) {
            newIndex[order[i]] = i;
            sorted.push_back(std::move(hosts[order[i]]));
        }
        hosts = std::move(sorted);
        for (auto& [name, index] : hostIndex)
            index = newIndex[index];
        for (auto& [key, c] : conns) {
            (void)key;
            if (c.send)
                c.send->first = newIndex[c.send->first];
            if (c.recv)
                c.recv->first = newIndex[c.recv->first];
        }
    }
    for (auto& h : hosts) {
        NcclHostReport out;
        out.host = h.host;
        out.ranks = h.ranks;
        out.gpus = h.gpus;
        out.netChannelsGdr = h.gdrCh;
        out.netChannelsNoGdr = h.noGdrCh;
        out.netChannelsSocket = h.sockCh;
        out.dmaBuf = h.dmaBuf;
        if (!out.dmaBuf) {
            if (const auto it = report.env.find("NCCL_DMABUF_ENABLE"); it != report.env.end() && it->second == "0")
                out.dmaBuf = false;
        }
        out.peermem = h.peermem;
        out.netPlugin = h.netPlugin;
        out.oob = h.oob;
        out.socketInterfaces = h.socketIfs;
        out.ringGdr = h.ringGdr;
        out.ringPxn = h.ringPxn;
        // GPU/HCA statements, read with the release's rules.
        for (const auto& g : h.gdr) {
            NcclGdrPath p;
            p.gpu = g.gpu;
            p.enabled = g.enabled;
            p.distance = g.distance;
            p.limit = g.limit;
            p.reason = g.reason;
            p.gpuIsRank = g.headForm || (versionAtLeast(version, 2, 24) && !g.oldForm);
            const bool hexId = !g.hcaAlwaysDecimal
                && (versionAtLeast(version, 2, 22)
                    || (version.first == 0 && std::any_of(g.hcaText.begin(), g.hcaText.end(), [](char c) { return !isDigit(c); })));
            if (const auto id = toNumber<long long>(g.hcaText, hexId ? 16 : 10))
                p.hca = static_cast<int>(*id & 0xffffffffLL); // the local id (a topology id keeps the system id in bits 56+)
            p.distanceName = pathName(version, g.oldForm, g.distance);
            p.limitName = pathName(version, g.oldForm, g.limit);
            if (!g.hcaName.empty() && p.hca >= 0)
                nic(h, p.hca, g.hcaName);
            out.gdrPaths.push_back(std::move(p));
        }
        // GPUDirect RDMA per NIC.
        for (auto& n : h.nics) {
            bool gpuEnabled = false;
            const NcclGdrPath* gpuDisabled = nullptr;
            for (const auto& p : out.gdrPaths) {
                if (p.hca != n.nic.index || n.nic.index < 0)
                    continue;
                if (p.enabled)
                    gpuEnabled = true;
                else if (!gpuDisabled)
                    gpuDisabled = &p;
            }
            if (gpuEnabled || n.chanGdr > 0) {
                n.nic.gdr = true;
            } else if (n.hcaDisabled) {
                n.nic.gdr = false;
                n.nic.gdrReason = n.hcaReason;
            } else if (gpuDisabled) {
                n.nic.gdr = false;
                if (!gpuDisabled->reason.empty())
                    n.nic.gdrReason = gpuDisabled->reason;
                else
                    n.nic.gdrReason = "too far from the GPUs in the PCI tree (distance " + std::to_string(gpuDisabled->distance.value_or(-1))
                        + (gpuDisabled->distanceName.empty() ? "" : " " + gpuDisabled->distanceName) + ", NCCL_NET_GDR_LEVEL "
                        + std::to_string(gpuDisabled->limit.value_or(-1)) + (gpuDisabled->limitName.empty() ? "" : " " + gpuDisabled->limitName) + ")";
            } else if (n.chanNoGdr > 0) {
                n.nic.gdr = false;
                n.nic.gdrReason = "its network connections run without GDRDMA (through host memory)";
            } else if (n.hcaEnabled) {
                n.nic.gdr = true;
            }
            out.nics.push_back(n.nic);
        }
        std::stable_sort(out.nics.begin(), out.nics.end(), [](const NcclNic& a, const NcclNic& b) {
            const int ai = a.index < 0 ? 1 << 30 : a.index;
            const int bi = b.index < 0 ? 1 << 30 : b.index;
            return ai < bi;
        });
        report.netChannelsGdr += out.netChannelsGdr;
        report.netChannelsNoGdr += out.netChannelsNoGdr;
        report.hosts.push_back(std::move(out));
    }
    // The union of NICs over hosts.
    std::map<std::string, std::size_t> byKey;
    for (const auto& h : report.hosts) {
        for (const auto& n : h.nics) {
            const std::string key = n.name.empty() ? "#" + std::to_string(n.index) : n.name + ":" + std::to_string(n.port);
            const auto it = byKey.find(key);
            if (it == byKey.end()) {
                byKey.emplace(key, report.nics.size());
                report.nics.push_back(n);
                continue;
            }
            NcclNic& u = report.nics[it->second];
            if (u.link.empty())
                u.link = n.link;
            if (!u.speedMbps)
                u.speedMbps = n.speedMbps;
            u.sharp = u.sharp || n.sharp;
            if (n.gdr == false && u.gdr != false) {
                u.gdr = false;
                u.gdrReason = n.gdrReason;
            } else if (n.gdr == true && !u.gdr) {
                u.gdr = true;
            }
        }
    }
    for (const auto& n : report.nics)
        if (n.sharp)
            report.topology.sharp = true;
}

void NcclLogParser::State::finishFindings()
{
    auto& findings = report.findings;
    const auto env = [&](const std::string& key) -> std::string {
        const auto it = report.env.find(key);
        return it == report.env.end() ? std::string() : it->second;
    };
    const std::string gdrLevel = env("NCCL_NET_GDR_LEVEL");
    // GPUDirect RDMA off for an HCA: no peermem, no dma-buf.
    for (std::size_t i = 0; i < report.hosts.size(); ++i) {
        const auto& h = report.hosts[i];
        std::map<std::string, std::vector<NcclNic>> byReason;
        for (const auto& n : hosts[i].nics) {
            if (!n.hcaDisabled || n.chanGdr > 0)
                continue;
            bool anyEnabled = false;
            for (const auto& p : h.gdrPaths)
                anyEnabled = anyEnabled || (p.enabled && p.hca == n.nic.index);
            if (!anyEnabled)
                byReason[n.hcaReason].push_back(n.nic);
        }
        for (const auto& [reason, nics] : byReason) {
            std::vector<std::string> labels;
            for (const auto& n : nics)
                labels.push_back(nicLabel(n));
            std::string message = "GPUDirect RDMA is disabled for " + plural(static_cast<long long>(nics.size()), "HCA", "HCAs") + " "
                + joinList(labels) + " on " + hostName(h.host) + ": " + reason + ". Every transfer between GPU memory and the network is "
                + "copied through host memory, which costs bandwidth and CPU time.";
            if (contains(reason, "neither") && h.dmaBuf == true)
                message += " The GPUs do offer dma-buf (the log says 'DMA-BUF is available'), so the HCA's verbs stack or the net plugin "
                           "did not accept dma-buf registration (rdma-core or MLNX_OFED too old?).";
            message += " Load nvidia-peermem (modprobe nvidia-peermem; nv_peer_mem on old MLNX_OFED) or use dma-buf (Linux 5.12 or later, "
                       "NVIDIA's open GPU kernel module, NCCL 2.13 or later), then check that the log says 'GPU Direct RDMA Enabled for HCA'. "
                       "NCCL counts the peer-memory module only when /sys/kernel/mm/memory_peers/nvidia-peermem/version (or nv_mem/version) "
                       "exists: a loaded nvidia-peermem without MLNX_OFED's peer-memory support, or a container that does not see the "
                       "host's /sys, does not count.";
            std::string part;
            if (nics.size() == 1)
                part = nics.front().name.empty() ? "HCA " + std::to_string(nics.front().index) : nics.front().name;
            findings.push_back({ core::Severity::Error, "NCCL_GDR_DISABLED", message, hostWhere(h.host, part) });
        }
        // GPU/HCA pairs disabled, for GPUs that have GPUDirect RDMA with no HCA at all.
        std::set<std::string> gpuWithGdr;
        for (const auto& p : h.gdrPaths)
            if (p.enabled)
                gpuWithGdr.insert(p.gpu);
        std::map<int, std::vector<const NcclGdrPath*>> byHca;
        for (const auto& p : h.gdrPaths)
            if (!p.enabled && !gpuWithGdr.contains(p.gpu))
                byHca[p.hca].push_back(&p);
        for (const auto& [hca, paths] : byHca) {
            const NcclNic* n = nullptr;
            for (const auto& x : h.nics)
                if (x.index == hca)
                    n = &x;
            const std::string hcaText = n && !n->name.empty() ? "HCA " + std::to_string(hca) + " (" + n->name + ")" : "HCA " + std::to_string(hca);
            std::vector<std::string> gpus;
            bool distance = false;
            std::string why;
            for (const auto* p : paths) {
                gpus.push_back(gpuLabel(*p));
                if (p->distance && p->limit) {
                    distance = true;
                    if (why.empty())
                        why = "distance " + std::to_string(*p->distance) + (p->distanceName.empty() ? "" : " (" + p->distanceName + ")")
                            + " against NCCL_NET_GDR_LEVEL " + std::to_string(*p->limit) + (p->limitName.empty() ? "" : " (" + p->limitName + ")");
                } else if (why.empty()) {
                    why = p->reason;
                }
            }
            std::string message = "GPUDirect RDMA is disabled for " + hcaText + " with " + joinList(gpus) + " on " + hostName(h.host) + ": ";
            if (distance) {
                message += std::string(paths.size() == 1 ? "the GPU and the NIC are" : "the GPUs and the NIC are")
                    + " too far apart in the PCI tree (" + why + "), so NCCL sends through host memory. ";
                if (!gdrLevel.empty())
                    message += "NCCL_NET_GDR_LEVEL is set to " + gdrLevel + " by the environment. ";
                message += "Put each GPU and its NIC under the same PCIe switch (see 'nvidia-smi topo -m'), or raise NCCL_NET_GDR_LEVEL "
                           "(PHB or SYS) where the platform handles peer-to-peer traffic across the CPU well.";
            } else {
                message += why + ". Load nvidia-peermem or use dma-buf, and check that the GPU supports GPUDirect RDMA.";
            }
            findings.push_back({ core::Severity::Error, "NCCL_GDR_DISABLED", message,
                hostWhere(h.host, n && !n->name.empty() ? n->name : "HCA " + std::to_string(hca)) });
        }
    }
    // Network connections without GDRDMA.
    for (std::size_t i = 0; i < report.hosts.size(); ++i) {
        const auto& h = report.hosts[i];
        const auto& acc = hosts[i];
        const int noGdr = h.netChannelsNoGdr - h.netChannelsSocket;
        if (noGdr > 0) {
            std::vector<std::string> via;
            for (const auto& [index, count] : acc.noGdrByNic) {
                (void)count;
                std::string label = "NET/" + (acc.netPlugin.empty() ? std::string("IB") : acc.netPlugin) + "/" + std::to_string(index);
                for (const auto& n : h.nics)
                    if (n.index == index && !n.name.empty())
                        label += " (" + n.name + ")";
                via.push_back(label);
            }
            const int total = h.netChannelsGdr + h.netChannelsNoGdr - h.netChannelsSocket;
            if (acc.noGdrRecv == 0 && acc.gdrRecv > 0) {
                // Only sends go without GDRDMA while receives use it: NCCL's GDR read is off (NCCL_NET_GDR_READ=0, or
                // its default on GPUs before Ampere without NVLink). Sends then read GPU memory through the CPU.
                findings.push_back({ core::Severity::Info, "NCCL_NET_NO_GDRDMA",
                    std::to_string(noGdr) + " of " + plural(total, "network connection", "network connections") + " on " + hostName(h.host)
                        + " are sends without GPUDirect RDMA while every receive uses it: NCCL's GPUDirect RDMA read is off ("
                        + (env("NCCL_NET_GDR_READ").empty() ? std::string("its default on GPUs before Ampere without NVLink")
                                                             : "NCCL_NET_GDR_READ=" + env("NCCL_NET_GDR_READ"))
                        + "), so sends read GPU memory through the CPU. Usually acceptable; NCCL_NET_GDR_READ=1 turns it on.",
                    h.host });
                continue;
            }
            findings.push_back({ core::Severity::Warning, "NCCL_NET_NO_GDRDMA",
                std::to_string(noGdr) + " of " + plural(total, "network connection", "network connections") + " on " + hostName(h.host)
                    + " run without GPUDirect RDMA (via " + joinList(via) + ", no '/GDRDMA'): GPU data is staged through host memory, which "
                    + "lowers bandwidth and loads the CPU and PCIe. The NCCL_GDR_DISABLED findings or the 'GPU Direct RDMA' lines say why; "
                    + "check nvidia-peermem or dma-buf, and NCCL_NET_GDR_LEVEL against the GPU-NIC distance in 'nvidia-smi topo -m'.",
                h.host });
        } else if (h.ringGdr == false && h.netChannelsGdr == 0) {
            findings.push_back({ core::Severity::Warning, "NCCL_NET_NO_GDRDMA",
                "NCCL reports 'use ring ... GDR 0' on " + hostName(h.host) + ": its ring connections over the network run without GPUDirect "
                    + "RDMA, staged through host memory. Check nvidia-peermem or dma-buf, and NCCL_NET_GDR_LEVEL.",
                h.host });
        }
    }
    // Completion errors, one finding per host, HCA, status and vendor error.
    {
        std::map<std::string, std::vector<const NcclError*>> groups;
        std::vector<std::string> order;
        for (const auto& e : report.errors) {
            const std::string key = e.host + "|" + e.hca + "|" + std::to_string(e.status) + "|" + (e.vendorErr ? std::to_string(*e.vendorErr) : "");
            if (!groups.contains(key))
                order.push_back(key);
            groups[key].push_back(&e);
        }
        for (const auto& key : order) {
            const auto& list = groups[key];
            const NcclError& e = *list.front();
            int count = 0;
            std::set<std::string> peers;
            for (const auto* x : list) {
                count += x->count;
                if (!x->peer.empty())
                    peers.insert(x->peer);
            }
            std::string message = plural(count, "completion error", "completion errors") + " on " + hostName(e.host)
                + (e.hca.empty() ? std::string() : ", HCA " + e.hca) + (e.direction.empty() ? std::string() : " (" + e.direction + ")")
                + (peers.empty() ? std::string() : " with peer " + joinList(std::vector<std::string>(peers.begin(), peers.end())))
                + ": NCCL's network transfers failed and the job stops or hangs. " + e.meaning + ".";
            if (!e.localGid.empty())
                message += " Local GID " + e.localGid + (e.remoteGid.empty() ? std::string() : ", remote GID " + e.remoteGid)
                    + ": check that both are of the same kind (RoCE v2, IPv4 or IPv6) and routable to each other"
                    + (report.gidIndex ? " (NCCL_IB_GID_INDEX " + std::to_string(*report.gidIndex) + ")" : std::string()) + ".";
            findings.push_back({ core::Severity::Error, "NCCL_IB_COMPLETION_ERROR", message, hostWhere(e.host, e.hca) });
        }
    }
    // Sockets instead of RDMA.
    for (std::size_t i = 0; i < report.hosts.size(); ++i) {
        const auto& h = report.hosts[i];
        if (h.netPlugin != "Socket" && h.netChannelsSocket == 0)
            continue;
        const bool noIb = hosts[i].noIbDevice;
        const bool oneNode = report.topology.nNodes == 1;
        std::string message = "NCCL uses TCP sockets on " + hostName(h.host)
            + (h.socketInterfaces.empty() ? std::string() : " (" + joinList(h.socketInterfaces) + ")")
            + " instead of InfiniBand or RoCE: no RDMA at all, so traffic between nodes runs at a fraction of the fabric's bandwidth. ";
        message += noIb ? "NCCL found no usable IB device ('NET/IB : No device found'): check that the HCAs are up (ibstat), that "
                          "libibverbs and the rdma-core provider are installed in the job's environment, and NCCL_IB_HCA."
                        : "Check NCCL_IB_DISABLE, NCCL_NET, NCCL_IB_HCA and that libibverbs is available in the job's environment.";
        findings.push_back({ oneNode ? core::Severity::Info : core::Severity::Warning, "NCCL_SOCKET_TRANSPORT", message, h.host });
    }
    // Rails.
    auto& t = report.topology;
    if (t.crossesRails == true) {
        findings.push_back({ core::Severity::Warning, "NCCL_RING_CROSSES_RAILS",
            std::to_string(t.crossRailPairs) + " of " + plural(t.crossRailPairs + t.sameRailPairs, "network connection", "network connections")
                + " seen at both ends leave on one rail's NIC and arrive on another rail's NIC: on a rail-optimised fabric that traffic "
                + "crosses the spine (or has no path at all on a rail-only fabric)."
                + (env("NCCL_CROSS_NIC").empty() ? std::string() : " NCCL_CROSS_NIC is " + env("NCCL_CROSS_NIC") + ".")
                + " NCCL_CROSS_NIC=0 keeps each ring on one rail; PXN (NCCL_PXN_DISABLE=0) moves data to the GPU of the right rail first.",
            "" });
    } else if (!t.crossesRails && t.netPeerOtherGpu > 0 && t.nNodes.value_or(2) > 1) {
        findings.push_back({ core::Severity::Info, "NCCL_CROSS_RAIL_LIKELY",
            std::to_string(t.netPeerOtherGpu) + " of " + plural(t.netPeerGpuKnown, "network connection", "network connections")
                + " join GPU i on one node to GPU j (j != i) on the other; where each GPU has its own rail NIC, such traffic leaves one rail "
                + "and arrives on another, crossing the spine. The log of one side cannot show the peer's NIC: give the logs of both "
                + "hosts to confirm."
                + (env("NCCL_CROSS_NIC").empty() ? std::string() : " NCCL_CROSS_NIC is set to " + env("NCCL_CROSS_NIC") + " by the environment.")
                + (t.pxn == false ? " PXN is off ('use ring PXN 0')." : ""),
            "" });
    }
    // Other WARN lines.
    {
        constexpr std::size_t kMax = 12;
        for (std::size_t i = 0; i < warns.size() && i < kMax; ++i) {
            const auto& w = warns[i];
            findings.push_back({ core::Severity::Warning, "NCCL_WARN",
                "NCCL warned on " + hostName(w.host) + (w.count > 1 ? " (" + std::to_string(w.count) + " times)" : std::string()) + ": "
                    + w.message + (w.source.empty() ? std::string() : " [" + w.source + "]"),
                w.host });
        }
        if (warns.size() > kMax)
            findings.push_back({ core::Severity::Warning, "NCCL_WARN",
                std::to_string(warns.size() - kMax) + " more distinct NCCL WARN messages are in the log (the first " + std::to_string(kMax)
                    + " are listed)",
                "" });
    }
    // Communicators that never finished init.
    if (report.initStarted > report.initCompleted) {
        findings.push_back({ core::Severity::Warning, "NCCL_INIT_INCOMPLETE",
            std::to_string(report.initStarted - report.initCompleted) + " of "
                + plural(report.initStarted, "communicator initialisation", "communicator initialisations")
                + " that the log shows starting ('Init START') never logged 'Init COMPLETE': initialisation hung or failed, or the log ends early.",
            "" });
    }
}

void NcclLogParser::State::releaseHeld(const std::string& host)
{
    const auto line = std::move(*held);
    held.reset();
    auto head = readHead(line.first);
    if (!host.empty())
        head->host = host;
    process(*head, line.first, line.second);
}

NcclLogReport NcclLogParser::State::finish()
{
    if (held)
        releaseHeld({});
    if (lastCut) {
        if (lastCutAt == lineNumber)
            warn("the last line " + std::to_string(lastCut->first) + " " + quoteLine(lastCut->second) + " is cut; what it would say is not used");
        else
            warn("line " + std::to_string(lastCut->first) + " " + quoteLine(lastCut->second)
                + " is cut short (two processes writing at once?); what it would say is not used");
    }
    if (splitLines > 0)
        warn(plural(splitLines, "line holds", "lines hold") + " two NCCL messages run together; each message is read on its own");
    if (report.otherLines > 0)
        warn("read over " + plural(report.otherLines, "line that is", "lines that are") + " not NCCL's (nccl-tests, MPI or application output)");
    for (const auto& [key, values] : envConflicts)
        warn(key + " differs between processes: " + report.env[key] + " and " + joinList(std::vector<std::string>(values.begin(), values.end()))
            + "; " + report.env[key] + " is reported");
    // Environment-derived values.
    auto envInt = [&](const char* key) -> std::optional<int> {
        const auto it = report.env.find(key);
        return it == report.env.end() ? std::nullopt : toNumber<int>(it->second);
    };
    report.gidIndex = envInt("NCCL_IB_GID_INDEX");
    if (!report.gidIndex)
        report.gidIndex = qpGid;
    report.trafficClass = envInt("NCCL_IB_TC");
    report.serviceLevel = envInt("NCCL_IB_SL");
    auto& t = report.topology;
    t.communicators = static_cast<int>(commIds.size());
    if (const auto it = report.env.find("NCCL_ALGO"); it != report.env.end())
        t.algorithm = it->second;
    if (const auto it = report.env.find("NCCL_PROTO"); it != report.env.end())
        t.protocol = it->second;
    t.crossNic = envInt("NCCL_CROSS_NIC");
    if (!t.crossNic)
        t.crossNic = crossNicPattern;
    if (nvlsConnected || t.nvlsChannels.value_or(0) > 0)
        t.nvls = true;
    else if (envInt("NCCL_NVLS_ENABLE") == 0 || nvlsNotAvailable || t.nvlsChannels == 0)
        t.nvls = false;
    else if (nvlsAvailable)
        t.nvls = true;
    if (collnetConnected)
        t.collnet = true;
    else if (collnetDisabled || envInt("NCCL_COLLNET_ENABLE") == 0)
        t.collnet = false;
    // The held first line was read last: put what came of it in line order.
    std::stable_sort(warns.begin(), warns.end(), [](const WarnSummary& a, const WarnSummary& b) { return a.firstLine < b.firstLine; });
    std::stable_sort(report.errors.begin(), report.errors.end(), [](const NcclError& a, const NcclError& b) { return a.lineNumber < b.lineNumber; });
    finishHosts();
    // Rails: connections seen at both ends.
    for (const auto& [key, c] : conns) {
        (void)key;
        if (!c.send || !c.recv || c.send->first == c.recv->first)
            continue;
        auto name = [&](std::pair<std::size_t, int> end) -> std::string {
            for (const auto& n : report.hosts[end.first].nics)
                if (n.index == end.second && !n.name.empty())
                    return n.name;
            return {};
        };
        const auto a = name(*c.send);
        const auto b = name(*c.recv);
        const bool same = !a.empty() && !b.empty() ? a == b : c.send->second == c.recv->second;
        ++(same ? t.sameRailPairs : t.crossRailPairs);
    }
    if (t.sameRailPairs + t.crossRailPairs > 0)
        t.crossesRails = t.crossRailPairs > 0;
    if (netDevLines > 0 && netDevSmall == netDevLines) {
        t.netPeerGpuKnown = netDevSmall;
        t.netPeerOtherGpu = netDevOther;
    }
    finishFindings();
    return std::move(report);
}

// -------------------------------------------------------------------------------------------
// Public API

bool NcclLogReport::complete() const { return initCompleted > 0 && initStarted <= initCompleted && errors.empty(); }

NcclLogParser::NcclLogParser()
    : m_state(std::make_unique<State>())
{
}
NcclLogParser::~NcclLogParser() = default;
NcclLogParser::NcclLogParser(NcclLogParser&&) noexcept = default;
NcclLogParser& NcclLogParser::operator=(NcclLogParser&&) noexcept = default;

void NcclLogParser::feed(std::string_view line)
{
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    const int number = ++m_state->lineNumber;
    m_state->feedLine(line, number);
}

bool NcclLogParser::recognised() const { return m_state->recognised; }

NcclLogReport NcclLogParser::finish() { return m_state->finish(); }

core::Result<NcclLogReport> parseNcclLog(std::string_view text)
{
    NcclLogParser parser;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        parser.feed(text.substr(pos, end - pos));
        pos = end + 1;
    }
    if (!parser.recognised()) {
        core::Error e;
        e.code = "TOOL_OUTPUT";
        e.message = std::string(kTool) + ": no NCCL log line in the input (none reads \"host:pid:tid [dev] NCCL INFO ...\" or \"NCCL WARN\")";
        e.hint = "give the output of a run with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET shows the network part)";
        return e;
    }
    return parser.finish();
}

// -------------------------------------------------------------------------------------------
// JSON

namespace {

    using nlohmann::json;

    template <class T>
    json opt(const std::optional<T>& v)
    {
        return v ? json(*v) : json(nullptr);
    }

    /// Strings the log does not give are left out (readers use json::value(key, default)).
    void putString(json& j, const char* key, const std::string& value)
    {
        if (!value.empty())
            j[key] = value;
    }

    json nicJson(const NcclNic& n)
    {
        json out { { "port", n.port }, { "gdr", opt(n.gdr) }, { "index", n.index < 0 ? json(nullptr) : json(n.index) } };
        putString(out, "name", n.name);
        putString(out, "link", n.link);
        if (!n.gdrReason.empty())
            out["gdr_reason"] = n.gdrReason;
        if (n.speedMbps)
            out["speed_mbps"] = *n.speedMbps;
        if (n.rail)
            out["rail"] = *n.rail;
        if (n.sharp)
            out["sharp"] = true;
        return out;
    }

} // namespace

nlohmann::json toJson(const NcclLogReport& r)
{
    json doc;
    doc["tool"] = "nccl";
    putString(doc, "version", r.version);
    putString(doc, "cuda", r.cuda);
    doc["complete"] = r.complete();
    doc["nics"] = json::array();
    for (const auto& n : r.nics)
        doc["nics"].push_back(nicJson(n));
    doc["channels"] = { { "net_gdrdma", r.netChannelsGdr }, { "net_no_gdrdma", r.netChannelsNoGdr } };
    doc["gid_index"] = opt(r.gidIndex);
    doc["traffic_class"] = opt(r.trafficClass);
    doc["service_level"] = opt(r.serviceLevel);
    putString(doc, "net_plugin", r.netPlugin);
    doc["plugins"] = r.pluginsLoaded;
    doc["env"] = json::object();
    for (const auto& [k, v] : r.env)
        doc["env"][k] = v;
    const auto& t = r.topology;
    doc["topology"] = { { "n_ranks", opt(t.nRanks) }, { "n_nodes", opt(t.nNodes) }, { "local_ranks", opt(t.localRanks) },
        { "communicators", t.communicators }, { "nvls", opt(t.nvls) }, { "nvls_channels", opt(t.nvlsChannels) },
        { "coll_channels", opt(t.collChannels) }, { "p2p_channels", opt(t.p2pChannels) }, { "collnet", opt(t.collnet) },
        { "sharp", t.sharp }, { "trees", t.trees }, { "ring_channels", opt(t.ringChannels) },
        { "pxn", opt(t.pxn) }, { "cross_nic", opt(t.crossNic) }, { "crosses_rails", opt(t.crossesRails) },
        { "cross_rail_pairs", t.crossRailPairs }, { "same_rail_pairs", t.sameRailPairs }, { "net_peer_other_gpu", t.netPeerOtherGpu },
        { "net_peer_gpu_known", t.netPeerGpuKnown } };
    putString(doc["topology"], "algorithm", t.algorithm);
    putString(doc["topology"], "protocol", t.protocol);
    doc["init"] = { { "started", r.initStarted }, { "completed", r.initCompleted } };
    doc["errors"] = json::array();
    for (const auto& e : r.errors) {
        json j { { "status", e.status }, { "status_name", e.statusName }, { "vendor_err", opt(e.vendorErr) },
            { "vendor_err_hex", e.vendorErr ? json(hex(*e.vendorErr)) : json(nullptr) }, { "opcode", opt(e.opcode) },
            { "host", e.host }, { "peer", e.peer }, { "direction", e.direction },
            { "local_gid", e.localGid }, { "remote_gid", e.remoteGid }, { "count", e.count }, { "line", e.line },
            { "line_number", e.lineNumber }, { "meaning", e.meaning } };
        putString(j, "hca", e.hca);
        doc["errors"].push_back(std::move(j));
    }
    doc["hints"] = r.hints;
    doc["findings"] = json::array();
    for (const auto& f : r.findings)
        doc["findings"].push_back(
            core::toJson(f));
    doc["warnings"] = r.warnings;
    doc["hosts"] = json::array();
    for (const auto& h : r.hosts) {
        json j;
        j["host"] = h.host;
        j["ranks"] = h.ranks;
        j["gpus"] = h.gpus;
        j["nics"] = json::array();
        for (const auto& n : h.nics)
            j["nics"].push_back(nicJson(n));
        j["channels"] = { { "net_gdrdma", h.netChannelsGdr }, { "net_no_gdrdma", h.netChannelsNoGdr }, { "net_socket", h.netChannelsSocket } };
        j["gdr_paths"] = json::array();
        for (const auto& p : h.gdrPaths) {
            json pj { { "gpu", p.gpu }, { "gpu_is_rank", p.gpuIsRank }, { "hca", p.hca }, { "enabled", p.enabled },
                { "distance", opt(p.distance) }, { "limit", opt(p.limit) } };
            if (!p.distanceName.empty())
                pj["distance_name"] = p.distanceName;
            if (!p.limitName.empty())
                pj["limit_name"] = p.limitName;
            if (!p.reason.empty())
                pj["reason"] = p.reason;
            j["gdr_paths"].push_back(std::move(pj));
        }
        j["dmabuf"] = opt(h.dmaBuf);
        j["peermem"] = opt(h.peermem);
        putString(j, "net_plugin", h.netPlugin);
        putString(j, "oob", h.oob);
        j["socket_interfaces"] = h.socketInterfaces;
        j["ring_gdr"] = opt(h.ringGdr);
        j["ring_pxn"] = opt(h.ringPxn);
        doc["hosts"].push_back(std::move(j));
    }
    // The log's text as it came: made valid UTF-8 so that the document always dumps.
    return withValidUtf8(std::move(doc));
}

} // namespace railyard::live
