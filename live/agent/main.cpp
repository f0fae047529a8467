// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-agent: serves one node's inventory and counters over HTTP (interfaces.md §4), and runs
// whitelisted test programs on request. Wiring only: the reading is NodeReader's, the serving and
// the tests AgentServer's.
#include "core/catalog.h"
#include "live/common/bearer_token.h"
#include "live/node/agent_server.h"
#include "live/node/node_reader.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <pthread.h>
#include <sys/stat.h>

#ifndef RAILYARD_VERSION
#define RAILYARD_VERSION "unknown"
#endif

namespace {

using namespace railyard;

constexpr int kExitOk = 0;
constexpr int kExitCannotServe = 1;
constexpr int kExitBadInput = 2;

constexpr const char* kDescription
    = "railyard-agent: serves this node's RDMA inventory and counters over HTTP/1.1, and runs test programs.\n"
      "  GET /v1/inventory, /v1/counters  JSON, need \"Authorization: Bearer <token>\" (the token of --token-file)\n"
      "  POST /v1/tests                   starts a whitelisted test program from --tools-dir (perftest ib_*_bw/lat,\n"
      "                                   nccl-tests *_perf, mpirun, srun): {\"program\", \"args\": [...], \"env\": {NCCL_*},\n"
      "                                   \"timeout_s\"}; GET /v1/tests[/ID[?offset=N]] its state and output;\n"
      "                                   DELETE /v1/tests/ID ends it (token needed, as for all of /v1/ but health)\n"
      "  GET /v1/health                   JSON, no token\n"
      "  GET /metrics                     Prometheus text format (railyard_* metrics), no token";

constexpr const char* kFooter
    = "The token file must not be readable or writable by others (chmod 600 or 640 with a dedicated group);\n"
      "the agent refuses to start otherwise. Without --token-file the JSON API refuses every request.\n"
      "Tests run as TOOLS-DIR/<program> (never through PATH or a shell; arguments without shell metacharacters;\n"
      "only NCCL_* variables added), at most 16 at once; stopping the agent ends every running test.\n"
      "Stop with SIGINT or SIGTERM. Exit status: 0 stopped cleanly, 1 could not serve (e.g. the address is\n"
      "in use), 2 bad input.";

struct Listen {
    std::string address;
    int port = 0;
};

// "127.0.0.1:9473", "[::1]:9473", "0.0.0.0:0" (0: any free port).
std::optional<Listen> parseListen(const std::string& text)
{
    std::string host;
    std::string portText;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return std::nullopt;
        host = text.substr(1, close - 1);
        portText = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string::npos || text.find(':') != colon)
            return std::nullopt; // none, or a bare IPv6 address without brackets
        host = text.substr(0, colon);
        portText = text.substr(colon + 1);
    }
    if (host.empty() || portText.empty() || portText.size() > 5
        || portText.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const int port = std::stoi(portText);
    if (port > 65535)
        return std::nullopt;
    return Listen { host, port };
}

// Reads the bearer token; refuses a file that others may read or write.
std::optional<std::string> readToken(const std::string& path, std::string& error)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = "--token-file " + path + ": cannot read it (" + std::strerror(errno) + ")";
        return std::nullopt;
    }
    if (!S_ISREG(st.st_mode)) {
        error = "--token-file " + path + ": not a regular file";
        return std::nullopt;
    }
    if ((st.st_mode & (S_IROTH | S_IWOTH)) != 0) {
        std::ostringstream mode;
        mode << std::oct << (st.st_mode & 0777);
        error = "--token-file " + path + ": other users may read or write it (mode " + mode.str()
            + "), so anyone on this host could use the agent's API; run: chmod o-rwx " + path;
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "--token-file " + path + ": cannot open it (" + std::strerror(errno) + ")";
        return std::nullopt;
    }
    std::string firstLine; // the token is on it; nothing more is read
    std::getline(in, firstLine);
    core::Result<std::string> token = live::parseBearerToken(firstLine, path);
    if (!token) {
        error = "--token-file " + token.error().toString();
        return std::nullopt;
    }
    return std::move(token).value();
}

std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ',')) {
        if (!item.empty())
            out.push_back(item);
    }
    return out;
}

// The rail map of a catalog node type, or an error listing the known ids.
std::optional<std::vector<std::string>> railMapOf(const std::string& nodeType, std::string& error)
{
    const auto catalog = core::Catalog::builtin();
    if (!catalog) {
        error = "the built-in catalog does not load: " + catalog.error().toString();
        return std::nullopt;
    }
    const core::NodeType* type = catalog->findNodeType(nodeType);
    if (!type) {
        std::string known;
        for (const core::NodeType& t : catalog->nodeTypes())
            known += (known.empty() ? "" : ", ") + t.id;
        error = "--node-type " + nodeType + ": no such node type in the catalog (known: " + known + ")";
        return std::nullopt;
    }
    return type->railMap;
}

struct Options {
    std::string sysfsRoot = "/sys";
    std::string listen = "127.0.0.1:9473";
    std::string tokenFile;
    std::string node;
    std::string nodeType;
    std::string railMap;
    std::string emulated;
    std::string toolsDir = "/usr/bin";
    int threads = 2;
};

int serve(const Options& o)
{
    const auto listen = parseListen(o.listen);
    if (!listen) {
        std::cerr << "error: --listen " << o.listen << ": expected ADDRESS:PORT, e.g. 127.0.0.1:9473 or [::1]:9473\n";
        return kExitBadInput;
    }
    live::NodeOptions nodeOptions;
    nodeOptions.sysfsRoot = o.sysfsRoot;
    nodeOptions.node = o.node;
    nodeOptions.nodeType = o.nodeType;
    std::string error;
    if (!o.nodeType.empty()) {
        auto map = railMapOf(o.nodeType, error);
        if (!map) {
            std::cerr << "error: " << error << '\n';
            return kExitBadInput;
        }
        nodeOptions.railMap = std::move(*map);
    }
    if (!o.railMap.empty())
        nodeOptions.railMap = splitCommas(o.railMap);

    live::AgentConfig config;
    config.listenAddress = listen->address;
    config.port = listen->port;
    config.threads = o.threads;
    config.toolsDir = o.toolsDir;
    if (!o.tokenFile.empty()) {
        auto token = readToken(o.tokenFile, error);
        if (!token) {
            std::cerr << "error: " << error << '\n';
            return kExitBadInput;
        }
        config.token = std::move(*token);
    }

    live::NodeSources sources = o.emulated.empty() ? live::hostSources() : live::emulatedSources(o.emulated);
    auto reader = std::make_shared<const live::NodeReader>(std::move(nodeOptions), std::move(sources));
    live::AgentServer server(config, reader);

    // Block the stop signals before any thread starts, so that every thread inherits the mask
    // and only sigwait() below receives them.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    if (core::Status s = server.start(); !s) {
        std::cerr << "error: " << s.error().toString() << '\n';
        return kExitCannotServe;
    }
    const std::string host = listen->address.find(':') != std::string::npos ? "[" + listen->address + "]" : listen->address;
    // One write, so that whoever reads the log (the emulator, a test) never sees half a line.
    std::ostringstream line;
    line << "railyard-agent " << RAILYARD_VERSION << ": listening on http://" << host << ':' << server.port()
         << " for node " << (reader->options().node.empty() ? "(hostname)" : reader->options().node) << ", sysfs "
         << o.sysfsRoot << (o.emulated.empty() ? "" : ", emulated sources " + o.emulated) << ", tools " << o.toolsDir << ", "
         << config.threads
         << " threads, " << (config.token.empty() ? "no token: the JSON API refuses every request" : "token from " + o.tokenFile)
         << '\n';
    std::cerr << line.str() << std::flush;

    int received = 0;
    sigwait(&stopSignals, &received);
    server.stop();
    std::cerr << "railyard-agent: stopped (" << (received == SIGINT ? "SIGINT" : "SIGTERM") << ")" << std::endl;
    return kExitOk;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app(kDescription, "railyard-agent");
    app.footer(kFooter);
    app.set_version_flag("--version", std::string("railyard-agent ") + RAILYARD_VERSION);
    Options o;
    app.add_option("--sysfs-root", o.sysfsRoot, "Root of the sysfs tree to read (an emulated node's tree, or the real one)")
        ->capture_default_str()
        ->check(CLI::ExistingDirectory);
    app.add_option("--listen", o.listen, "Address and port to serve on: ADDRESS:PORT, [IPv6]:PORT; port 0 picks a free port")
        ->type_name("ADDR:PORT")
        ->capture_default_str();
    app.add_option("--token-file", o.tokenFile, "File whose first line is the bearer token of the JSON API (not readable by others)")
        ->type_name("FILE");
    app.add_option("--node", o.node, "The plan's name for this node (default: the hostname)")->type_name("NAME");
    app.add_option("--node-type", o.nodeType, "Catalog node type id (e.g. dgx-h100): its rail map says which device serves which rail")
        ->type_name("ID");
    app.add_option("--rail-map", o.railMap, "Devices or PCI addresses of rails 0, 1, ... (mlx5_0,mlx5_3,...); overrides --node-type")
        ->type_name("LIST");
    app.add_option("--emulated", o.emulated,
           "Read DCB, ethtool, LLDP and GPU-driver data from the emulator's files in DIR instead of this host")
        ->check(CLI::ExistingDirectory);
    app.add_option("--tools-dir", o.toolsDir,
           "Folder of the test programs POST /v1/tests may start (DIR/<program>, whitelisted names only; no PATH search)")
        ->capture_default_str()
        ->check(CLI::ExistingDirectory);
    app.add_option("--threads", o.threads, "Worker threads serving requests")->type_name("N")->capture_default_str()->check(CLI::Range(1, 64));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
            return app.exit(e);
        std::cerr << "error: " << e.what() << "\nRun with --help for more information.\n";
        return kExitBadInput;
    }
    try {
        return serve(o);
    } catch (const std::exception& e) {
        std::cerr << "error: internal: " << e.what() << '\n';
        return kExitCannotServe;
    }
}
