// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/tool_invocation.h"

#include <algorithm>
#include <array>
#include <charconv>

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
    if (p.any())
        return p.errors;
    return {};
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
