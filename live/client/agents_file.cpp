// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `agents.json` and bearer token files.
#include "live/client/agent_client.h"
#include "core/text.h"
#include "live/common/bearer_token.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace railyard::live {

namespace {

    using nlohmann::json;

    core::Result<std::string> readWholeFile(const std::filesystem::path& path, const char* what)
    {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            return core::Error { "FILE_UNREADABLE", std::string("cannot read ") + what + ": it is a folder",
                path.string(), "give the path of the file" };
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return core::Error { "FILE_UNREADABLE", std::string("cannot read ") + what + ": " + std::strerror(errno),
                path.string(), "check the path and its permissions" };
        std::ostringstream text;
        text << in.rdbuf();
        if (in.bad())
            return core::Error { "FILE_UNREADABLE", std::string("read error in ") + what, path.string(), "" };
        return text.str();
    }

    /// 1-based line and column of byte `offset` in `text`.
    std::string lineColumn(std::string_view text, std::size_t offset)
    {
        offset = std::min(offset, text.size());
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < offset; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return "line " + std::to_string(line) + ", column " + std::to_string(column);
    }

    std::string_view typeName(const json& value)
    {
        switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "a list";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "true/false";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        default: return "something else";
        }
    }

    bool isHttpUrl(std::string_view url)
    {
        constexpr std::string_view scheme = "http://";
        return url.size() > scheme.size() && core::startsWithIgnoreCase(url, scheme);
    }

} // namespace

core::Result<AgentsFile> readAgentsFile(const std::filesystem::path& path)
{
    core::Result<std::string> text = readWholeFile(path, "the agents file");
    if (!text)
        return text.errors();
    return parseAgentsFile(*text, path);
}

core::Result<AgentsFile> parseAgentsFile(std::string_view text, const std::filesystem::path& path)
{
    const std::string where = path.string();
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return core::Error { "AGENTS_FILE", "not valid JSON at " + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0),
            where, "agents.json is { \"token_file\": \"...\", \"agents\": [ { \"node\": \"node001\", \"url\": \"http://ADDR:PORT\" } ] }" };
    } catch (const json::exception& e) {
        // out_of_range 406: a number past a double's range ("1e400"), found while parsing.
        return core::Error { "AGENTS_FILE", std::string("not valid JSON: ") + e.what(), where,
            "agents.json is { \"token_file\": \"...\", \"agents\": [ { \"node\": \"node001\", \"url\": \"http://ADDR:PORT\" } ] }" };
    }
    if (!doc.is_object())
        return core::Error { "AGENTS_FILE", "must be a JSON object, got " + std::string(typeName(doc)), where,
            "agents.json is { \"token_file\": \"...\", \"agents\": [ ... ] }" };

    core::Errors errors;
    auto fieldError = [&](const std::string& field, const std::string& message, const std::string& hint = {}) {
        errors.push_back({ "AGENTS_FILE", field + ": " + message, where, hint });
    };

    AgentsFile out;
    if (const auto it = doc.find("token_file"); it != doc.end() && !it->is_null()) {
        if (!it->is_string() || it->get<std::string>().empty()) {
            fieldError("token_file", "must be a non-empty string (a path), got " + std::string(typeName(*it)));
        } else {
            std::filesystem::path token = it->get<std::string>();
            if (token.is_relative())
                token = path.parent_path() / token;
            out.tokenFile = token.lexically_normal();
        }
    }

    const auto agents = doc.find("agents");
    if (agents == doc.end()) {
        fieldError("agents", "missing", "list the agents: \"agents\": [ { \"node\": \"node001\", \"url\": \"http://ADDR:PORT\" } ]");
        return errors;
    }
    if (!agents->is_array()) {
        fieldError("agents", "must be a list, got " + std::string(typeName(*agents)));
        return errors;
    }

    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < agents->size(); ++i) {
        const json& entry = (*agents)[i];
        const std::string field = "agents[" + std::to_string(i) + "]";
        if (!entry.is_object()) {
            fieldError(field, "must be an object { \"node\", \"url\" }, got " + std::string(typeName(entry)));
            continue;
        }
        AgentEndpoint agent;
        const auto node = entry.find("node");
        if (node == entry.end())
            fieldError(field + ".node", "missing", "give the plan's name of the node (\"node001\")");
        else if (!node->is_string() || node->get<std::string>().empty())
            fieldError(field + ".node", "must be a non-empty string, got " + std::string(typeName(*node)));
        else
            agent.node = node->get<std::string>();

        const auto url = entry.find("url");
        if (url == entry.end())
            fieldError(field + ".url", "missing", "give the agent's address, e.g. \"http://10.0.0.7:9473\"");
        else if (!url->is_string())
            fieldError(field + ".url", "must be a string, got " + std::string(typeName(*url)));
        else if (!isHttpUrl(url->get<std::string>()))
            fieldError(field + ".url", "must be an http:// URL, got \"" + url->get<std::string>() + "\"",
                "the agent speaks plain HTTP: \"http://ADDR:PORT\"");
        else
            agent.url = url->get<std::string>();

        if (agent.node.empty() || agent.url.empty())
            continue;
        if (const auto [it, inserted] = seen.emplace(agent.node, i); !inserted) {
            fieldError(field + ".node", agent.node + " is listed twice (also agents[" + std::to_string(it->second) + "])",
                "keep one entry per node");
            continue;
        }
        out.agents.push_back(std::move(agent));
    }
    if (!errors.empty())
        return errors;
    return out;
}

core::Result<std::string> readTokenFile(const std::filesystem::path& path)
{
    core::Result<std::string> text = readWholeFile(path, "the token file");
    if (!text)
        return text.errors();
    return parseBearerToken(*text, path.string());
}

} // namespace railyard::live
