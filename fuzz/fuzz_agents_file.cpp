// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What the operator gives the client to reach the agents: agents.json (live/client/agent_client.h,
// parseAgentsFile) and a token file (live/common/bearer_token.h, parseBearerToken, which the
// agent and the emulator read their --token-file with too). Byte 0 picks: even, the agents file;
// odd, a token file. Checked: an accepted agents file has one entry per node, each with an
// http:// URL, and written back as agents.json reads back the same; every error names the file,
// has the reader's code and dumps as JSON; a token is accepted exactly when the first line,
// trimmed, is one word of visible ASCII, and is then that word.
#include "live/client/agent_client.h"
#include "live/common/bearer_token.h"
#include "fuzz/fuzz_support.h"

#include <cctype>
#include <set>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_agents_file";
const std::filesystem::path kPath = "/etc/railyard/agents.json";

void checkErrors(const core::Errors& errors, std::string_view code, const std::string& where)
{
    nlohmann::json messages = nlohmann::json::array();
    for (const core::Error& e : errors) {
        RAILYARD_FUZZ_CHECK(kTarget, e.code == code, e.code + ": " + e.message);
        RAILYARD_FUZZ_CHECK(kTarget, e.where == where, e.where);
        RAILYARD_FUZZ_CHECK(kTarget, !e.message.empty(), e.code);
        messages.push_back(e.toString());
    }
    (void)fuzz::dumpAsCli(messages);
}

bool isHttpUrl(const std::string& url)
{
    if (url.size() <= 7)
        return false;
    for (std::size_t i = 0; i < 7; ++i) {
        if (static_cast<char>(std::tolower(static_cast<unsigned char>(url[i]))) != "http://"[i])
            return false;
    }
    return true;
}

void agentsFile(std::string_view text)
{
    const core::Result<live::AgentsFile> read = live::parseAgentsFile(text, kPath);
    if (!read) {
        checkErrors(read.errors(), "AGENTS_FILE", kPath.string());
        return;
    }
    std::set<std::string> nodes;
    nlohmann::json written = { { "agents", nlohmann::json::array() } };
    for (const live::AgentEndpoint& agent : read->agents) {
        RAILYARD_FUZZ_CHECK(kTarget, !agent.node.empty(), agent.url);
        RAILYARD_FUZZ_CHECK(kTarget, nodes.insert(agent.node).second, agent.node + " twice");
        RAILYARD_FUZZ_CHECK(kTarget, isHttpUrl(agent.url), agent.url);
        written["agents"].push_back({ { "node", agent.node }, { "url", agent.url } });
    }
    if (!read->tokenFile.empty()) {
        RAILYARD_FUZZ_CHECK(kTarget, read->tokenFile == read->tokenFile.lexically_normal(), read->tokenFile.string());
        written["token_file"] = read->tokenFile.string();
    }
    const core::Result<live::AgentsFile> again = live::parseAgentsFile(fuzz::dumpAsCli(written), kPath);
    RAILYARD_FUZZ_CHECK(kTarget, again.ok(), "written back, refused: " + (again ? std::string() : again.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, again->tokenFile == read->tokenFile, again->tokenFile.string());
    RAILYARD_FUZZ_CHECK(kTarget, again->agents.size() == read->agents.size(), "a different count written back");
    for (std::size_t i = 0; i < read->agents.size(); ++i) {
        RAILYARD_FUZZ_CHECK(kTarget, again->agents[i].node == read->agents[i].node && again->agents[i].url == read->agents[i].url,
            read->agents[i].node);
    }
}

void tokenFile(std::string_view text)
{
    const std::string where = "/etc/railyard/token";
    const core::Result<std::string> token = live::parseBearerToken(text, where);
    // The rule, stated apart from the reader: the first line, blanks around it trimmed, one word
    // of '!' to '~'.
    std::string_view line = text.substr(0, text.find('\n'));
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    while (!line.empty() && blank(line.front()))
        line.remove_prefix(1);
    while (!line.empty() && blank(line.back()))
        line.remove_suffix(1);
    bool word = !line.empty();
    for (const char c : line)
        word = word && static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) <= 0x7e;
    RAILYARD_FUZZ_CHECK(kTarget, token.ok() == word, token ? "accepted: " + *token : "refused: " + token.error().message);
    if (token)
        RAILYARD_FUZZ_CHECK(kTarget, *token == line, *token);
    else
        checkErrors(token.errors(), "TOKEN_FILE", where);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    if (data[0] % 2 == 0)
        agentsFile(text);
    else
        tokenFile(text);
    return 0;
}
