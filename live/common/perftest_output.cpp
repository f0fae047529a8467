// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The perftest output reader. First the line classes (what perftest prints, from perftest's
// perftest_parameters.c / perftest_resources.c / *_bw.c / *_lat.c formats), then the per-run
// state, then the routing of lines to runs (one process or several in one log), then the findings
// and the JSON. The rules are stated in perftest_output.h.
#include "live/common/perftest_output.h"
#include "live/common/text_scan.h"

#include "live/common/ibv_wc_status.h"

#include "core/plan_json.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <set>
#include <utility>

namespace railyard::live {

namespace {

    using namespace text;

    // ---------------------------------------------------------------------------------------
    // Text helpers

    bool containsNoCase(std::string_view s, std::string_view part)
    {
        for (std::size_t i = 0; i + part.size() <= s.size(); ++i)
            if (core::startsWithIgnoreCase(s.substr(i), part))
                return true;
        return false;
    }

    /// "Number  of qps" -> "Number of qps".
    std::string collapseSpaces(std::string_view s)
    {
        std::string out;
        for (const auto word : splitWs(s)) {
            if (!out.empty())
                out += ' ';
            out += word;
        }
        return out;
    }

    /// The leading decimal digits of "4096[B]" -> 4096.
    std::optional<int> leadingInt(std::string_view s)
    {
        s = trim(s);
        std::size_t n = 0;
        while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n])) != 0)
            ++n;
        return n == 0 ? std::nullopt : toNumber<int>(s.substr(0, n));
    }

    /// A figure as printf("%.Nf") prints it: digits, '.', N digits (N = `decimals`, -1 without '.').
    struct Printed {
        double value = 0;
        int decimals = -1;
    };

    std::optional<Printed> printedNumber(std::string_view s)
    {
        if (s.empty())
            return std::nullopt;
        std::size_t i = s.front() == '-' ? 1 : 0;
        const std::size_t digitsStart = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0)
            ++i;
        if (i == digitsStart)
            return std::nullopt;
        Printed p;
        if (i < s.size()) {
            if (s[i] != '.')
                return std::nullopt;
            const std::size_t dot = i++;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0)
                ++i;
            if (i != s.size())
                return std::nullopt;
            p.decimals = static_cast<int>(i - dot - 1);
        }
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), p.value);
        if (ec != std::errc {} || end != s.data() + s.size())
            return std::nullopt;
        return p;
    }

    /// Without the line end and without terminal colour sequences ("\x1b[31m").
    std::string cleanLine(std::string_view raw)
    {
        while (!raw.empty() && (raw.back() == '\n' || raw.back() == '\r'))
            raw.remove_suffix(1);
        std::string out;
        out.reserve(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
                std::size_t j = i + 2;
                while (j < raw.size() && std::isalpha(static_cast<unsigned char>(raw[j])) == 0)
                    ++j;
                i = j;
                continue;
            }
            out += raw[i];
        }
        return out;
    }

    /// perftest's RESULT_LINE is 87 dashes (the per-port one 163).
    constexpr std::size_t kResultLineLength = 87;

    bool isDashLine(std::string_view t, std::size_t minimum)
    {
        return t.size() >= minimum && std::all_of(t.begin(), t.end(), [](char c) { return c == '-'; });
    }

    // ---------------------------------------------------------------------------------------
    // The command line ("$ ib_write_bw -d mlx5_0 host")

    const std::set<std::string, std::less<>>& perftestTools()
    {
        static const std::set<std::string, std::less<>> tools { "ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat",
            "ib_send_bw", "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat", "raw_ethernet_bw", "raw_ethernet_lat",
            "raw_ethernet_burst_lat", "raw_ethernet_fs_rate" };
        return tools;
    }

    // perftest_parameters.c: the getopt_long option string and the long options with has_arg = 1.
    constexpr std::string_view kShortWithArg = "wypdimsntuSxcqIoMrQAlDfBTLEJjKkXW";

    const std::set<std::string, std::less<>>& longOptionsWithArg()
    {
        static const std::set<std::string, std::less<>> names { "port", "ib-dev", "ib-port", "mtu", "size", "iters", "tx-depth",
            "qp-timeout", "sl", "gid-index", "connection", "qp", "vector", "inline_size", "outs", "tos", "hop_limit", "MGID",
            "rx-depth", "cq-mod", "atomic_type", "post_list", "duration", "margin", "source_mac", "dest_mac", "dest_ip",
            "source_ip", "dest_port", "source_port", "ethertype", "limit_bw", "limit_msgrate", "report-counters", "force-link",
            "remote_mac", "local_mac", "remote_ip", "local_ip", "remote_port", "local_port", "pkey_index", "burst_size",
            "typical_pkt_size", "rate_limit", "rate_limit_type", "rate_units", "output", "out_json_file", "latency_gap",
            "flow_label", "retry_count", "payload_file_path", "use_cuda", "use_cuda_bus_id", "cuda_mem_type", "use_musa",
            "use_musa_bus_id", "use_rocm", "use_neuron", "use_hl", "use_mlu", "use_opencl", "opencl_platform_id",
            "use_ib_dm_dmabuf", "gpu_touch", "mmap", "mmap-offset", "dlid", "tclass", "wait_destroy", "flows", "flows_burst",
            "reply_every", "vlan_pcp", "recv_post_list", "log_dci_streams", "log_active_dci_streams", "congest_type",
            "bind_source_ip", "cqe_poll", "tph_mem", "cpu_id", "ph", "pin_cores", "numa_node" };
        return names;
    }

    struct CommandInfo {
        std::string text; ///< the invocation, from the tool's name on
        std::string tool;
        std::optional<std::string> host;
        std::string role; ///< "client" (-P) or "server" (-Z)
        bool bidirectional = false;
        bool cycles = false;
        GpuMemory gpuMemory = GpuMemory::Host;
        bool gpuDmabuf = false;
        bool rdmaCm = false;
        bool redirected = false; ///< its stdout goes elsewhere ("> /dev/null")
        std::optional<int> gpuDevice, ibPort, gidIndex, qps;
        std::string device;
    };

    bool isSeparator(std::string_view t) { return t == ";" || t == "&&" || t == "||" || t == "|" || t == "&" || t == "(" || t == ")"; }

    /// Shell words: whitespace-separated, with ; ( ) | & as words of their own, quotes removed, and
    /// redirections ("2>&1", ">>") kept whole.
    std::vector<std::string> shellWords(std::string_view s)
    {
        std::vector<std::string> out;
        std::string cur;
        const auto flush = [&] {
            if (!cur.empty())
                out.push_back(std::move(cur));
            cur.clear();
        };
        for (std::size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (isSpace(c)) {
                flush();
            } else if (c == '\'' || c == '"') {
                auto j = s.find(c, i + 1);
                if (j == std::string_view::npos)
                    j = s.size();
                cur += s.substr(i + 1, j - i - 1);
                i = j;
            } else if (c == '>' && !cur.empty() && cur.front() == '<' && cur.find('>') == std::string::npos) {
                cur += c; // a documentation placeholder such as "<RDMA-NIC-2>"
            } else if (c == '>') {
                if (!cur.empty() && !allDigits(cur) && cur != "&")
                    flush();
                cur += c;
            } else if (c == '&' && !cur.empty() && cur.back() == '>') {
                cur += c; // "2>&1"
            } else if (c == '&' && i + 1 < s.size() && s[i + 1] == '>') {
                flush();
                cur += c; // "&> file"
            } else if (c == ';' || c == '(' || c == ')' || c == '|' || c == '&') {
                flush();
                std::string op(1, c);
                if ((c == '|' || c == '&') && i + 1 < s.size() && s[i + 1] == c) {
                    op += c;
                    ++i;
                }
                out.push_back(op);
            } else {
                cur += c;
            }
        }
        flush();
        return out;
    }

    std::string_view basename(std::string_view word)
    {
        const auto slash = word.rfind('/');
        return slash == std::string_view::npos ? word : word.substr(slash + 1);
    }

    void applyShortOption(CommandInfo& cmd, char c, const std::string& value)
    {
        switch (c) {
        case 'b': cmd.bidirectional = true; break;
        case 'C': cmd.cycles = true; break;
        case 'R':
        case 'z': cmd.rdmaCm = true; break;
        case 'P': cmd.role = "client"; break;
        case 'Z': cmd.role = "server"; break;
        case 'd': cmd.device = value; break;
        case 'i': cmd.ibPort = leadingInt(value); break;
        case 'x': cmd.gidIndex = leadingInt(value); break;
        case 'q': cmd.qps = leadingInt(value); break;
        default: break;
        }
    }

    /// The memory type a long option asks for (perftest_parameters.c: --use_cuda, --use_cuda_bus_id,
    /// --use_cuda_dmabuf, --use_rocm, --use_rocm_dmabuf, --use_musa, ...).
    std::optional<GpuMemory> memoryOfOption(std::string_view name)
    {
        static constexpr std::pair<std::string_view, GpuMemory> kOptions[] = { { "use_cuda", GpuMemory::Cuda },
            { "use_rocm", GpuMemory::Rocm }, { "use_musa", GpuMemory::Musa }, { "use_mlu", GpuMemory::Mlu },
            { "use_neuron", GpuMemory::Neuron }, { "use_hl", GpuMemory::Gaudi }, { "use_opencl", GpuMemory::OpenCl } };
        for (const auto& [option, memory] : kOptions)
            if (name == option || (startsWith(name, option) && name[option.size()] == '_'))
                return memory;
        return std::nullopt;
    }

    void applyLongOption(CommandInfo& cmd, std::string_view name, const std::optional<std::string>& value)
    {
        const std::string v = value.value_or("");
        if (name == "bidirectional")
            cmd.bidirectional = true;
        else if (name == "report-cycles")
            cmd.cycles = true;
        else if (name == "rdma_cm" || name == "comm_rdma_cm")
            cmd.rdmaCm = true;
        else if (name == "client")
            cmd.role = "client";
        else if (name == "server")
            cmd.role = "server";
        else if (name == "ib-dev")
            cmd.device = v;
        else if (name == "ib-port")
            cmd.ibPort = leadingInt(v);
        else if (name == "gid-index")
            cmd.gidIndex = leadingInt(v);
        else if (name == "qp")
            cmd.qps = leadingInt(v);
        else if (const std::optional<GpuMemory> memory = memoryOfOption(name)) {
            cmd.gpuMemory = *memory;
            // --use_cuda=N, --use_rocm=N, --use_musa=N, --use_mlu=N, --use_opencl=N: the device's
            // index (--use_hl takes a PCI address, --use_cuda_bus_id a bus id).
            if (value && name.find('_', 4) == std::string_view::npos && name != "use_hl")
                cmd.gpuDevice = leadingInt(v);
            cmd.gpuDmabuf = cmd.gpuDmabuf || name.find("dmabuf") != std::string_view::npos;
        }
    }

    /// "> f", ">> f", "1> f", "&> f": stdout goes to f (`away`); "2> f", "2>&1", ">&2" keep stdout here.
    bool isRedirection(std::string_view word, bool& targetFollows, bool& away)
    {
        const auto gt = word.find('>');
        if (gt == std::string_view::npos)
            return false;
        const std::string_view fd = word.substr(0, gt);
        if (!(fd.empty() || allDigits(fd) || fd == "&"))
            return false;
        std::string_view target = word.substr(gt);
        while (!target.empty() && target.front() == '>')
            target.remove_prefix(1);
        targetFollows = target.empty();
        const bool stdoutFd = fd.empty() || fd == "1" || fd == "&";
        away = stdoutFd && !startsWith(target, "&");
        return true;
    }

    /// Whether a word of `line`, as shellWords() cuts it, can name a perftest tool: a word is the
    /// line's characters less the quotes around its quoted parts, so a tool's name in a word is in
    /// the line once every quote character is taken out. Most lines of the output name none, and
    /// are then not cut into words at all.
    bool mayNameTool(std::string_view line)
    {
        std::string bare;
        if (line.find_first_of("'\"") != std::string_view::npos) {
            std::copy_if(line.begin(), line.end(), std::back_inserter(bare), [](char c) { return c != '\'' && c != '"'; });
            line = bare;
        }
        return std::any_of(perftestTools().begin(), perftestTools().end(),
            [line](const std::string& tool) { return line.find(tool) != std::string_view::npos; });
    }

    /// The perftest invocation of a command line, when the line is one: the tool's name in command
    /// position (the line's first word, the first after a prompt "...$ " / "...# " / "+ ", or after
    /// a separator; wrappers such as sudo, time, env, VAR=value keep the position, launchers such as
    /// mpirun, srun, ssh, numactl carry it to the tool's name). A line starting with '#' is a root
    /// prompt only when its first word is the tool ("# ib_write_bw ..."); any other is a comment.
    /// Of several invocations, the last whose stdout is not redirected away.
    std::optional<CommandInfo> parseCommand(std::string_view line)
    {
        if (!mayNameTool(line))
            return std::nullopt;
        const auto words = shellWords(line);
        static const std::set<std::string, std::less<>> wrappers { "sudo", "time", "exec", "env", "nohup", "command", "builtin" };
        static const std::set<std::string, std::less<>> launchers { "mpirun", "mpiexec", "srun", "ssh", "numactl", "taskset",
            "timeout", "stdbuf", "chrt", "nice", "ionice", "pdsh", "clush", "docker", "kubectl", "podman" };
        const bool hashLine = !line.empty() && line.front() == '#';
        std::vector<CommandInfo> found;
        bool position = true;  // the next word is in command position
        bool launcher = false; // a launcher's words until the tool's name
        bool wrapped = false;  // after a wrapper: its options keep the position
        for (std::size_t i = 0; i < words.size(); ++i) {
            const std::string& w = words[i];
            if (!perftestTools().contains(basename(w))) {
                if (isSeparator(w) || w.back() == '$' || (w.back() == '#' && !hashLine) || w.back() == '%' || w == "+" || w == "++"
                    || (hashLine && i == 0 && w == "#")) {
                    position = true;
                    launcher = wrapped = false;
                } else if (position && (wrappers.contains(w) || w.find('=') != std::string::npos || (wrapped && w.front() == '-'))) {
                    wrapped = wrappers.contains(w) || (wrapped && w.front() == '-');
                } else if (position && launchers.contains(basename(w))) {
                    launcher = true;
                } else if (!launcher) {
                    if (hashLine && position)
                        return std::nullopt; // "# source: ...": a comment
                    position = wrapped = false;
                }
                continue;
            }
            if (!position && !launcher)
                continue;
            CommandInfo cmd;
            cmd.tool = std::string(basename(w));
            cmd.text = cmd.tool;
            int positionals = 0;
            std::size_t k = i + 1;
            for (; k < words.size() && !isSeparator(words[k]); ++k) {
                const std::string& t = words[k];
                cmd.text += ' ' + t;
                bool targetFollows = false;
                bool away = false;
                if (isRedirection(t, targetFollows, away)) {
                    cmd.redirected = cmd.redirected || away;
                    if (targetFollows && k + 1 < words.size() && !isSeparator(words[k + 1]))
                        cmd.text += ' ' + words[++k];
                    continue;
                }
                if (t.size() > 1 && t.front() == '-') {
                    const bool dashDash = startsWith(t, "--");
                    const std::string body = t.substr(dashDash ? 2 : 1);
                    const auto eq = body.find('=');
                    const std::string name = body.substr(0, eq);
                    // getopt_long_only-like leniency: "-use_rocm=0" is the long option.
                    const bool isLong = dashDash || eq != std::string::npos || (name.size() > 1 && longOptionsWithArg().contains(name));
                    if (isLong) {
                        std::optional<std::string> value;
                        if (eq != std::string::npos)
                            value = body.substr(eq + 1);
                        else if (longOptionsWithArg().contains(name) && k + 1 < words.size() && !isSeparator(words[k + 1]))
                            value = words[++k], cmd.text += ' ' + *value;
                        applyLongOption(cmd, name, value);
                    } else {
                        for (std::size_t p = 1; p < t.size(); ++p) {
                            if (kShortWithArg.find(t[p]) != std::string_view::npos) {
                                std::string value = t.substr(p + 1);
                                if (value.empty() && k + 1 < words.size() && !isSeparator(words[k + 1]))
                                    value = words[++k], cmd.text += ' ' + value;
                                applyShortOption(cmd, t[p], value);
                                break;
                            }
                            applyShortOption(cmd, t[p], {});
                        }
                    }
                    continue;
                }
                ++positionals;
                if (!cmd.host)
                    cmd.host = t;
            }
            // A bare line starting with the tool's name is a command only when it reads like one
            // (perftest's usage text has "ib_write_bw <host>     connect to server at <host>").
            const bool bare = i == 0 && !hashLine;
            if (bare && (positionals > 1 || (cmd.host && cmd.host->find('<') != std::string::npos)))
                continue;
            found.push_back(std::move(cmd));
            i = k; // the separator (or the end)
            position = true;
            launcher = wrapped = false;
        }
        if (found.empty())
            return std::nullopt;
        for (auto it = found.rbegin(); it != found.rend(); ++it)
            if (!it->redirected)
                return *it;
        return found.back();
    }

    // ---------------------------------------------------------------------------------------
    // Banner, settings, addresses

    struct Banner {
        std::string verb; ///< "RDMA_Write", "Send", "RDMA_Read", "Atomic", ...
        bool bw = false;
        bool latency = false;
        bool bidirectional = false;
    };

    /// ctx_print_test_info: "<verb> [atomic type] [Bidirectional] [Post List] BW|Latency [forwarding] [Multicast] Test".
    std::optional<Banner> parseBanner(std::string_view t)
    {
        const auto words = splitWs(t);
        if (words.size() < 3 || words.back() != "Test")
            return std::nullopt;
        static const std::set<std::string, std::less<>> verbs { "Send", "Send_imm", "RDMA_Write", "RDMA_Write_imm", "RDMA_Read",
            "Atomic" };
        if (!verbs.contains(words.front()))
            return std::nullopt;
        Banner b;
        b.verb = std::string(words.front());
        for (const auto w : words) {
            b.bw = b.bw || w == "BW";
            b.latency = b.latency || w == "Latency";
            b.bidirectional = b.bidirectional || w == "Bidirectional";
        }
        if (!b.bw && !b.latency)
            return std::nullopt;
        return b;
    }

    std::string toolOfBanner(const Banner& b, std::string_view connection)
    {
        const std::string kind = b.bw ? "bw" : "lat";
        if (connection == "RawEth")
            return "raw_ethernet_" + kind;
        std::string verb = "send";
        if (startsWith(b.verb, "RDMA_Write"))
            verb = "write";
        else if (b.verb == "RDMA_Read")
            verb = "read";
        else if (b.verb == "Atomic")
            verb = "atomic";
        return "ib_" + verb + "_" + kind;
    }

    const std::set<std::string, std::less<>>& settingKeys()
    {
        static const std::set<std::string, std::less<>> keys { "Dual-port", "Device", "Number of qps", "Transport type",
            "Connection type", "Using SRQ", "PCIe relax order", "Lock-free", "ibv_wr* API", "Using DDP", "Using Enhanced Reorder",
            "TX depth", "RX depth", "Post List", "Recv Post List", "CQ Moderation", "CQE Poll Batch", "Mtu", "Link type",
            "Buffer size", "GID index", "GID index2", "Max inline data", "Outstand reads", "rdma_cm QPs", "Use ROCm memory",
            "Use MUSA memory", "Data ex. method", "TOS", "NUMA node", "DCS num streams", "DCS active num streams",
            "Number of data encryption keys", "Block Size" };
        return keys;
    }

    using Settings = std::vector<std::pair<std::string, std::string>>;

    /// " Dual-port       : OFF\t\tDevice         : mlx5_1" -> {Dual-port: OFF, Device: mlx5_1}. Values are one
    /// word, except the last of the line. Empty unless the first key is one perftest prints.
    Settings parseSettings(std::string_view t)
    {
        std::vector<std::string_view> parts;
        std::size_t start = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (t[i] == ':') {
                parts.push_back(t.substr(start, i - start));
                start = i + 1;
            }
        }
        parts.push_back(t.substr(start));
        Settings out;
        if (parts.size() < 2)
            return out;
        std::string key = collapseSpaces(parts[0]);
        if (!settingKeys().contains(key))
            return out;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            const std::string_view seg = trim(parts[i]);
            if (i + 1 == parts.size()) {
                out.emplace_back(key, std::string(seg));
                break;
            }
            const auto words = splitWs(seg);
            if (words.empty())
                break;
            out.emplace_back(key, std::string(words.front()));
            key = collapseSpaces(seg.substr(static_cast<std::size_t>(words.front().data() + words.front().size() - seg.data())));
            if (key.empty())
                break;
        }
        return out;
    }

    /// " local address: LID 0xd06 QPN 0x095f PSN 0x3c9e82 [OUT 0x10] RKey 0x080359 VAddr 0x007f9fc479c000".
    std::optional<std::pair<bool, PerftestEndpoint>> parseAddress(std::string_view t)
    {
        bool local = false;
        if (core::startsWithIgnoreCase(t, "local address:"))
            local = true;
        else if (!core::startsWithIgnoreCase(t, "remote address:"))
            return std::nullopt;
        PerftestEndpoint e;
        const auto words = splitWs(t.substr(t.find(':') + 1));
        for (std::size_t i = 0; i + 1 < words.size(); ++i) {
            const auto key = words[i];
            std::string* field = nullptr;
            if (key == "LID")
                field = &e.lid;
            else if (key == "QPN")
                field = &e.qpn;
            else if (key == "PSN")
                field = &e.psn;
            else if (key == "RKey")
                field = &e.rkey;
            else if (key == "VAddr")
                field = &e.vaddr;
            else if (key == "OUT")
                field = &e.outReads;
            else if (key == "GID:" || key == "GID")
                field = &e.gid;
            if (field) {
                *field = std::string(words[i + 1]);
                ++i;
            }
        }
        return std::pair { local, e };
    }

    // ---------------------------------------------------------------------------------------
    // Results tables

    enum class Col { Bytes, Sl, Iterations, BwPeak, BwAvg, MsgRate, BwPort1, MsgRatePort1, BwPort2, MsgRatePort2, CpuUtil, TMin,
        TMax, TTypical, TAvg, TStdev, P99, P999, Tps };

    struct ColumnDef {
        std::string_view label;
        Col col;
    };

    // RESULT_FMT*, RESULT_FMT_LAT*, RESULT_EXT_CPU_UTIL.
    constexpr ColumnDef kColumns[] = { { "#bytes", Col::Bytes }, { "#sl", Col::Sl }, { "#iterations", Col::Iterations },
        { "BW peak[", Col::BwPeak }, { "BW average[", Col::BwAvg }, { "MsgRate[", Col::MsgRate }, { "BW Port1[", Col::BwPort1 },
        { "MsgRate Port1[", Col::MsgRatePort1 }, { "BW Port2[", Col::BwPort2 }, { "MsgRate Port2[", Col::MsgRatePort2 },
        { "CPU_Util[", Col::CpuUtil }, { "t_min[", Col::TMin }, { "t_max[", Col::TMax }, { "t_typical[", Col::TTypical },
        { "t_avg[", Col::TAvg }, { "t_stdev[", Col::TStdev }, { "99% percentile[", Col::P99 }, { "99.9% percentile[", Col::P999 },
        { "tps average", Col::Tps } };

    bool isBandwidthCol(Col c) { return c == Col::BwPeak || c == Col::BwAvg || c == Col::BwPort1 || c == Col::BwPort2; }
    bool isRateCol(Col c) { return c == Col::MsgRate || c == Col::MsgRatePort1 || c == Col::MsgRatePort2; }
    bool isIntegerCol(Col c) { return c == Col::Bytes || c == Col::Sl || c == Col::Iterations; }
    bool isLatencyCol(Col c) { return c >= Col::TMin; }

    /// Whether a figure has the decimals perftest prints in that column: REPORT_FMT "%.2lf" for
    /// bandwidths (REPORT_FMT_EXT "%.6lf" for small Gb/s figures), "%.6lf" for message rates,
    /// "%.2f" for latencies and CPU use. A figure with fewer is a cut one.
    bool decimalsFit(Col c, int decimals)
    {
        if (isBandwidthCol(c))
            return decimals == 2 || decimals == 6;
        if (isRateCol(c))
            return decimals == 6;
        return decimals == 2;
    }

    struct Layout {
        std::vector<Col> cols;
        bool latency = false;
        std::string units;     ///< as printed: "MB/sec"
        double toGbps = 1;     ///< factor from the printed unit to Gb/s
        std::string latencyUnit;
    };

    /// The results header; nullopt when it is not a whole one ("#bytes #iterat", cut).
    std::optional<Layout> parseTableHeader(std::string_view t)
    {
        std::vector<std::pair<std::size_t, Col>> found;
        for (const auto& def : kColumns) {
            const auto pos = t.find(def.label);
            if (pos != std::string_view::npos)
                found.emplace_back(pos, def.col);
        }
        std::sort(found.begin(), found.end());
        Layout layout;
        for (const auto& [pos, col] : found)
            layout.cols.push_back(col);
        const auto has = [&](Col c) { return std::find(layout.cols.begin(), layout.cols.end(), c) != layout.cols.end(); };
        if (layout.cols.size() < 3 || layout.cols[0] != Col::Bytes || !has(Col::Iterations))
            return std::nullopt;
        const bool bw = has(Col::BwPeak) || has(Col::BwAvg);
        layout.latency = std::any_of(layout.cols.begin(), layout.cols.end(), isLatencyCol);
        if (bw == layout.latency)
            return std::nullopt;
        const auto bracket = [&](std::string_view label) -> std::string {
            const auto pos = t.find(label);
            if (pos == std::string_view::npos)
                return {};
            const auto open = pos + label.size();
            const auto close = t.find(']', open);
            return close == std::string_view::npos ? std::string {} : std::string(t.substr(open, close - open));
        };
        if (bw) {
            layout.units = bracket("BW average[");
            if (layout.units.empty())
                layout.units = bracket("BW peak[");
            if (layout.units == "MB/sec" || layout.units == "MiB/sec")
                layout.toGbps = 1048576.0 * 8.0 / 1e9;
            else if (layout.units == "Gb/sec")
                layout.toGbps = 1;
            else
                return std::nullopt;
        } else {
            layout.latencyUnit = bracket(has(Col::TAvg) ? "t_avg[" : "t_min[");
        }
        return layout;
    }

    /// Whether `fields` is a whole row of `layout`: as many fields, integers where perftest
    /// prints integers, figures with the decimals it prints.
    bool rowFits(const Layout& layout, const std::vector<std::string_view>& fields)
    {
        if (fields.size() != layout.cols.size())
            return false;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const Col c = layout.cols[i];
            if (isIntegerCol(c)) {
                if (!allDigits(fields[i]))
                    return false;
                continue;
            }
            const auto p = printedNumber(fields[i]);
            if (!p || !decimalsFit(c, p->decimals))
                return false;
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------
    // Failures

    enum class Fail { Completion, QpState, Gid, Connect, Device, Gpu, Usage, Limit, Resources, PollCq, Exchange, Run, Generic };

    struct FailPattern {
        std::string_view text;
        Fail kind;
    };

    // What perftest prints on stderr when it gives up (perftest_communication.c,
    // perftest_resources.c, *_bw.c, *_lat.c, cuda_memory.c), found anywhere in the line.
    constexpr FailPattern kFailures[] = { { "Completion with error at", Fail::Completion }, { "Failed status", Fail::Completion },
        { "Failed to modify QP", Fail::QpState }, { "Unable to Connect the HCA's through the link", Fail::QpState },
        { "Found Incompatibility issue with GID types", Fail::Gid }, { "Couldn't connect to ", Fail::Connect },
        { "Unable to open file descriptor for socket connection", Fail::Connect },
        { "Unable to init the socket connection", Fail::Connect }, { "Unable to set up socket connection", Fail::Connect },
        { "Couldn't get device", Fail::Device }, { "No IB devices found", Fail::Device },
        { "Unable to find the Infiniband/RoCE device", Fail::Device }, { "Couldn't get context for the device", Fail::Device },
        { "DMA-BUF is not supported", Fail::Gpu }, { "Couldn't init GPU context", Fail::Gpu },
        { "There are no available device(s) that support CUDA", Fail::Gpu }, { "No such device ID", Fail::Gpu },
        { "Failed to load CUDA library", Fail::Gpu }, { "cuInit(0) returned", Fail::Gpu },
        { "Couldn't initialize ROCm device", Fail::Gpu }, { "Invalid Command or flag", Fail::Usage },
        { "Error: BW result is below bw limit", Fail::Limit }, { "Error: Msg rate", Fail::Limit },
        { "Couldn't create IB resources", Fail::Resources }, { "Couldn't allocate context", Fail::Resources },
        { "Failed to create QP", Fail::Resources }, { "Unable to create RDMA_CM resources", Fail::Resources },
        { "poll CQ failed", Fail::PollCq }, { "ibv_poll_cq failed", Fail::PollCq },
        { "Failed to exchange data between server and clients", Fail::Exchange }, { "Failed to negotiate parameters", Fail::Exchange },
        { "Failed to close connection between server and client", Fail::Exchange },
        { "Failed to complete run_iter", Fail::Run }, { "Problems with warm up", Fail::Run },
        { "Error occurred while running", Fail::Run }, { "Failed to sync between server and client", Fail::Run } };

    /// A perftest failure line: its kind, and whether it is perftest's own (a run can begin with
    /// it, "Couldn't connect to h:p" being all a client prints when no server listens) or a
    /// generic one ("Failed to ...", "Couldn't ...") that only continues a run.
    std::optional<std::pair<Fail, bool>> failureOf(std::string_view t)
    {
        for (const auto& f : kFailures)
            if (contains(t, f.text))
                return std::pair { f.kind, true };
        if (startsWith(t, "IB device ") && contains(t, " not found"))
            return std::pair { Fail::Device, true };
        for (const std::string_view prefix : { "Couldn't ", "Unable to ", "Failed to ", "Error: ", "ERROR", "Error " })
            if (startsWith(t, prefix))
                return std::pair { Fail::Generic, false };
        if (contains(t, "scnt=") || contains(t, "ccnt="))
            return std::pair { Fail::Generic, false };
        return std::nullopt;
    }

    // ibv_wc_status_str (rdma-core libibverbs/enum_strs.c).
    /// What to do about a completion status.
    std::string statusAdvice(int status)
    {
        switch (status) {
        case 12:
            return "the other end stopped acknowledging: a link went down or flaps, the path is wrong (on RoCE: GID index, VLAN, "
                   "routing; on IB: LIDs, SM), or the other process died. Check both ports (ibstat, ibv_devinfo), the switch ports "
                   "between them and, on RoCE, PFC/ECN; then look at the other side's output";
        case 13:
            return "the receiver had no buffer posted (RNR): check that both sides run the same test with the same options";
        case 5:
            return "the work request was flushed because its queue pair had already failed: the first error before this one is "
                   "the cause";
        case 4:
        case 8:
            return "the buffer's memory registration does not allow this access; with GPU memory (--use_cuda) check that "
                   "GPUDirect RDMA works (nvidia-peermem loaded, or dma-buf support with --use_cuda_dmabuf)";
        case 9:
        case 10:
        case 11:
            return "the remote side refused the operation (key, permission or size): check that both sides run the same perftest "
                   "version and options, and the remote side's output";
        case 20:
            return "the remote side did not answer in time: check the links and the other side's process";
        default:
            return "see the other side's output and the port counters (perfquery, ethtool -S) for the cause";
        }
    }

    struct FailureBurst {
        int firstLine = 0;
        int lastLine = 0;
        std::vector<std::string> lines;
        std::vector<Fail> kinds;
        std::optional<int> status;
        std::string statusPrinted; ///< the name as perftest printed it, when it did
        std::string syndrome;      ///< vendor syndrome "0x81"
        std::string endpoint;      ///< "host:port" of "Couldn't connect to host:port"
        std::string when;          ///< "after the 4096-byte row"
    };

    /// " Failed status 12: wr_id 0 syndrom 0x81", " Failed status-transport retry counter exceeded (12): wr_id 0
    /// syndrom 0x81", "Failed status transport retry counter exceeded: 12". The first status of a burst is
    /// kept with its own line's syndrome: a failed queue pair flushes the work requests after the one that
    /// failed, so a later status is mostly the first one's effect.
    void readStatus(std::string_view t, FailureBurst& burst)
    {
        if (burst.status)
            return;
        auto at = t.find("Failed status");
        if (at == std::string_view::npos)
            return;
        std::string_view s = t.substr(at + std::string_view("Failed status").size());
        const auto wr = s.find("wr_id");
        if (wr != std::string_view::npos)
            s = s.substr(0, wr);
        std::optional<int> number;
        const auto open = s.find('(');
        if (open != std::string_view::npos) {
            const auto close = s.find(')', open);
            if (close != std::string_view::npos)
                number = toNumber<int>(s.substr(open + 1, close - open - 1));
        }
        if (!number) {
            // The last run of digits before "wr_id".
            std::size_t end = s.size();
            while (end > 0 && std::isdigit(static_cast<unsigned char>(s[end - 1])) == 0)
                --end;
            std::size_t begin = end;
            while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1])) != 0)
                --begin;
            if (begin < end)
                number = toNumber<int>(s.substr(begin, end - begin));
        }
        if (!number)
            return;
        burst.status = number;
        for (const std::string_view key : { "syndrom", "syndrome" }) {
            const auto k = t.find(key);
            if (k != std::string_view::npos) {
                const auto words = splitWs(t.substr(k + key.size()));
                if (!words.empty())
                    burst.syndrome = std::string(words.front());
            }
        }
        std::string name;
        for (const char c : s) {
            if (std::isalpha(static_cast<unsigned char>(c)) != 0 || (c == ' ' && !name.empty()))
                name += c;
        }
        name = collapseSpaces(name);
        burst.statusPrinted = name;
    }

    // ---------------------------------------------------------------------------------------
    // Line classes

    enum class Kind { Blank, Comment, Command, Stars, Waiting, RdmaCmWaiting, Banner, Setting, Address, Gid, TableHeader,
        TableHeaderCut, Row, Dash, LocalResults, RemoteResults, ClientClosed, Gpu, Notice, Failure, Unknown };

    struct Classified {
        Kind kind = Kind::Unknown;
        std::optional<CommandInfo> command;
        std::optional<Banner> banner;
        Settings settings;
        std::optional<std::pair<bool, PerftestEndpoint>> address;
        std::optional<Layout> layout;
        std::vector<std::string_view> fields;
        std::optional<std::pair<Fail, bool>> failure;
    };

    /// The set-up lines of perftest's memory backends (cuda_memory.c, rocm_memory.c, musa_memory.c,
    /// mlu_memory.c, neuron_memory.c, hl_memory.c, opencl_memory.c) that name their backend.
    std::optional<GpuMemory> backendOfLine(std::string_view t)
    {
        static constexpr std::pair<std::string_view, GpuMemory> kPrefixes[] = { { "initializing CUDA", GpuMemory::Cuda },
            { "Listing all CUDA devices", GpuMemory::Cuda }, { "CUDA device ", GpuMemory::Cuda }, { "creating CUDA Ctx", GpuMemory::Cuda },
            { "making it the current CUDA Ctx", GpuMemory::Cuda }, { "destroying current CUDA Ctx", GpuMemory::Cuda },
            { "cuMemAlloc", GpuMemory::Cuda }, { "cuDevice", GpuMemory::Cuda }, { "stopping CUDA gpu touch", GpuMemory::Cuda },
            { "Using ROCm Device", GpuMemory::Rocm }, { "hipMalloc", GpuMemory::Rocm }, { "initializing MUSA", GpuMemory::Musa },
            { "Listing all MUSA devices", GpuMemory::Musa }, { "MUSA device ", GpuMemory::Musa }, { "creating MUSA Ctx", GpuMemory::Musa },
            { "making it the current MUSA Ctx", GpuMemory::Musa }, { "destroying current MUSA Ctx", GpuMemory::Musa },
            { "allocated MUSA buffer", GpuMemory::Musa }, { "muMemAlloc", GpuMemory::Musa }, { "initializing MLU", GpuMemory::Mlu },
            { "Listing all MLU devices", GpuMemory::Mlu }, { "MLU device ", GpuMemory::Mlu }, { "creating MLU Ctx", GpuMemory::Mlu },
            { "making it the current MLU Ctx", GpuMemory::Mlu }, { "destroying current MLU Ctx", GpuMemory::Mlu },
            { "cnMalloc", GpuMemory::Mlu }, { "NEURON_RT_VISIBLE_CORES", GpuMemory::Neuron },
            { "destroying current OpenCL ctx", GpuMemory::OpenCl } };
        for (const auto& [prefix, memory] : kPrefixes)
            if (startsWith(t, prefix))
                return memory;
        if (startsWith(t, "Allocated ") && contains(t, " bytes of accelerator buffer"))
            return GpuMemory::Gaudi;
        return std::nullopt;
    }

    /// GPU set-up lines: those of one backend, and those every backend prints alike (CUDA's first,
    /// the others copied cuda_memory.c): evidence of --use_cuda, --use_rocm, --use_musa, ...
    bool isGpuLine(std::string_view t)
    {
        if (backendOfLine(t))
            return true;
        for (const std::string_view p : { "Picking device No.", "Picking GPU number", "allocated GPU buffer", "using DMA-BUF",
                 "Calling ibv_reg_dmabuf_mr", "deallocating GPU buffer", "Finding PCIe BUS", "Starting GPU touching" })
            if (startsWith(t, p))
                return true;
        return startsWith(t, "[pid = ") && contains(t, "device name = [");
    }

    /// perftest's own notices and warnings.
    bool isNotice(std::string_view t)
    {
        if (core::startsWithIgnoreCase(t, "warning") || startsWith(t, "-W-"))
            return true;
        for (const std::string_view p : { "Conflicting CPU frequency values detected", "Requested SQ size might be too big",
                 "Current TX depth is", "Requested mtu is higher than active mtu", "Changing to active mtu",
                 "Perftest doesn't supports CUDA tests with inline messages", "The QP failed to accept HW rate limit",
                 "Max msg size in UD is", "CPU is not PCIe relaxed ordering compliant" })
            if (contains(t, p))
                return true;
        return false;
    }

    bool isRowLike(const std::vector<std::string_view>& words)
    {
        if (words.size() < 3 || !allDigits(words.front()))
            return false;
        return std::all_of(words.begin(), words.end(), [](std::string_view w) { return printedNumber(w).has_value(); });
    }

    Classified classify(std::string_view t)
    {
        Classified c;
        if (t.empty()) {
            c.kind = Kind::Blank;
            return c;
        }
        if (isDashLine(t, 20)) {
            c.kind = Kind::Dash;
            return c;
        }
        if (startsWith(t, "#bytes")) {
            c.layout = parseTableHeader(t);
            c.kind = c.layout ? Kind::TableHeader : Kind::TableHeaderCut;
            return c;
        }
        if ((c.command = parseCommand(t))) {
            c.kind = Kind::Command;
            return c;
        }
        if (t.front() == '#') {
            c.kind = Kind::Comment;
            return c;
        }
        if (t.size() >= 5 && std::all_of(t.begin(), t.end(), [](char ch) { return ch == '*'; })) {
            c.kind = Kind::Stars;
            return c;
        }
        if (contains(t, "Waiting for client to connect")) {
            c.kind = Kind::Waiting;
            return c;
        }
        if (contains(t, "Waiting for client rdma_cm QP to connect") || startsWith(t, "Please run the same command with the IB/RoCE")) {
            c.kind = Kind::RdmaCmWaiting;
            return c;
        }
        if ((c.banner = parseBanner(t))) {
            c.kind = Kind::Banner;
            return c;
        }
        if ((c.address = parseAddress(t))) {
            c.kind = Kind::Address;
            return c;
        }
        if (startsWith(t, "GID:")) {
            c.kind = Kind::Gid;
            return c;
        }
        if (!(c.settings = parseSettings(t)).empty()) {
            c.kind = Kind::Setting;
            return c;
        }
        const std::string words = collapseSpaces(t);
        if (words == "Local results:") {
            c.kind = Kind::LocalResults;
            return c;
        }
        if (words == "Remote results:") {
            c.kind = Kind::RemoteResults;
            return c;
        }
        if (contains(t, "Client closed connection")) {
            c.kind = Kind::ClientClosed;
            return c;
        }
        c.fields = splitWs(t);
        if (isRowLike(c.fields)) {
            c.kind = Kind::Row;
            return c;
        }
        if ((c.failure = failureOf(t))) {
            c.kind = Kind::Failure;
            return c;
        }
        if (isNotice(t)) {
            c.kind = Kind::Notice;
            return c;
        }
        if (isGpuLine(t)) {
            c.kind = Kind::Gpu;
            return c;
        }
        c.kind = Kind::Unknown;
        return c;
    }

    // ---------------------------------------------------------------------------------------
    // One run's state

    enum class Stage { Pre, Header, Addresses, Table, Rows, Closed };
    enum class Target { Main, Local, Remote };

    struct Table {
        Layout layout;
        Target target = Target::Main;
        bool closed = false;
        std::uint64_t lastBytes = 0;
        std::size_t rows = 0;
    };

    struct RunState {
        PerftestRun run;
        Stage stage = Stage::Pre;
        std::optional<Banner> banner;
        std::optional<CommandInfo> command;
        bool waiting = false;
        bool rdmaCmWaiting = false;
        bool dataExSeen = false; ///< "Data ex. method", the header's last line
        bool dualPort = false;
        bool connectFailure = false;
        std::string completionSide; ///< "Completion with error at client"
        bool clientClosed = false;
        std::optional<Table> table;
        bool mainTableSeen = false;
        bool mainClosed = false;
        bool partialTableHeader = false;
        std::optional<Target> pendingExtra;
        std::string rejectedRow;
        int rejectedRowLine = 0;
        int unknownLines = 0;
        std::vector<FailureBurst> failures;
        bool used = false; ///< any line was given to it (for the pre-run collector)
        bool unnamedGpuLines = false; ///< GPU set-up lines every backend prints ("Picking device No. 0")

        std::size_t endpointLimit() const
        {
            return run.qps > 0 ? static_cast<std::size_t>(run.qps) * (dualPort ? 2 : 1) : std::numeric_limits<std::size_t>::max();
        }

        bool headerDone() const { return dataExSeen || (!run.settings.empty() && stage >= Stage::Addresses); }

        std::string side() const
        {
            if (command)
                return !command->role.empty() ? command->role : (command->host ? "client" : "server");
            if (rdmaCmWaiting)
                return "server";
            if (connectFailure)
                return "client";
            if (!completionSide.empty())
                return completionSide;
            const bool bidirectional = run.bidirectional || (banner && banner->bidirectional);
            // ctx_print_test_info prints " TX depth" when machine == CLIENT || duplex.
            if (!bidirectional && headerDone())
                return run.txDepth ? "client" : "server";
            if (waiting)
                return "server";
            return {};
        }

        bool tableOpen() const { return table && !table->closed; }

        void warn(int line, const std::string& text) { run.warnings.push_back("perftest: line " + std::to_string(line) + ": " + text); }

        /// Where in the run the output is now, in words.
        std::string position() const
        {
            if (tableOpen() && table->target != Target::Main)
                return std::string("inside the ") + (table->target == Target::Local ? "local" : "remote") + " results table";
            switch (stage) {
            case Stage::Pre: return "before the test banner";
            case Stage::Header: return "inside the test settings, before the connection was set up";
            case Stage::Addresses: return "after the connection was set up (address lines), before the results table";
            case Stage::Table:
                return partialTableHeader && !mainTableSeen ? "inside the results header, before the first row"
                                                            : "after the results header, before the first row";
            case Stage::Rows: {
                const std::size_t n = run.latRows.empty() ? run.bwRows.size() : run.latRows.size();
                const std::uint64_t bytes = run.latRows.empty() ? run.bwRows.back().bytes : run.latRows.back().bytes;
                return "after the " + std::to_string(bytes) + "-byte row (" + std::to_string(n) + (n == 1 ? " row" : " rows")
                    + "), before the dashed line that closes the table";
            }
            case Stage::Closed: break;
            }
            return "after the results table";
        }
    };

    void applySetting(RunState& s, const std::string& key, const std::string& value)
    {
        PerftestRun& r = s.run;
        r.settings.emplace(key, value);
        if (key == "Device")
            r.device = value;
        else if (key == "Number of qps")
            r.qps = leadingInt(value).value_or(0);
        else if (key == "Transport type")
            r.transport = value;
        else if (key == "Connection type")
            r.connection = value;
        else if (key == "TX depth")
            r.txDepth = leadingInt(value);
        else if (key == "RX depth")
            r.rxDepth = leadingInt(value);
        else if (key == "CQ Moderation")
            r.cqModeration = leadingInt(value);
        else if (key == "Mtu")
            r.mtu = leadingInt(value).value_or(0);
        else if (key == "Link type")
            r.linkType = value;
        else if (key == "GID index")
            r.gidIndex = leadingInt(value);
        else if (key == "Max inline data")
            r.maxInlineData = leadingInt(value);
        else if (key == "Outstand reads")
            r.outstandingReads = leadingInt(value);
        else if (key == "TOS")
            r.tos = leadingInt(value);
        else if (key == "Dual-port")
            s.dualPort = value == "ON";
        else if (key == "rdma_cm QPs")
            r.rdmaCm = r.rdmaCm || value == "ON";
        else if (key == "Use ROCm memory" || key == "Use MUSA memory") {
            if (value == "ON")
                r.gpuMemory = key == "Use ROCm memory" ? GpuMemory::Rocm : GpuMemory::Musa;
        } else if (key == "Data ex. method") {
            s.dataExSeen = true;
            r.rdmaCm = r.rdmaCm || value == "rdma_cm";
        }
    }

    void applyGpuLine(RunState& s, std::string_view t)
    {
        PerftestRun& r = s.run;
        if (const std::optional<GpuMemory> backend = backendOfLine(t)) {
            if (r.gpuMemory == GpuMemory::Host)
                r.gpuMemory = *backend;
        } else {
            s.unnamedGpuLines = true;
        }
        if (containsNoCase(t, "DMA-BUF") || containsNoCase(t, "dmabuf"))
            r.gpuDmabuf = true;
        for (const std::string_view p : { "Picking device No.", "Picking GPU number" })
            if (startsWith(t, p))
                r.gpuDevice = leadingInt(t.substr(p.size()));
        const auto name = t.find("device name = [");
        if (name != std::string_view::npos) {
            const auto begin = name + std::string_view("device name = [").size();
            const auto end = t.find(']', begin);
            if (end != std::string_view::npos)
                r.gpuName = std::string(t.substr(begin, end - begin));
        }
    }

    template <class Row>
    void setLatency(Row& row, Col c, double v)
    {
        switch (c) {
        case Col::TMin: row.tMinUs = v; break;
        case Col::TMax: row.tMaxUs = v; break;
        case Col::TTypical: row.tTypicalUs = v; break;
        case Col::TAvg: row.tAvgUs = v; break;
        case Col::TStdev: row.tStdevUs = v; break;
        case Col::P99: row.p99Us = v; break;
        case Col::P999: row.p999Us = v; break;
        case Col::Tps: row.tpsAverage = v; break;
        case Col::CpuUtil: row.cpuUtilPercent = v; break;
        default: break;
        }
    }

    PerftestBwRow makeBwRow(const Layout& layout, const std::vector<std::string_view>& fields, int line)
    {
        PerftestBwRow row;
        row.line = line;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const Col c = layout.cols[i];
            if (isIntegerCol(c)) {
                const auto v = toNumber<std::uint64_t>(fields[i]).value_or(0);
                if (c == Col::Bytes)
                    row.bytes = v;
                else if (c == Col::Iterations)
                    row.iterations = v;
                else
                    row.serviceLevel = static_cast<int>(v);
                continue;
            }
            const double v = printedNumber(fields[i])->value;
            const double gbps = v * layout.toGbps;
            switch (c) {
            case Col::BwPeak: row.bwPeakGbps = gbps; break;
            case Col::BwAvg: row.bwAverageGbps = gbps; break;
            case Col::MsgRate: row.msgRateMpps = v; break;
            case Col::BwPort1: row.bwPort1Gbps = gbps; break;
            case Col::MsgRatePort1: row.msgRatePort1Mpps = v; break;
            case Col::BwPort2: row.bwPort2Gbps = gbps; break;
            case Col::MsgRatePort2: row.msgRatePort2Mpps = v; break;
            case Col::CpuUtil: row.cpuUtilPercent = v; break;
            default: break;
            }
        }
        return row;
    }

    PerftestLatRow makeLatRow(const Layout& layout, const std::vector<std::string_view>& fields, int line)
    {
        PerftestLatRow row;
        row.line = line;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const Col c = layout.cols[i];
            if (c == Col::Bytes)
                row.bytes = toNumber<std::uint64_t>(fields[i]).value_or(0);
            else if (c == Col::Iterations)
                row.iterations = toNumber<std::uint64_t>(fields[i]).value_or(0);
            else if (!isIntegerCol(c))
                setLatency(row, c, printedNumber(fields[i])->value);
        }
        return row;
    }

    // ---------------------------------------------------------------------------------------
    // Findings

    std::string summaryOf(const FailureBurst& b, const PerftestRun& r)
    {
        const auto has = [&](Fail k) { return std::find(b.kinds.begin(), b.kinds.end(), k) != b.kinds.end(); };
        if (has(Fail::Completion)) {
            std::string s = "a work completion failed";
            if (b.status) {
                std::string name = ibvWcStatusText(*b.status);
                if (startsWith(name, "status ") && !b.statusPrinted.empty())
                    name = b.statusPrinted; // a status newer than the table: as perftest named it
                s += " with status " + std::to_string(*b.status) + " (" + name + ")";
            }
            if (!b.syndrome.empty())
                s += ", vendor syndrome " + b.syndrome;
            return s;
        }
        if (has(Fail::QpState)) {
            const bool rts = std::any_of(b.lines.begin(), b.lines.end(), [](const std::string& l) { return contains(l, "RTS"); });
            return std::string("could not bring its queue pair to ") + (rts ? "RTS" : "RTR");
        }
        if (has(Fail::Gid))
            return "found that the two sides' GID types do not match";
        if (has(Fail::Connect))
            return "could not connect to the server" + (b.endpoint.empty() ? std::string() : " at " + b.endpoint);
        if (has(Fail::Device))
            return "could not open the RDMA device" + (r.device.empty() ? std::string() : " " + r.device);
        if (has(Fail::Gpu))
            return "could not set up GPU memory";
        if (has(Fail::Usage))
            return "refused its command line";
        if (has(Fail::Limit))
            return "measured less than the limit it was given";
        if (has(Fail::Resources))
            return "could not create its RDMA resources";
        if (has(Fail::PollCq))
            return "failed to poll its completion queue";
        if (has(Fail::Exchange))
            return "lost the exchange with the other side";
        if (has(Fail::Run))
            return "stopped in the middle of the test";
        return "reported an error";
    }

    std::string adviceOf(const FailureBurst& b, GpuMemory memory)
    {
        const auto has = [&](Fail k) { return std::find(b.kinds.begin(), b.kinds.end(), k) != b.kinds.end(); };
        if (has(Fail::Completion))
            return b.status ? statusAdvice(*b.status) : statusAdvice(-1);
        if (has(Fail::QpState))
            return "on RoCE check the GID index (-x; see show_gids) and that both ends use one of the same type, check that the "
                   "port is ACTIVE, and that both sides run the same options (MTU, connection type)";
        if (has(Fail::Gid))
            return "give both sides GIDs of the same type (RoCE v1 or v2, IPv4 or IPv6) with -x (see show_gids)";
        if (has(Fail::Connect))
            return "start the server side first (the same command without the host), and check the host name or address, the "
                   "port (-p, default 18515) and any firewall between the hosts";
        if (has(Fail::Device))
            return "check the name given with -d against ibv_devices or ibstat, and that the driver is loaded";
        if (has(Fail::Gpu))
        {
            if (memory == GpuMemory::Cuda || memory == GpuMemory::Host)
                return "check the CUDA driver, the GPU index given to --use_cuda, and dma-buf support (--use_cuda_dmabuf needs a "
                       "recent kernel and driver) or nvidia-peermem";
            const std::string option = memory == GpuMemory::Gaudi ? "hl" : std::string(gpuMemoryName(memory));
            static constexpr std::pair<GpuMemory, std::string_view> kNames[] = { { GpuMemory::Rocm, "ROCm" }, { GpuMemory::Musa, "MUSA" },
                { GpuMemory::Mlu, "Cambricon MLU" }, { GpuMemory::Neuron, "Neuron" }, { GpuMemory::Gaudi, "Gaudi (habanalabs)" },
                { GpuMemory::OpenCl, "OpenCL" } };
            std::string_view name = option;
            for (const auto& [m, n] : kNames)
                if (m == memory)
                    name = n;
            return "check the " + std::string(name) + " driver and runtime, the device given to --use_" + option
                + ", and dma-buf support (a recent kernel and driver)";
        }
        if (has(Fail::Usage))
            return "check the options; both sides must be given compatible ones";
        if (has(Fail::Limit))
            return "see the bandwidth figures and the limits given with --limit_bw / --limit_msgrate";
        return "read the lines quoted, and the other side's output for the error that came first";
    }

    core::Finding failureFinding(const FailureBurst& b, const PerftestRun& r)
    {
        std::string who = r.tool.empty() ? "perftest" : r.tool;
        if (!r.side.empty())
            who += " " + r.side;
        std::string quoted;
        for (std::size_t i = 0; i < b.lines.size() && i < 4; ++i)
            quoted += (i ? " / " : "") + quoteLine(b.lines[i]);
        if (b.lines.size() > 4)
            quoted += " / ...";
        core::Finding f;
        f.severity = core::Severity::Error;
        f.code = "PERFTEST_FAILED";
        f.message = who + " " + summaryOf(b, r) + " " + b.when + " (perftest printed " + quoted + "): " + adviceOf(b, r.gpuMemory) + ".";
        f.where = "line " + std::to_string(b.firstLine);
        return f;
    }

    std::string failureWhen(const RunState& s)
    {
        switch (s.stage) {
        case Stage::Pre:
        case Stage::Header: return "before the test began";
        case Stage::Addresses: return "while setting up the connection, before the results table";
        case Stage::Table: return "before the first results row";
        case Stage::Rows: {
            const std::uint64_t bytes = s.run.latRows.empty() ? s.run.bwRows.back().bytes : s.run.latRows.back().bytes;
            return "after the " + std::to_string(bytes) + "-byte row";
        }
        case Stage::Closed: break;
        }
        return "after the results table";
    }

    PerftestRun finalize(RunState s)
    {
        PerftestRun& r = s.run;
        if (s.command) {
            const CommandInfo& c = *s.command;
            r.command = c.text;
            r.bidirectional = r.bidirectional || c.bidirectional;
            if (r.gpuMemory == GpuMemory::Host)
                r.gpuMemory = c.gpuMemory;
            r.gpuDmabuf = r.gpuDmabuf || c.gpuDmabuf;
            r.rdmaCm = r.rdmaCm || c.rdmaCm;
            if (r.device.empty())
                r.device = c.device;
            if (c.ibPort)
                r.ibPort = *c.ibPort;
            if (!r.gidIndex && r.settings.empty())
                r.gidIndex = c.gidIndex;
            if (r.qps == 0 && c.qps)
                r.qps = *c.qps;
            if (!r.gpuDevice && c.gpuDevice && r.gpuMemory == c.gpuMemory)
                r.gpuDevice = c.gpuDevice;
        }
        // Lines no backend is named in come from CUDA's when nothing says otherwise: the other
        // backends copied cuda_memory.c and came later.
        if (r.gpuMemory == GpuMemory::Host && s.unnamedGpuLines)
            r.gpuMemory = GpuMemory::Cuda;
        if (s.banner) {
            r.tool = toolOfBanner(*s.banner, r.connection);
            r.bidirectional = r.bidirectional || s.banner->bidirectional;
        } else if (s.command) {
            r.tool = s.command->tool;
        }
        if (s.command && s.banner && r.tool != s.command->tool && !startsWith(s.command->tool, "raw_ethernet"))
            r.warnings.push_back("perftest: the command runs " + s.command->tool + " but the banner " + quoteLine(r.banner)
                + " is " + r.tool + "'s; the banner is taken");
        r.side = s.side();
        const bool latencyTool = (s.banner && s.banner->latency) || (!s.banner && contains(r.tool, "_lat"));
        if (s.command && s.command->cycles && latencyTool) {
            r.latencyUnit = "cycles";
            r.warnings.push_back("perftest: the command has -C (--report-cycles): the latencies are CPU cycles, though the "
                                 "header says usec");
        }
        if (s.unknownLines > 5)
            r.warnings.push_back("perftest: " + std::to_string(s.unknownLines - 5) + " more line(s) that are not perftest output were skipped");

        r.complete = s.mainClosed && !s.tableOpen();
        if (!s.rejectedRow.empty()) {
            const bool atEnd = s.rejectedRowLine >= r.lastLine;
            r.warnings.push_back("perftest: line " + std::to_string(s.rejectedRowLine) + ": " + quoteLine(s.rejectedRow)
                + (atEnd ? " is a cut results row (the output stops inside it) and was left out"
                         : " does not fit the results table and was left out"));
        }
        for (const auto& b : s.failures)
            r.findings.push_back(failureFinding(b, r));
        r.failed = !s.failures.empty();
        const std::string who = (r.tool.empty() ? std::string("perftest") : r.tool) + (r.side.empty() ? "" : " " + r.side);
        const std::string where = "line " + std::to_string(r.lastLine);
        if (!r.complete && !r.failed) {
            const bool waitingTcp = s.waiting && s.stage == Stage::Pre;
            const bool waitingCm = s.rdmaCmWaiting && s.stage <= Stage::Header;
            if (waitingTcp || waitingCm) {
                r.findings.push_back({ core::Severity::Error, "PERFTEST_WAITING",
                    who + " was waiting for its client" + (waitingCm ? " (rdma_cm)" : "")
                        + " and the output ends there: no client connected. Start the client with this host's address"
                        + (waitingCm ? " on the IB/RoCE interface" : "")
                        + " and the same options, and check the client's output (\"Couldn't connect to ...\"?)",
                    where });
            } else {
                std::string message = who + " output stops " + s.position();
                if (!s.rejectedRow.empty() && s.rejectedRowLine >= r.lastLine)
                    message += "; its last line " + quoteLine(s.rejectedRow) + " is cut";
                message += ": the run is incomplete. Run it again and keep the whole output of both sides, or look at the "
                           "other side's output for an error";
                r.findings.push_back({ core::Severity::Error, "PERFTEST_TRUNCATED", message, where });
            }
        }
        return std::move(s.run);
    }

} // namespace

// -------------------------------------------------------------------------------------------
// Routing lines to runs

struct PerftestParser::Impl {
    std::vector<RunState> runs;
    RunState before; ///< what came before the first run (warnings, GPU lines)
    int line = 0;
    std::optional<std::size_t> last;        ///< the run that took the last line
    std::optional<std::size_t> lastFailure; ///< the run whose failure burst the previous line continued
    std::optional<std::size_t> lastAddress; ///< the run, local?, index of the last address line
    bool lastAddressLocal = false;
    std::size_t lastAddressIndex = 0;
    std::size_t dashLength = 0; ///< length of the first whole dashed line

    std::size_t newRun()
    {
        RunState s;
        if (before.used) {
            s = std::move(before);
            before = RunState {};
        }
        runs.push_back(std::move(s));
        return runs.size() - 1;
    }

    template <class Pred>
    std::optional<std::size_t> oldest(Pred pred) const
    {
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (pred(runs[i]))
                return i;
        return std::nullopt;
    }

    RunState& take(std::size_t i)
    {
        RunState& s = runs[i];
        if (s.run.firstLine == 0)
            s.run.firstLine = line;
        s.run.lastLine = line;
        s.used = true;
        last = i;
        return s;
    }

    /// The run that gets a line of no run in particular (notices, GPU lines, other programs).
    RunState& current()
    {
        if (last)
            return take(*last);
        before.used = true;
        if (before.run.firstLine == 0)
            before.run.firstLine = line;
        before.run.lastLine = line;
        return before;
    }

    PerftestFeed feedLine(std::string_view raw, bool partial)
    {
        ++line;
        const std::string text = cleanLine(raw);
        // Classified with its whitespace runs as single spaces: tabs or spaces, as printed or as
        // a copy has them, read the same ("BW\tpeak[Gb/sec]").
        const std::string normal = collapseSpaces(text);
        const std::string_view t = normal;
        Classified c = classify(t);
        if (partial) {
            const bool wholeEnough = c.kind == Kind::Blank || c.kind == Kind::Row || c.kind == Kind::Failure || c.kind == Kind::Waiting
                || c.kind == Kind::Stars || (c.kind == Kind::Dash && t.size() >= (dashLength ? dashLength : kResultLineLength));
            if (!wholeEnough) {
                if (c.kind != Kind::Dash && c.kind != Kind::Comment)
                    current().warn(line, quoteLine(t) + " is incomplete (the output stops inside it) and was left out");
                return {};
            }
        }
        if (c.kind == Kind::Dash && !partial && dashLength == 0)
            dashLength = t.size(); // this perftest's RESULT_LINE
        const bool continuesFailure = lastFailure.has_value();
        if (c.kind != Kind::Blank && c.kind != Kind::Failure)
            lastFailure.reset();
        switch (c.kind) {
        case Kind::Blank:
        case Kind::Comment:
        case Kind::Stars: return {};
        case Kind::Command: {
            const std::size_t i = newRun();
            take(i).command = std::move(c.command);
            return {};
        }
        case Kind::Waiting: {
            auto i = oldest([](const RunState& s) {
                return s.stage == Stage::Pre && !s.waiting && !s.banner && s.command && s.side() == "server";
            });
            if (!i)
                i = oldest([](const RunState& s) { return s.stage == Stage::Pre && !s.waiting && !s.banner; });
            take(i ? *i : newRun()).waiting = true;
            return {};
        }
        case Kind::Banner: {
            const auto i = oldest([](const RunState& s) { return s.stage == Stage::Pre && !s.banner; });
            RunState& s = take(i ? *i : newRun());
            s.banner = c.banner;
            s.run.banner = collapseSpaces(t);
            s.run.bidirectional = s.run.bidirectional || c.banner->bidirectional;
            s.stage = Stage::Header;
            return {};
        }
        case Kind::Setting: {
            const std::string& key = c.settings.front().first;
            auto i = oldest([&](const RunState& s) { return s.stage == Stage::Header && !s.run.settings.contains(key); });
            if (!i)
                i = oldest([](const RunState& s) { return s.stage == Stage::Pre; });
            RunState& s = take(i ? *i : newRun());
            for (const auto& [k, v] : c.settings)
                applySetting(s, k, v);
            s.stage = std::max(s.stage, Stage::Header);
            return {};
        }
        case Kind::RdmaCmWaiting: {
            auto i = oldest([](const RunState& s) { return s.stage == Stage::Header && s.run.rdmaCm; });
            if (!i)
                i = oldest([](const RunState& s) { return s.stage <= Stage::Header; });
            RunState& s = i ? take(*i) : (last ? take(*last) : take(newRun()));
            s.rdmaCmWaiting = true;
            return {};
        }
        case Kind::Address: {
            const bool local = c.address->first;
            const auto count = [local](const RunState& s) { return local ? s.run.localEndpoints.size() : s.run.remoteEndpoints.size(); };
            const auto inPlace = [](const RunState& s) { return s.stage == Stage::Header || s.stage == Stage::Addresses; };
            auto i = oldest([&](const RunState& s) { return inPlace(s) && count(s) < s.endpointLimit(); });
            if (!i)
                i = oldest(inPlace);
            if (!i)
                i = oldest([](const RunState& s) { return s.stage == Stage::Pre; });
            const std::size_t index = i ? *i : newRun();
            RunState& s = take(index);
            auto& list = local ? s.run.localEndpoints : s.run.remoteEndpoints;
            list.push_back(c.address->second);
            auto& first = local ? s.run.local : s.run.remote;
            if (!first)
                first = list.front();
            s.stage = Stage::Addresses;
            lastAddress = index;
            lastAddressLocal = local;
            lastAddressIndex = list.size() - 1;
            return {};
        }
        case Kind::Gid: {
            if (!lastAddress) {
                current().warn(line, quoteLine(t) + " follows no address line and was left out");
                return {};
            }
            RunState& s = take(*lastAddress);
            auto& list = lastAddressLocal ? s.run.localEndpoints : s.run.remoteEndpoints;
            PerftestEndpoint& e = list[lastAddressIndex];
            if (e.gid.empty()) {
                e.gid = std::string(trim(t.substr(4)));
                auto& first = lastAddressLocal ? s.run.local : s.run.remote;
                if (lastAddressIndex == 0)
                    first = e;
            }
            return {};
        }
        case Kind::TableHeader:
        case Kind::TableHeaderCut: {
            auto i = oldest([](const RunState& s) { return s.stage == Stage::Addresses && !s.mainTableSeen; });
            if (!i)
                i = oldest([](const RunState& s) { return s.pendingExtra && !s.tableOpen(); });
            if (!i)
                i = oldest([](const RunState& s) { return s.stage == Stage::Header && !s.mainTableSeen; });
            if (!i)
                i = oldest([](const RunState& s) { return s.stage == Stage::Pre; });
            if (!i && c.kind == Kind::TableHeader)
                i = oldest([&](const RunState& s) {
                    return s.tableOpen() && s.table->rows == 0 && s.table->layout.cols == c.layout->cols; // a repeated header
                });
            RunState& s = take(i ? *i : newRun());
            if (c.kind == Kind::TableHeaderCut) {
                s.partialTableHeader = true;
                s.stage = std::max(s.stage, Stage::Table);
                return {};
            }
            if (s.tableOpen() && s.table->rows == 0 && s.table->layout.cols == c.layout->cols)
                return {};
            Table table;
            table.layout = *c.layout;
            if (s.pendingExtra && s.mainClosed) {
                table.target = *s.pendingExtra;
                s.pendingExtra.reset();
            } else {
                s.mainTableSeen = true;
                s.stage = std::max(s.stage, Stage::Table);
                if (!table.layout.latency)
                    s.run.units = table.layout.units;
            }
            s.table = std::move(table);
            return {};
        }
        case Kind::Row: {
            // A larger size than the table's last (or its first row); else the same size again
            // (--run_infinitely repeats it). Two processes printing the same sizes alternate.
            const std::uint64_t bytes = toNumber<std::uint64_t>(c.fields.front()).value_or(0);
            const auto fits = [&](const RunState& s) { return s.tableOpen() && rowFits(s.table->layout, c.fields); };
            auto i = oldest([&](const RunState& s) { return fits(s) && (s.table->rows == 0 || bytes > s.table->lastBytes); });
            if (!i)
                i = oldest([&](const RunState& s) { return fits(s) && bytes == s.table->lastBytes; });
            if (!i) {
                const auto j = oldest([](const RunState& s) { return s.tableOpen(); });
                RunState& s = j ? take(*j) : current();
                if (!s.rejectedRow.empty() && s.rejectedRowLine < line)
                    s.warn(s.rejectedRowLine, quoteLine(s.rejectedRow) + " does not fit the results table and was left out");
                s.rejectedRow = std::string(t);
                s.rejectedRowLine = line;
                return {};
            }
            RunState& s = take(*i);
            if (!s.rejectedRow.empty()) {
                s.warn(s.rejectedRowLine, quoteLine(s.rejectedRow) + " does not fit the results table and was left out");
                s.rejectedRow.clear();
            }
            Table& table = *s.table;
            table.lastBytes = bytes;
            ++table.rows;
            PerftestFeed feed;
            feed.run = *i;
            if (table.layout.latency) {
                s.run.latRows.push_back(makeLatRow(table.layout, c.fields, line));
                feed.latRow = &s.run.latRows.back();
            } else {
                auto& rows = table.target == Target::Main ? s.run.bwRows
                    : table.target == Target::Local       ? s.run.localBwRows
                                                          : s.run.remoteBwRows;
                rows.push_back(makeBwRow(table.layout, c.fields, line));
                feed.bwRow = &rows.back();
            }
            if (table.target == Target::Main)
                s.stage = Stage::Rows;
            return feed;
        }
        case Kind::Dash: {
            const auto i = oldest([](const RunState& s) { return s.tableOpen() && (s.table->rows > 0 || s.clientClosed); });
            if (!i)
                return {};
            RunState& s = take(*i);
            s.table->closed = true;
            if (s.table->target == Target::Main) {
                s.mainClosed = true;
                s.stage = Stage::Closed;
            }
            return {};
        }
        case Kind::LocalResults:
        case Kind::RemoteResults: {
            auto i = last && runs[*last].mainClosed ? last : oldest([](const RunState& s) { return s.mainClosed && !s.pendingExtra; });
            if (!i) {
                current().warn(line, quoteLine(t) + " comes before any results table and was left out");
                return {};
            }
            take(*i).pendingExtra = c.kind == Kind::LocalResults ? Target::Local : Target::Remote;
            return {};
        }
        case Kind::ClientClosed: {
            const auto i = oldest([](const RunState& s) { return s.tableOpen() && s.table->rows == 0; });
            RunState& s = i ? take(*i) : current();
            s.clientClosed = true;
            s.warn(line, "the server ran until its client closed the connection (--run_infinitely): the results are on the "
                         "client's side");
            return {};
        }
        case Kind::Gpu: applyGpuLine(current(), t); return {};
        case Kind::Notice: {
            RunState& s = current();
            if (contains(t, "BW peak won't be measured"))
                s.run.peakMeasured = false;
            s.warn(line, "perftest warned: " + quoteLine(t));
            return {};
        }
        case Kind::Failure: {
            const auto [kind, own] = *c.failure;
            std::string side;
            if (contains(t, "Completion with error at client"))
                side = "client";
            else if (contains(t, "Completion with error at server"))
                side = "server";
            std::optional<std::size_t> i;
            if (continuesFailure)
                i = lastFailure;
            if (!i && !side.empty())
                i = oldest([&](const RunState& s) { return !s.mainClosed && s.side() == side; });
            if (!i)
                i = last;
            if (!i && own)
                i = newRun();
            RunState& s = i ? take(*i) : current();
            lastFailure = i;
            if (!side.empty())
                s.completionSide = side;
            if (contains(t, "Couldn't connect to "))
                s.connectFailure = true;
            const bool newBurst = !continuesFailure || s.failures.empty();
            if (newBurst) {
                FailureBurst b;
                b.firstLine = line;
                b.when = failureWhen(s);
                s.failures.push_back(std::move(b));
            }
            FailureBurst& b = s.failures.back();
            b.lastLine = line;
            b.lines.emplace_back(t);
            b.kinds.push_back(kind);
            if (kind == Fail::Completion)
                readStatus(t, b);
            const auto at = t.find("Couldn't connect to ");
            if (at != std::string_view::npos && b.endpoint.empty())
                b.endpoint = collapseSpaces(t.substr(at + std::string_view("Couldn't connect to ").size()));
            return {};
        }
        case Kind::Unknown: {
            RunState& s = current();
            if (++s.unknownLines <= 5)
                s.warn(line, "skipped, not perftest output: " + quoteLine(t));
            return {};
        }
        }
        return {};
    }

    /// The run that stands for the whole input (see finish()).
    std::size_t primary() const
    {
        const auto rows = [](const RunState& s) { return s.run.bwRows.size() + s.run.latRows.size(); };
        std::optional<std::size_t> best;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (rows(runs[i]) == 0)
                continue;
            if (!best) {
                best = i;
                continue;
            }
            const bool client = runs[i].side() == "client";
            const bool bestClient = runs[*best].side() == "client";
            if ((client && !bestClient) || (client == bestClient && rows(runs[i]) >= rows(runs[*best])))
                best = i;
        }
        return best.value_or(0);
    }
};

PerftestParser::PerftestParser()
    : m_impl(std::make_unique<Impl>())
{
}

PerftestParser::~PerftestParser() = default;
PerftestParser::PerftestParser(PerftestParser&&) noexcept = default;
PerftestParser& PerftestParser::operator=(PerftestParser&&) noexcept = default;

PerftestFeed PerftestParser::feed(std::string_view line) { return m_impl->feedLine(line, false); }
PerftestFeed PerftestParser::feedPartial(std::string_view line) { return m_impl->feedLine(line, true); }
bool PerftestParser::recognised() const { return !m_impl->runs.empty(); }
std::size_t PerftestParser::runCount() const { return m_impl->runs.size(); }

std::vector<PerftestRun> PerftestParser::finishAll()
{
    Impl impl = std::move(*m_impl);
    *m_impl = Impl {};
    std::vector<PerftestRun> out;
    for (auto& s : impl.runs)
        out.push_back(finalize(std::move(s)));
    return out;
}

PerftestRun PerftestParser::finish()
{
    if (m_impl->runs.empty()) {
        PerftestRun empty;
        empty.warnings = std::move(m_impl->before.run.warnings);
        empty.warnings.push_back("perftest: no perftest output was seen");
        *m_impl = Impl {};
        return empty;
    }
    const std::size_t index = m_impl->primary();
    const std::size_t count = m_impl->runs.size();
    std::vector<PerftestRun> all = finishAll();
    PerftestRun run = std::move(all[index]);
    if (count > 1) {
        std::string sides;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (i != index)
                sides += (sides.empty() ? "" : ", ") + (all[i].side.empty() ? std::string("one") : "the " + all[i].side + "'s")
                    + " from line " + std::to_string(all[i].firstLine);
        run.warnings.push_back("perftest: the input holds " + std::to_string(count)
            + " perftest runs (server and client output in one log?); this result is " + (run.side.empty() ? "one" : "the " + run.side + "'s")
            + " from line " + std::to_string(run.firstLine) + "; left out: " + sides);
    }
    return run;
}

namespace {
    /// Feeds `text` line by line; the last line, when the text does not end with a line end, as a
    /// line the output may have stopped inside.
    void feedText(PerftestParser& parser, std::string_view text)
    {
        std::size_t pos = 0;
        while (pos < text.size()) {
            const auto end = text.find('\n', pos);
            if (end == std::string_view::npos) {
                parser.feedPartial(text.substr(pos));
                break;
            }
            parser.feed(text.substr(pos, end - pos));
            pos = end + 1;
        }
    }

    core::Error notPerftest(std::string_view text)
    {
        core::Error e;
        e.code = "TOOL_OUTPUT";
        e.message = trim(text).empty() ? "perftest: the input is empty"
                                       : "perftest: no perftest output in the input (no test banner such as \"RDMA_Write BW Test\", "
                                         "no settings, address lines or results header, no perftest error message)";
        e.hint = "give the output of ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw or a latency test as the tool printed it";
        return e;
    }
} // namespace

core::Result<PerftestRun> parsePerftestOutput(std::string_view text)
{
    PerftestParser parser;
    feedText(parser, text);
    if (!parser.recognised())
        return notPerftest(text);
    return parser.finish();
}

core::Result<std::vector<PerftestRun>> parsePerftestOutputs(std::string_view text)
{
    PerftestParser parser;
    feedText(parser, text);
    if (!parser.recognised())
        return notPerftest(text);
    return parser.finishAll();
}

// -------------------------------------------------------------------------------------------
// JSON

namespace {
    using nlohmann::json;

    json endpointJson(const PerftestEndpoint& e)
    {
        json out = json::object();
        const auto put = [&](const char* key, const std::string& v) {
            if (!v.empty())
                out[key] = v;
        };
        put("lid", e.lid);
        put("qpn", e.qpn);
        put("psn", e.psn);
        put("rkey", e.rkey);
        put("vaddr", e.vaddr);
        put("out_reads", e.outReads);
        put("gid", e.gid);
        return out;
    }

    json bwRowJson(const PerftestBwRow& r)
    {
        json out = { { "bytes", r.bytes }, { "iterations", r.iterations }, { "bw_peak_gbps", r.bwPeakGbps },
            { "bw_average_gbps", r.bwAverageGbps }, { "msg_rate_mpps", r.msgRateMpps } };
        const auto put = [&](const char* key, const auto& v) {
            if (v)
                out[key] = *v;
        };
        put("sl", r.serviceLevel);
        put("bw_port1_gbps", r.bwPort1Gbps);
        put("msg_rate_port1_mpps", r.msgRatePort1Mpps);
        put("bw_port2_gbps", r.bwPort2Gbps);
        put("msg_rate_port2_mpps", r.msgRatePort2Mpps);
        put("cpu_util_percent", r.cpuUtilPercent);
        return out;
    }

    json latRowJson(const PerftestLatRow& r, const std::string& unit)
    {
        json out = { { "bytes", r.bytes }, { "iterations", r.iterations } };
        const std::string suffix = unit == "cycles" ? "_cycles" : "_us";
        const auto put = [&](const std::string& key, const std::optional<double>& v) {
            if (v)
                out[key] = *v;
        };
        put("t_min" + suffix, r.tMinUs);
        put("t_max" + suffix, r.tMaxUs);
        put("t_typical" + suffix, r.tTypicalUs);
        put("t_avg" + suffix, r.tAvgUs);
        put("t_stdev" + suffix, r.tStdevUs);
        put("p99" + suffix, r.p99Us);
        put("p999" + suffix, r.p999Us);
        put("tps_average", r.tpsAverage);
        put("cpu_util_percent", r.cpuUtilPercent);
        return out;
    }
} // namespace

std::string_view gpuMemoryName(GpuMemory memory)
{
    switch (memory) {
    case GpuMemory::Host: return "host";
    case GpuMemory::Cuda: return "cuda";
    case GpuMemory::Rocm: return "rocm";
    case GpuMemory::Musa: return "musa";
    case GpuMemory::Mlu: return "mlu";
    case GpuMemory::Neuron: return "neuron";
    case GpuMemory::Gaudi: return "gaudi";
    case GpuMemory::OpenCl: return "opencl";
    }
    return "host";
}

nlohmann::json toJson(const PerftestRun& run)
{
    json out = json::object();
    out["tool"] = run.tool;
    out["complete"] = run.complete;
    if (run.bidirectional)
        out["bidirectional"] = true;
    out["side"] = run.side;
    if (!run.banner.empty())
        out["banner"] = run.banner;
    if (!run.command.empty())
        out["command"] = run.command;
    if (!run.device.empty())
        out["device"] = run.device;
    out["ib_port"] = run.ibPort;
    if (!run.linkType.empty())
        out["link_type"] = run.linkType;
    if (!run.transport.empty())
        out["transport"] = run.transport;
    if (run.gidIndex)
        out["gid_index"] = *run.gidIndex;
    if (run.qps > 0)
        out["qps"] = run.qps;
    if (!run.connection.empty())
        out["connection"] = run.connection;
    if (run.mtu > 0)
        out["mtu"] = run.mtu;
    if (!run.units.empty())
        out["units_printed"] = run.units;
    out["cuda"] = run.cuda();
    if (run.cuda()) {
        out["cuda_dmabuf"] = run.gpuDmabuf;
        if (run.gpuDevice)
            out["cuda_device"] = *run.gpuDevice;
    }
    if (run.gpuMemory == GpuMemory::Rocm)
        out["rocm"] = true;
    if (run.gpuMemory != GpuMemory::Host) {
        out["gpu_memory"] = gpuMemoryName(run.gpuMemory);
        out["gpu_dmabuf"] = run.gpuDmabuf;
        if (run.gpuDevice)
            out["gpu_device"] = *run.gpuDevice;
    }
    if (!run.gpuName.empty())
        out["gpu_name"] = run.gpuName;
    out["rdma_cm"] = run.rdmaCm;
    if (!run.peakMeasured)
        out["peak_measured"] = false;
    if (run.local)
        out["local"] = endpointJson(*run.local);
    if (run.remote)
        out["remote"] = endpointJson(*run.remote);
    if (run.localEndpoints.size() > 1 || run.remoteEndpoints.size() > 1) {
        out["local_qps"] = json::array();
        for (const auto& e : run.localEndpoints)
            out["local_qps"].push_back(endpointJson(e));
        out["remote_qps"] = json::array();
        for (const auto& e : run.remoteEndpoints)
            out["remote_qps"].push_back(endpointJson(e));
    }
    out["rows"] = json::array();
    for (const auto& r : run.bwRows)
        out["rows"].push_back(bwRowJson(r));
    if (!run.latRows.empty() || run.tool.ends_with("_lat"))
        out["latency_unit"] = run.latencyUnit;
    if (!run.latRows.empty()) {
        out["latency_rows"] = json::array();
        for (const auto& r : run.latRows)
            out["latency_rows"].push_back(latRowJson(r, run.latencyUnit));
    }
    for (const auto& [key, rows] : { std::pair { "local_rows", &run.localBwRows }, std::pair { "remote_rows", &run.remoteBwRows } }) {
        if (rows->empty())
            continue;
        out[key] = json::array();
        for (const auto& r : *rows)
            out[key].push_back(bwRowJson(r));
    }
    out["findings"] = json::array();
    for (const auto& f : run.findings)
        out["findings"].push_back(core::toJson(f));
    if (!run.warnings.empty())
        out["warnings"] = run.warnings;
    // The output's text as it came: made valid UTF-8 so that the document always dumps.
    return withValidUtf8(std::move(out));
}

} // namespace railyard::live
