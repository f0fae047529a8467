// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/tool_invocation.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <system_error>

namespace railyard::live {

namespace {

    constexpr std::array<std::string_view, 4> kPerftestTools { "ib_write_bw", "ib_read_bw", "ib_write_lat", "ib_read_lat" };
    constexpr std::array<std::string_view, 3> kNcclTestsTools { "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf" };
    constexpr std::array<std::string_view, 2> kLaunchers { "mpirun", "srun" };

    constexpr std::string_view kShellMeta = ";&|<>`$\\\"'(){}[]*?!~#%";
    constexpr std::uint64_t kMaxBytes = std::uint64_t(1) << 34;

    template <std::size_t N>
    bool contains(const std::array<std::string_view, N>& list, std::string_view name)
    {
        return std::find(list.begin(), list.end(), name) != list.end();
    }

    /// How a character is named in a message: "';'", "a space", "NUL", "byte 0x0a".
    std::string describe(char ch)
    {
        const auto c = static_cast<unsigned char>(ch);
        if (c == 0)
            return "NUL";
        if (c == ' ')
            return "a space";
        if (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
            return "whitespace";
        if (c < 0x20 || c >= 0x7f) {
            std::string s = "byte 0x";
            static constexpr char hex[] = "0123456789abcdef";
            s += hex[c >> 4];
            s += hex[c & 15];
            return s;
        }
        return std::string("'") + ch + "'";
    }

    bool isAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
    bool isDigit(char c) { return c >= '0' && c <= '9'; }

    /// The first character of `value` outside [A-Za-z0-9] and `extra`, or nullopt.
    std::optional<char> outside(std::string_view value, std::string_view extra)
    {
        for (const char c : value)
            if (!isAlnum(c) && extra.find(c) == std::string_view::npos)
                return c;
        return std::nullopt;
    }

    std::vector<std::string_view> split(std::string_view text, char sep)
    {
        std::vector<std::string_view> out;
        std::size_t start = 0;
        while (true) {
            const std::size_t at = text.find(sep, start);
            out.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
            if (at == std::string_view::npos)
                return out;
            start = at + 1;
        }
    }

    bool isIpv4(std::string_view value)
    {
        const std::vector<std::string_view> parts = split(value, '.');
        if (parts.size() != 4)
            return false;
        for (std::string_view p : parts) {
            if (p.empty() || p.size() > 3 || !std::all_of(p.begin(), p.end(), isDigit) || (p.size() > 1 && p[0] == '0'))
                return false;
            int v = 0;
            std::from_chars(p.data(), p.data() + p.size(), v);
            if (v > 255)
                return false;
        }
        return true;
    }

    /// POSIX shell word for display: as is when it only has safe characters, else single-quoted.
    std::string shellWord(std::string_view word)
    {
        if (!word.empty() && !outside(word, "_.,:=/+-@%^"))
            return std::string(word);
        std::string out = "'";
        for (const char c : word) {
            if (c == '\'')
                out += "'\\''";
            else
                out += c;
        }
        return out + "'";
    }

} // namespace

namespace launch_detail {

    std::string shown(std::string_view value)
    {
        static constexpr char hex[] = "0123456789abcdef";
        std::string out = "\"";
        std::size_t n = 0;
        for (const char ch : value) {
            if (++n > 80) {
                out += "...";
                break;
            }
            const auto c = static_cast<unsigned char>(ch);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += ch;
            } else if (c < 0x20 || c >= 0x7f) {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
        return out + "\"";
    }

    core::Error paramError(std::string_view parameter, std::string_view value, const std::string& why, std::string hint)
    {
        return core::Error { "LAUNCH_PARAM", std::string(parameter) + ": refused " + shown(value) + ": " + why,
            std::string(parameter), std::move(hint) };
    }

    std::optional<core::Error> commonProblem(std::string_view parameter, std::string_view value)
    {
        if (value.empty())
            return core::Error { "LAUNCH_PARAM", std::string(parameter) + ": must not be empty", std::string(parameter), {} };
        if (const std::optional<char> bad = unsafeCharacter(value)) {
            const bool space = *bad == ' ' || (*bad >= '\t' && *bad <= '\r');
            return paramError(parameter, value,
                std::string(space ? "contains " : "contains a shell metacharacter or control byte: ") + describe(*bad));
        }
        if (value.front() == '-')
            return paramError(parameter, value, "starts with '-' (it would read as an option)");
        return std::nullopt;
    }

    void Problems::add(const core::Status& s)
    {
        if (!s)
            errors.insert(errors.end(), s.errors().begin(), s.errors().end());
    }

    void Problems::add(core::Error e) { errors.push_back(std::move(e)); }

} // namespace launch_detail

using namespace launch_detail;

namespace {

    // --- The argument grammar of each whitelisted tool: exactly the options test_launch.cpp
    // writes, each value checked. A launcher's options stop at its program, which must be an
    // nccl-tests tool; what follows is that tool's. Anything else (an option Railyard never
    // writes, such as mpirun's -x LD_PRELOAD=..., a program for mpirun to start, perftest's
    // --out_json_file=...) is refused, so a request cannot make a whitelisted tool run or write
    // something else.

    enum class Value { None, Number, Device, ByteSize, Hosts, NcclName, Path, Word, Export };

    struct Option {
        std::string_view name; // ends with '=' when the value is attached ("--tclass=3")
        Value value;
        long long min = 0;
        long long max = 0;
    };

    constexpr Option kPerftestOptions[] = {
        { "-d", Value::Device }, { "-i", Value::Number, 1, 255 }, { "-x", Value::Number, 0, 255 },
        { "-q", Value::Number, 1, 64 }, { "-s", Value::Number, 1, 2147483647 }, { "-n", Value::Number, 5, 2147483647 },
        { "-D", Value::Number, 1, 86400 }, { "-p", Value::Number, 1, 65535 }, { "-F", Value::None },
        { "--report_gbits", Value::None }, { "-a", Value::None }, { "-b", Value::None }, { "--use_cuda_dmabuf", Value::None },
        { "--use_cuda=", Value::Number, 0, 63 }, { "--tclass=", Value::Number, 0, 255 },
    };
    constexpr Option kNcclTestsOptions[] = {
        { "-b", Value::ByteSize }, { "-e", Value::ByteSize }, { "-f", Value::Number, 2, 1024 }, { "-g", Value::Number, 1, 64 },
        { "-n", Value::Number, 1, 1000000 }, { "-w", Value::Number, 0, 1000000 }, { "-c", Value::Number, 0, 1 },
    };
    constexpr Option kMpirunOptions[] = {
        { "--allow-run-as-root", Value::None }, { "--host", Value::Hosts }, { "--hostfile", Value::Path },
        { "-np", Value::Number, 1, 1 << 20 }, { "--map-by", Value::Word }, { "--bind-to", Value::Word },
        { "-x", Value::NcclName }, { "--mca", Value::Word }, // --mca: see mcaProblem()
    };
    constexpr Option kSrunOptions[] = {
        { "--nodes=", Value::Number, 1, 1 << 20 }, { "--ntasks-per-node=", Value::Number, 1, 1024 },
        { "--gpus-per-node=", Value::Number, 1, 64 }, { "--mpi=", Value::Word }, { "--nodelist=", Value::Hosts },
        { "--export=", Value::Export }, { "--version", Value::None },
    };
    // The MCA parameters test_launch.cpp sets; plm_rsh_agent names a program mpirun starts, so
    // its value is a path (whose location the agent checks: launcherHelpers()).
    constexpr std::array<std::string_view, 3> kMcaKeys { "pml", "btl", "plm_rsh_agent" };

    template <std::size_t N>
    std::string optionList(const Option (&options)[N])
    {
        std::string out;
        for (const Option& o : options)
            out += (out.empty() ? "" : ", ") + std::string(o.name);
        return out;
    }

    bool isNcclName(std::string_view name)
    {
        return name.size() > 5 && name.size() <= 64 && name.substr(0, 5) == "NCCL_"
            && std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_'; });
    }

    std::optional<core::Error> valueProblem(const Option& o, const std::string& parameter, std::string_view value)
    {
        switch (o.value) {
        case Value::None:
            return std::nullopt;
        case Value::Number: {
            long long n = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
            if (value.empty() || value.size() > 12 || ec != std::errc() || end != value.data() + value.size())
                return paramError(parameter, value, std::string(o.name) + " takes a whole number");
            if (n < o.min || n > o.max)
                return paramError(parameter, value,
                    std::string(o.name) + " takes a number from " + std::to_string(o.min) + " to " + std::to_string(o.max));
            return std::nullopt;
        }
        case Value::Device:
            if (const core::Status s = validateRdmaDevice(parameter, value); !s)
                return s.error();
            return std::nullopt;
        case Value::ByteSize:
            if (const auto s = parseByteSize(parameter, value); !s)
                return s.error();
            return std::nullopt;
        case Value::Hosts:
            for (std::string_view entry : split(value, ',')) {
                const std::string_view host = entry.substr(0, entry.find(':'));
                if (const core::Status s = validateHostName(parameter, host); !s)
                    return s.error();
                const std::string_view slots = entry.size() > host.size() ? entry.substr(host.size() + 1) : std::string_view("1");
                if (slots.empty() || slots.size() > 4 || !std::all_of(slots.begin(), slots.end(), isDigit))
                    return paramError(parameter, value, "a host entry is NAME or NAME:SLOTS");
            }
            return std::nullopt;
        case Value::NcclName:
            if (!isNcclName(value))
                return paramError(parameter, value, std::string(o.name) + " passes on only NCCL_* variables");
            return std::nullopt;
        case Value::Path:
            if (const core::Status s = validateFilePath(parameter, value); !s)
                return s.error();
            return std::nullopt;
        case Value::Word:
            if (value.empty() || value.front() == '-' || value.find('/') != std::string_view::npos)
                return paramError(parameter, value, std::string(o.name) + " takes a plain word here");
            return std::nullopt;
        case Value::Export: {
            const std::vector<std::string_view> names = split(value, ',');
            if (names.front() != "ALL" || !std::all_of(names.begin() + 1, names.end(), isNcclName))
                return paramError(parameter, value, "--export= takes ALL followed by NCCL_* names");
            return std::nullopt;
        }
        }
        return std::nullopt;
    }

    // Checks args[from..] against `options` until the end or, when `stopAtProgram`, the first
    // argument that is not an option; returns where it stopped. `positional` (perftest's server
    // host) is how many plain arguments may follow.
    template <std::size_t N>
    std::size_t checkOptions(const ToolInvocation& inv, std::size_t from, const Option (&options)[N], std::string_view tool,
        bool stopAtProgram, int positional, Problems& p)
    {
        std::size_t i = from;
        while (i < inv.args.size()) {
            const std::string& a = inv.args[i];
            const std::string parameter = "args[" + std::to_string(i) + "]";
            if (a.front() != '-') {
                if (stopAtProgram)
                    return i;
                if (positional-- > 0) {
                    p.add(validateHostName(parameter, a));
                    ++i;
                    continue;
                }
                p.add(paramError(parameter, a, std::string(tool) + " takes no further plain argument here"));
                return inv.args.size();
            }
            const Option* match = nullptr;
            for (const Option& o : options)
                if (o.name.back() == '=' ? a.rfind(o.name, 0) == 0 : a == o.name)
                    match = &o;
            if (!match) {
                p.add(paramError(parameter, a,
                    std::string(tool) + " takes only the options Railyard writes (" + optionList(options) + ")"));
                return inv.args.size();
            }
            if (match->name.back() == '=') {
                if (auto e = valueProblem(*match, parameter, std::string_view(a).substr(match->name.size())))
                    p.add(*e);
                ++i;
                continue;
            }
            if (match->value == Value::None) {
                ++i;
                continue;
            }
            const int values = match->name == "--mca" ? 2 : 1;
            if (i + values >= inv.args.size()) {
                p.add(paramError(parameter, a, std::string(match->name) + " needs a value"));
                return inv.args.size();
            }
            const std::string valueParameter = "args[" + std::to_string(i + 1) + "]";
            if (match->name == "--mca") {
                const std::string& key = inv.args[i + 1];
                if (std::find(kMcaKeys.begin(), kMcaKeys.end(), key) == kMcaKeys.end())
                    p.add(paramError(valueParameter, key, "--mca sets only pml, btl and plm_rsh_agent here"));
                else if (auto e = valueProblem(Option { "--mca", key == "plm_rsh_agent" ? Value::Path : Value::Word },
                             "args[" + std::to_string(i + 2) + "]", inv.args[i + 2]))
                    p.add(*e);
            } else if (auto e = valueProblem(*match, valueParameter, inv.args[i + 1])) {
                p.add(*e);
            }
            i += 1 + values;
        }
        return i;
    }

    void checkArguments(const ToolInvocation& inv, Problems& p)
    {
        if (isPerftestTool(inv.program)) {
            checkOptions(inv, 0, kPerftestOptions, inv.program, false, 1, p);
            return;
        }
        if (isNcclTestsTool(inv.program)) {
            checkOptions(inv, 0, kNcclTestsOptions, inv.program, false, 0, p);
            return;
        }
        const std::size_t program = inv.program == "mpirun" ? checkOptions(inv, 0, kMpirunOptions, inv.program, true, 0, p)
                                                            : checkOptions(inv, 0, kSrunOptions, inv.program, true, 0, p);
        if (p.any() || program >= inv.args.size())
            return; // nothing to launch: the launcher only reports (srun --version)
        const std::string& tool = inv.args[program];
        if (!isNcclTestsTool(tool)) {
            p.add(paramError("args[" + std::to_string(program) + "]", tool,
                inv.program + " starts only an nccl-tests tool (all_reduce_perf, all_gather_perf, reduce_scatter_perf), by its bare name"));
            return;
        }
        checkOptions(inv, program + 1, kNcclTestsOptions, tool, false, 0, p);
    }

} // namespace

bool isWhitelistedTool(std::string_view program)
{
    return isPerftestTool(program) || isNcclTestsTool(program) || isLauncherTool(program);
}

bool isPerftestTool(std::string_view program) { return contains(kPerftestTools, program); }

bool isNcclTestsTool(std::string_view program) { return contains(kNcclTestsTools, program); }

bool isLauncherTool(std::string_view program) { return contains(kLaunchers, program); }

std::optional<char> unsafeCharacter(std::string_view value)
{
    for (const char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        if (c <= 0x20 || c == 0x7f || c >= 0x80 || kShellMeta.find(ch) != std::string_view::npos)
            return ch;
    }
    return std::nullopt;
}

core::Status validateHostName(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 253)
        return paramError(parameter, value, "longer than 253 characters");
    if (const std::optional<char> bad = outside(value, ".-"))
        return paramError(parameter, value, "a host name has only letters, digits, '-' and '.', not " + describe(*bad));
    const std::vector<std::string_view> labels = split(value, '.');
    bool allNumeric = true;
    for (std::string_view label : labels) {
        if (label.empty())
            return paramError(parameter, value, "has an empty label (two dots, or a dot at either end)");
        if (label.size() > 63)
            return paramError(parameter, value, "has a label longer than 63 characters");
        if (label.front() == '-' || label.back() == '-')
            return paramError(parameter, value, "has a label that starts or ends with '-'");
        if (!std::all_of(label.begin(), label.end(), isDigit))
            allNumeric = false;
    }
    if (allNumeric && !isIpv4(value))
        return paramError(parameter, value, "is neither a host name nor an IPv4 address (four numbers 0..255)");
    return {};
}

core::Status validateRdmaDevice(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 64)
        return paramError(parameter, value, "an RDMA device name has at most 64 characters");
    if (const std::optional<char> bad = outside(value, "_.-"))
        return paramError(parameter, value, "an RDMA device name has only letters, digits, '_', '.' and '-', not " + describe(*bad));
    return {};
}

core::Status validateNetdevName(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 15)
        return paramError(parameter, value, "a network interface name has at most 15 characters");
    if (value == "." || value == "..")
        return paramError(parameter, value, "is no interface name");
    if (const std::optional<char> bad = outside(value, "_.-"))
        return paramError(parameter, value, "an interface name has only letters, digits, '_', '.' and '-', not " + describe(*bad));
    return {};
}

core::Status validateInRange(std::string_view parameter, long long value, long long min, long long max)
{
    if (value < min || value > max)
        return core::Error { "LAUNCH_PARAM",
            std::string(parameter) + ": must be from " + std::to_string(min) + " to " + std::to_string(max) + ", got "
                + std::to_string(value),
            std::string(parameter), {} };
    return {};
}

core::Result<std::uint64_t> parseByteSize(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    std::string_view digits = value;
    std::uint64_t unit = 1;
    switch (value.back()) {
    case 'K': case 'k': unit = 1024; break;
    case 'M': case 'm': unit = 1024 * 1024; break;
    case 'G': case 'g': unit = 1024 * 1024 * 1024; break;
    default: break;
    }
    if (unit != 1)
        digits.remove_suffix(1);
    if (digits.empty() || digits.size() > 12 || !std::all_of(digits.begin(), digits.end(), isDigit))
        return paramError(parameter, value, "a size is decimal digits with an optional K, M or G suffix");
    std::uint64_t n = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (n == 0 || n > kMaxBytes / unit)
        return paramError(parameter, value, "a size is from 1 byte to 16G (2^34 bytes)");
    return n * unit;
}

core::Status validateFilePath(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 4096)
        return paramError(parameter, value, "longer than 4096 characters");
    if (const std::optional<char> bad = outside(value, "_./+-"))
        return paramError(parameter, value, "a path here has only letters, digits and _ . / + -, not " + describe(*bad));
    for (std::string_view part : split(value, '/'))
        if (part == "..")
            return paramError(parameter, value, "has a '..' component");
    return {};
}

core::Status validateNcclEnv(std::string_view name, std::string_view value)
{
    if (name.size() <= 5 || name.substr(0, 5) != "NCCL_" || name.size() > 64
        || std::any_of(name.begin(), name.end(), [](char c) { return !((c >= 'A' && c <= 'Z') || isDigit(c) || c == '_'); }))
        return core::Error { "LAUNCH_PARAM",
            "environment: refused the variable name " + shown(name) + ": only NCCL_ followed by A-Z, 0-9 and '_' may be set",
            std::string(name).empty() ? std::string("environment") : std::string(name), {} };
    const std::string parameter = std::string(name);
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 256)
        return paramError(parameter, value, "longer than 256 characters");
    if (const std::optional<char> bad = outside(value, "_.,:=^+/-"))
        return paramError(parameter, value, "an NCCL value here has only letters, digits and _ . , : = ^ + / -, not " + describe(*bad));
    return {};
}

core::Status checkInvocation(const ToolInvocation& invocation)
{
    Problems p;
    if (!isWhitelistedTool(invocation.program))
        p.add(core::Error { "LAUNCH_TOOL", "program " + shown(invocation.program) + " is not in the launch whitelist",
            "program", {} });
    if (invocation.role != "server" && invocation.role != "client" && invocation.role != "launcher")
        p.add(paramError("role", invocation.role, "must be server, client or launcher"));
    if (!invocation.host.empty())
        p.add(validateHostName("host", invocation.host));
    for (std::size_t i = 0; i < invocation.args.size(); ++i) {
        const std::string& a = invocation.args[i];
        const std::string parameter = "args[" + std::to_string(i) + "]";
        if (a.empty() || a.size() > 4096)
            p.add(paramError(parameter, a, "an argument has 1 to 4096 characters"));
        else if (const std::optional<char> bad = outside(a, "_.,:=/+-"))
            p.add(paramError(parameter, a, "an argument has only letters, digits and _ . , : = / + -, not " + describe(*bad)));
    }
    for (const auto& [name, value] : invocation.env)
        p.add(validateNcclEnv(name, value));
    if (!p.any() && isWhitelistedTool(invocation.program))
        checkArguments(invocation, p);
    if (p.any())
        return p.errors;
    return {};
}

std::vector<std::string> launcherHelpers(const ToolInvocation& invocation)
{
    std::vector<std::string> helpers;
    if (invocation.program != "mpirun")
        return helpers;
    for (std::size_t i = 0; i + 2 < invocation.args.size(); ++i)
        if (invocation.args[i] == "--mca" && invocation.args[i + 1] == "plm_rsh_agent")
            helpers.push_back(invocation.args[i + 2]);
    return helpers;
}

std::string displayCommand(const ToolInvocation& invocation)
{
    std::string out;
    for (const auto& [name, value] : invocation.env)
        out += name + "=" + shellWord(value) + " ";
    out += shellWord(invocation.program);
    for (const std::string& a : invocation.args)
        out += " " + shellWord(a);
    return out;
}
} // namespace railyard::live
