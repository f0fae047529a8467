// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/agent_server.h"

#include "core/text.h"
#include "live/common/counters_compact.h"
#include "live/common/inventory_json.h"
#include "live/common/rate.h"
#include "live/common/subprocess.h"
#include "live/common/tool_invocation.h"
#include "live/node/sysfs_read.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <functional>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace railyard::live {

namespace {

    constexpr const char* kJson = "application/json";
    constexpr const char* kPrometheus = "text/plain; version=0.0.4; charset=utf-8";
    constexpr std::size_t kMaxBody = 64 * 1024; // POST /v1/tests only; every other request is answered before its body is read

    // Compares in time that depends only on the lengths, never on where the first difference is.
    bool constantTimeEquals(std::string_view a, std::string_view b)
    {
        const std::size_t n = a.size() > b.size() ? a.size() : b.size();
        unsigned diff = a.size() == b.size() ? 0u : 1u;
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
            const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
            diff |= static_cast<unsigned>(x ^ y);
        }
        return diff == 0;
    }

    // The token of an "Authorization: Bearer <token>" header; empty when there is none.
    std::string_view bearerToken(std::string_view header)
    {
        constexpr std::string_view kScheme = "bearer";
        if (header.size() <= kScheme.size() || !core::startsWithIgnoreCase(header, kScheme) || header[kScheme.size()] != ' ')
            return {};
        std::string_view token = header.substr(kScheme.size() + 1);
        while (!token.empty() && token.front() == ' ')
            token.remove_prefix(1);
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t'))
            token.remove_suffix(1);
        return token;
    }

    // Text that is not UTF-8 (a test's output, a sysfs file) is sent with U+FFFD in its place.
    std::string dumpJson(const nlohmann::json& doc)
    {
        return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }

    void sendError(httplib::Response& res, int status, std::string_view code, std::string_view message,
        nlohmann::json extra = nlohmann::json::object())
    {
        res.status = status;
        nlohmann::json error = { { "code", code }, { "message", message } };
        error.update(extra);
        const nlohmann::json body = { { "api_version", kApiVersion }, { "error", std::move(error) } };
        res.set_content(dumpJson(body), kJson);
    }

    void sendJson(httplib::Response& res, const nlohmann::json& doc, int status = 200)
    {
        res.status = status;
        res.set_content(dumpJson(doc), kJson);
    }

    std::string hostName()
    {
        char buf[256] = {};
        if (::gethostname(buf, sizeof buf - 1) != 0)
            return {};
        return buf;
    }

    // "4: ACTIVE" -> {4, "ACTIVE"}; {0, ""} when the text has no leading number.
    std::pair<int, std::string> numberedName(std::string_view text)
    {
        int value = 0;
        std::size_t i = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && value < 1000; ++i)
            value = value * 10 + (text[i] - '0');
        if (i == 0)
            return { 0, {} };
        std::string_view rest = text.substr(i);
        while (!rest.empty() && (rest.front() == ':' || rest.front() == ' '))
            rest.remove_prefix(1);
        return { value, std::string(rest) };
    }

    // Re-reads what changes while a node runs (port state, physical state, rate) into an
    // inventory that may be some seconds old. An unreadable port says "unknown" (0), never
    // what it said before.
    void refreshPortState(Inventory& inv, const std::string& sysfsRoot)
    {
        std::string text;
        for (RdmaDevice& d : inv.devices) {
            for (RdmaPort& p : d.ports) {
                const std::string base = sysfsRoot + "/class/infiniband/" + d.name + "/ports/" + std::to_string(p.number) + "/";
                if (sysfs::readText(base + "state", text))
                    std::tie(p.state, p.stateName) = numberedName(text);
                else
                    std::tie(p.state, p.stateName) = std::pair<int, std::string> { 0, {} };
                if (sysfs::readText(base + "phys_state", text))
                    std::tie(p.physState, p.physStateName) = numberedName(text);
                else
                    std::tie(p.physState, p.physStateName) = std::pair<int, std::string> { 0, {} };
                p.rateText.clear();
                p.rateGbps = 0;
                p.width = 0;
                p.generation.clear();
                if (sysfs::readText(base + "rate", p.rateText)) {
                    if (const auto rate = parseRateText(p.rateText)) {
                        p.rateGbps = rate->gbps;
                        p.width = rate->width;
                        p.generation = rate->generation;
                    }
                }
            }
        }
    }

    enum class Endpoint { Health, Metrics, Inventory, Counters, Tests, Test, Unknown };

    Endpoint endpointOf(std::string_view path)
    {
        if (path == "/v1/health")
            return Endpoint::Health;
        if (path == "/metrics")
            return Endpoint::Metrics;
        if (path == "/v1/inventory")
            return Endpoint::Inventory;
        if (path == "/v1/counters")
            return Endpoint::Counters;
        if (path == "/v1/tests")
            return Endpoint::Tests;
        if (path.rfind("/v1/tests/", 0) == 0)
            return Endpoint::Test;
        return Endpoint::Unknown;
    }

    const char* allowedMethods(Endpoint route)
    {
        return route == Endpoint::Tests ? "GET, HEAD, POST" : route == Endpoint::Test ? "GET, HEAD, DELETE" : "GET, HEAD";
    }

    bool methodAllowed(Endpoint route, const std::string& method)
    {
        return method == "GET" || method == "HEAD" || (route == Endpoint::Tests && method == "POST")
            || (route == Endpoint::Test && method == "DELETE");
    }

    // What cpp-httplib answers by itself (a body too large, a request it cannot read), in the
    // agent's JSON error form.
    std::pair<const char*, std::string> httpErrorOf(int status)
    {
        switch (status) {
        case 400: return { "BAD_REQUEST", "the request could not be read" };
        case 413: return { "PAYLOAD_TOO_LARGE", "the request body is larger than " + std::to_string(kMaxBody / 1024) + " KiB" };
        case 414: return { "URI_TOO_LONG", "the request path is too long" };
        default: return { "HTTP_ERROR", "HTTP status " + std::to_string(status) };
        }
    }

} // namespace

// --- /v1/tests: whitelisted test programs run on request, read while they run, cancelled.

namespace {

    using namespace std::chrono_literals;
    using SteadyTime = std::chrono::steady_clock::time_point;

    constexpr std::size_t kMaxTestArgs = 128;
    constexpr std::size_t kMaxRunningTests = 16;
    constexpr std::size_t kKeptFinishedTests = 64;
    constexpr std::size_t kMaxTestOutput = std::size_t(16) << 20;
    constexpr std::size_t kMaxOutputPerAnswer = std::size_t(1) << 20;
    constexpr long long kDefaultTestTimeoutS = 600;
    constexpr long long kMaxTestTimeoutS = 86400;
    constexpr auto kKillGrace = 2s;
    constexpr int kSupervisorTickMs = 50; // exits and timeouts are seen this soon

    enum class TestState { Running, Exited, Killed, TimedOut, FailedToStart };

    const char* stateName(TestState state)
    {
        switch (state) {
        case TestState::Running: return "running";
        case TestState::Exited: return "exited";
        case TestState::Killed: return "killed";
        case TestState::TimedOut: return "timed_out";
        case TestState::FailedToStart: return "failed_to_start";
        }
        return "unknown";
    }

    long long wallMs()
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    }

    struct TestRequest {
        ToolInvocation invocation;
        long long timeoutS = kDefaultTestTimeoutS;
    };

    core::Error badField(std::string field, std::string message)
    {
        return core::Error { "BAD_REQUEST", std::move(message), std::move(field), {} };
    }

    // A JSON value as a message quotes it: compact, cut at 60 characters.
    std::string shownJson(const nlohmann::json& value)
    {
        std::string text = dumpJson(value);
        text.pop_back(); // the newline
        return text.size() > 60 ? std::string(core::utf8Prefix(text, 60)) + "..." : text;
    }

    // The request field a checkInvocation error is about ("program", "args[3]", "env.NCCL_X").
    std::string fieldOf(const core::Error& e)
    {
        if (e.where == "program" || e.where == "role" || e.where.rfind("args[", 0) == 0)
            return e.where;
        return e.where == "environment" ? std::string("env") : "env." + e.where;
    }

    void parseArgs(const nlohmann::json& value, ToolInvocation& out, core::Errors& errors)
    {
        if (!value.is_array()) {
            errors.push_back(badField("args", "args: must be an array of strings, got " + shownJson(value)));
            return;
        }
        if (value.size() > kMaxTestArgs) {
            errors.push_back(badField("args", "args: at most " + std::to_string(kMaxTestArgs) + " arguments, got " + std::to_string(value.size())));
            return;
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string field = "args[" + std::to_string(i) + "]";
            if (value[i].is_string())
                out.args.push_back(value[i].get<std::string>());
            else
                errors.push_back(badField(field, field + ": must be a string, got " + shownJson(value[i])));
        }
    }

    void parseEnv(const nlohmann::json& value, ToolInvocation& out, core::Errors& errors)
    {
        if (!value.is_object()) {
            errors.push_back(badField("env", "env: must be an object of NCCL_* names and string values, got " + shownJson(value)));
            return;
        }
        for (const auto& [name, v] : value.items()) {
            if (v.is_string())
                out.env.emplace_back(name, v.get<std::string>());
            else
                errors.push_back(badField("env." + name, "env." + name + ": must be a string, got " + shownJson(v)));
        }
    }

    // 1..kMaxTestTimeoutS whole seconds (a number past LLONG_MAX reads as negative: refused too).
    std::optional<long long> parseTimeout(const nlohmann::json& value)
    {
        if (!value.is_number_integer())
            return std::nullopt;
        const auto seconds = value.get<long long>();
        if (seconds < 1 || seconds > kMaxTestTimeoutS)
            return std::nullopt;
        return seconds;
    }

    // POST /v1/tests's body, checked field by field and then by checkInvocation (the last gate).
    // Every error names its field (`where`).
    core::Result<TestRequest> parseTestRequest(const std::string& body)
    {
        const nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
        if (doc.is_discarded())
            return badField("body", "body: not a JSON document");
        if (!doc.is_object())
            return badField("body", "body: must be a JSON object {\"program\": ..., \"args\": [...], \"env\": {...}, \"timeout_s\": ...}");
        TestRequest r;
        r.invocation.role = "launcher";
        core::Errors errors;
        for (const auto& [key, value] : doc.items()) {
            if (key == "program") {
                if (value.is_string())
                    r.invocation.program = value.get<std::string>();
                else
                    errors.push_back(badField(key, "program: must be a string (a whitelisted tool name), got " + shownJson(value)));
            } else if (key == "args") {
                parseArgs(value, r.invocation, errors);
            } else if (key == "env") {
                parseEnv(value, r.invocation, errors);
            } else if (key == "timeout_s") {
                if (const std::optional<long long> t = parseTimeout(value))
                    r.timeoutS = *t;
                else
                    errors.push_back(badField(key, "timeout_s: must be a whole number of seconds from 1 to " + std::to_string(kMaxTestTimeoutS)
                            + ", got " + shownJson(value)));
            } else if (key == "role") {
                if (value.is_string())
                    r.invocation.role = value.get<std::string>();
                else
                    errors.push_back(badField(key, "role: must be a string (server, client or launcher), got " + shownJson(value)));
            } else {
                errors.push_back(badField(key, "unknown field " + launch_detail::shown(key)
                        + " (a test request has program, args, env, timeout_s and role)"));
            }
        }
        if (!doc.contains("program"))
            errors.push_back(badField("program", "program: missing (a whitelisted tool name, e.g. ib_write_bw)"));
        if (!errors.empty())
            return errors;
        if (const core::Status checked = checkInvocation(r.invocation); !checked) {
            for (const core::Error& e : checked.errors())
                errors.push_back(badField(fieldOf(e), e.message));
            return errors;
        }
        return r;
    }

    struct TestRecord {
        std::string id;
        ToolInvocation invocation;
        long long timeoutS = 0;
        TestState state = TestState::Running;
        std::unique_ptr<ChildProcess> child; ///< until it and what it left in its group are reaped
        pid_t pid = -1;
        std::optional<int> exitStatus;
        std::optional<int> signal;
        std::string error; ///< failed_to_start: why
        std::string output; ///< stdout and stderr, at most kMaxTestOutput bytes
        bool outputTruncated = false;
        long long startedMs = 0;
        std::optional<long long> endedMs;
        SteadyTime deadline;
        std::optional<SteadyTime> killAt; ///< SIGKILL then, when it still runs
        bool cancelRequested = false;
        bool timedOut = false;
        std::uint64_t endOrder = 0; ///< the order of ending, to keep the last finished ones
    };

    nlohmann::json nullable(const std::optional<int>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

    // The test without its output.
    nlohmann::json testJson(const TestRecord& t)
    {
        nlohmann::json env = nlohmann::json::object();
        for (const auto& [name, value] : t.invocation.env)
            env[name] = value;
        nlohmann::json j = { { "id", t.id }, { "program", t.invocation.program }, { "args", t.invocation.args }, { "env", env },
            { "role", t.invocation.role }, { "state", stateName(t.state) }, { "exit_status", nullable(t.exitStatus) },
            { "signal", nullable(t.signal) }, { "pid", t.pid > 0 ? nlohmann::json(t.pid) : nlohmann::json(nullptr) },
            { "timeout_s", t.timeoutS }, { "started_ms", t.startedMs },
            { "ended_ms", t.endedMs ? nlohmann::json(*t.endedMs) : nlohmann::json(nullptr) }, { "output_bytes", t.output.size() },
            { "output_truncated", t.outputTruncated } };
        if (!t.error.empty())
            j["error"] = t.error;
        return j;
    }

    // Where a slice [begin, end) of UTF-8 text should end so that it does not split a character
    // whose remaining bytes may still come: before the last character when that one is incomplete.
    std::size_t utf8Cut(const std::string& text, std::size_t begin, std::size_t end)
    {
        std::size_t lead = end;
        for (int k = 0; k < 4 && lead > begin; ++k) {
            const auto c = static_cast<unsigned char>(text[--lead]);
            if ((c & 0xC0) == 0x80)
                continue; // a continuation byte
            const std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
            return lead + length > end ? lead : end;
        }
        return end;
    }

    // The tools folder is the agent's whitelist on disk: a tool (or the file its symlink leads
    // to, which may well lie elsewhere: /usr/bin/mpirun -> /etc/alternatives/...) or the folder
    // that others than its owner may write would let them choose what the agent runs.
    std::optional<std::string> writableByOthers(const std::filesystem::path& toolsDir, const std::string& program)
    {
        struct stat st {};
        for (const std::string& path : { toolsDir.string(), program }) {
            if (::stat(path.c_str(), &st) != 0)
                continue; // a missing tool fails to start with its own message
            if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
                return "refused to run " + program + ": " + path + " is writable by other users (mode "
                    + std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7) + std::to_string(st.st_mode & 7)
                    + "); make it writable by its owner only";
        }
        return std::nullopt;
    }

    // The tests of this agent. Request threads start, read and cancel them; one supervisor thread
    // reads their output, reaps them (and what they left in their process groups) and enforces
    // their timeouts, so that no request thread ever waits on a child. Thread-safe.
    class TestRunner {
    public:
        TestRunner(std::filesystem::path toolsDir, std::string sysfsRoot)
            : m_toolsDir(std::move(toolsDir))
            , m_sysfsRoot(std::move(sysfsRoot))
        {
            if (::pipe2(m_wake.data(), O_CLOEXEC | O_NONBLOCK) != 0)
                m_wake = { -1, -1 }; // the supervisor then polls on its tick alone
        }
        ~TestRunner()
        {
            stop();
            for (const int fd : m_wake)
                if (fd >= 0)
                    ::close(fd);
        }
        TestRunner(const TestRunner&) = delete;
        TestRunner& operator=(const TestRunner&) = delete;

        void start();
        void stop();
        /// The test started (or failed to start); errors TOO_MANY_TESTS, AGENT_STATE.
        core::Result<nlohmann::json> launch(TestRequest request);
        /// The test with its output from byte `offset`; nullopt for an unknown id.
        std::optional<nlohmann::json> find(const std::string& id, std::size_t offset) const;
        nlohmann::json list() const;
        /// Ends a running test and waits (at most the kill grace and a second) for it to end.
        std::optional<nlohmann::json> cancel(const std::string& id);

    private:
        void supervise();
        void service(SteadyTime now);
        void readOutput(TestRecord& t, bool drain);
        void finish(TestRecord& t);
        void trim();
        void wake() const;
        std::shared_ptr<TestRecord> findLocked(const std::string& id) const;
        std::string newId() const;

        const std::filesystem::path m_toolsDir;
        const std::string m_sysfsRoot;
        mutable std::mutex m_mutex; // guards everything below
        std::condition_variable m_changed;
        std::vector<std::shared_ptr<TestRecord>> m_tests; // in the order they were started
        std::thread m_thread;
        std::array<int, 2> m_wake { -1, -1 };
        bool m_running = false;
        bool m_stopping = false;
        std::uint64_t m_ended = 0;
    };

    void TestRunner::start()
    {
        const std::lock_guard lock(m_mutex);
        if (m_running)
            return;
        m_running = true;
        m_stopping = false;
        m_thread = std::thread([this] { supervise(); });
    }

    void TestRunner::wake() const
    {
        if (m_wake[1] >= 0) {
            const char one = 1;
            [[maybe_unused]] const ssize_t n = ::write(m_wake[1], &one, 1); // full: a wake-up is pending anyway
        }
    }

    std::shared_ptr<TestRecord> TestRunner::findLocked(const std::string& id) const
    {
        for (const auto& t : m_tests)
            if (t->id == id)
                return t;
        return nullptr;
    }

    std::string TestRunner::newId() const
    {
        static constexpr char hex[] = "0123456789abcdef";
        std::random_device random;
        for (;;) {
            std::string id;
            for (int word = 0; word < 4; ++word) {
                const std::uint32_t bits = random();
                for (int k = 0; k < 8; ++k)
                    id += hex[(bits >> (4 * k)) & 15u];
            }
            if (!findLocked(id))
                return id;
        }
    }

    core::Result<nlohmann::json> TestRunner::launch(TestRequest request)
    {
        const std::lock_guard lock(m_mutex);
        if (!m_running || m_stopping)
            return core::Error { "AGENT_STATE", "the agent is stopping: no test starts now", {}, {} };
        const auto running = std::count_if(m_tests.begin(), m_tests.end(), [](const auto& t) { return t->state == TestState::Running; });
        if (static_cast<std::size_t>(running) >= kMaxRunningTests)
            return core::Error { "TOO_MANY_TESTS",
                std::to_string(kMaxRunningTests) + " tests already run on this node: wait for one to end, or cancel one (DELETE /v1/tests/<id>)",
                {}, {} };
        auto t = std::make_shared<TestRecord>();
        t->id = newId();
        t->invocation = std::move(request.invocation);
        t->timeoutS = request.timeoutS;
        t->startedMs = wallMs();
        std::vector<std::string> argv { (m_toolsDir / t->invocation.program).string() };
        argv.insert(argv.end(), t->invocation.args.begin(), t->invocation.args.end());
        if (std::optional<std::string> unsafe = writableByOthers(m_toolsDir, argv.front())) {
            t->state = TestState::FailedToStart;
            t->error = *unsafe;
            t->endedMs = t->startedMs;
            t->endOrder = ++m_ended;
            m_tests.push_back(t);
            trim();
            return testJson(*t);
        }
        SpawnOptions options;
        options.env = { { "PATH", "/usr/bin:/bin" }, { "LANG", "C" }, { "RAILYARD_SYSFS_ROOT", m_sysfsRoot } };
        for (const auto& [name, value] : t->invocation.env)
            options.env[name] = value;
        options.ownProcessGroup = true;
        options.defaultSignals = true; // railyard-agent blocks SIGTERM in every thread; the test must not
        options.capture = true;
        options.inheritEnvironment = false;
        auto child = std::make_unique<ChildProcess>(argv, options);
        if (child->started()) {
            t->pid = child->pid();
            t->deadline = std::chrono::steady_clock::now() + std::chrono::seconds(t->timeoutS);
            t->child = std::move(child);
        } else {
            t->state = TestState::FailedToStart;
            t->error = child->error();
            t->endedMs = t->startedMs;
            t->endOrder = ++m_ended;
        }
        m_tests.push_back(t);
        trim();
        wake();
        return testJson(*t);
    }

    std::optional<nlohmann::json> TestRunner::find(const std::string& id, std::size_t offset) const
    {
        const std::lock_guard lock(m_mutex);
        const std::shared_ptr<TestRecord> t = findLocked(id);
        if (!t)
            return std::nullopt;
        nlohmann::json j = testJson(*t);
        const std::size_t size = t->output.size();
        const std::size_t begin = std::min(offset, size);
        std::size_t end = std::min(size, begin + kMaxOutputPerAnswer);
        const bool complete = t->state != TestState::Running || t->outputTruncated; // no more bytes will come
        if (!(complete && end == size))
            end = utf8Cut(t->output, begin, end);
        j["offset"] = begin;
        j["output"] = t->output.substr(begin, end - begin);
        j["next_offset"] = end;
        return j;
    }

    nlohmann::json TestRunner::list() const
    {
        const std::lock_guard lock(m_mutex);
        nlohmann::json tests = nlohmann::json::array();
        for (const auto& t : m_tests)
            tests.push_back(testJson(*t));
        return tests;
    }

    std::optional<nlohmann::json> TestRunner::cancel(const std::string& id)
    {
        std::unique_lock lock(m_mutex);
        const std::shared_ptr<TestRecord> t = findLocked(id);
        if (!t)
            return std::nullopt;
        if (t->state == TestState::Running && !t->cancelRequested) {
            t->cancelRequested = true;
            if (!t->timedOut) { // a test that timed out is on its way already
                t->child->signal(SIGTERM);
                t->killAt = std::chrono::steady_clock::now() + kKillGrace;
            }
            wake();
        }
        m_changed.wait_until(lock, std::chrono::steady_clock::now() + kKillGrace + 1s,
            [&] { return t->state != TestState::Running || !m_running; });
        return testJson(*t);
    }

    void TestRunner::supervise()
    {
        std::vector<pollfd> fds;
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            fds.clear();
            if (m_wake[0] >= 0)
                fds.push_back({ m_wake[0], POLLIN, 0 });
            bool busy = m_wake[0] < 0;
            for (const auto& t : m_tests) {
                if (!t->child)
                    continue;
                busy = true;
                if (t->state == TestState::Running && t->child->outputFd() >= 0)
                    fds.push_back({ t->child->outputFd(), POLLIN, 0 });
            }
            // Only this thread closes these descriptors, so they stay valid while it polls unlocked.
            lock.unlock();
            ::poll(fds.data(), fds.size(), busy ? kSupervisorTickMs : -1);
            if (m_wake[0] >= 0) {
                std::array<char, 64> drained {};
                while (::read(m_wake[0], drained.data(), drained.size()) > 0) {
                }
            }
            lock.lock();
            service(std::chrono::steady_clock::now());
            m_changed.notify_all();
        }
    }

    // Under m_mutex, on the supervisor thread.
    void TestRunner::service(SteadyTime now)
    {
        for (const auto& tp : m_tests) {
            TestRecord& t = *tp;
            if (!t.child)
                continue;
            if (t.state != TestState::Running) {
                if (t.child->reapGroup())
                    t.child.reset();
                continue;
            }
            readOutput(t, false);
            if (!t.child->running()) {
                finish(t);
                continue;
            }
            if (!t.cancelRequested && !t.timedOut && now >= t.deadline) {
                t.timedOut = true;
                t.child->signal(SIGTERM);
                t.killAt = now + kKillGrace;
            }
            if (t.killAt && now >= *t.killAt) {
                t.child->signal(SIGKILL);
                t.killAt.reset();
            }
        }
        trim();
    }

    void TestRunner::readOutput(TestRecord& t, bool drain)
    {
        std::string chunk;
        do {
            chunk.clear();
            if (t.child->readOutput(chunk) == 0)
                break;
            const std::size_t room = kMaxTestOutput - t.output.size();
            if (chunk.size() > room) {
                t.output.append(chunk, 0, room); // the rest is read and dropped, so the test never blocks on it
                t.outputTruncated = true;
            } else {
                t.output += chunk;
            }
        } while (drain);
    }

    // The test's process has been reaped: its last output, how it ended.
    void TestRunner::finish(TestRecord& t)
    {
        readOutput(t, true);
        t.exitStatus = t.child->exitCode();
        t.signal = t.child->termSignal();
        t.state = t.timedOut ? TestState::TimedOut : t.cancelRequested ? TestState::Killed : TestState::Exited;
        t.endedMs = wallMs();
        t.endOrder = ++m_ended;
        t.killAt.reset();
        if (t.child->reapGroup())
            t.child.reset();
    }

    // Keeps the last kKeptFinishedTests finished tests (those whose processes are all reaped).
    void TestRunner::trim()
    {
        auto finished = std::count_if(m_tests.begin(), m_tests.end(), [](const auto& t) { return t->state != TestState::Running; });
        while (static_cast<std::size_t>(finished) > kKeptFinishedTests) {
            auto oldest = m_tests.end();
            for (auto it = m_tests.begin(); it != m_tests.end(); ++it) {
                if ((*it)->state != TestState::Running && !(*it)->child && (oldest == m_tests.end() || (*it)->endOrder < (*oldest)->endOrder))
                    oldest = it;
            }
            if (oldest == m_tests.end())
                return;
            m_tests.erase(oldest);
            --finished;
        }
    }

    void TestRunner::stop()
    {
        {
            const std::lock_guard lock(m_mutex);
            if (!m_running)
                return;
            m_stopping = true;
        }
        wake();
        if (m_thread.joinable())
            m_thread.join();
        std::unique_lock lock(m_mutex);
        // SIGTERM to every test at once, SIGKILL to those still there after the grace.
        for (const auto& t : m_tests) {
            if (t->state == TestState::Running) {
                t->cancelRequested = true;
                t->child->signal(SIGTERM);
            }
        }
        const auto deadline = std::chrono::steady_clock::now() + kKillGrace;
        for (;;) {
            bool any = false;
            for (const auto& t : m_tests) {
                if (t->state != TestState::Running)
                    continue;
                readOutput(*t, false);
                if (t->child->running())
                    any = true;
                else
                    finish(*t);
            }
            if (!any || std::chrono::steady_clock::now() >= deadline)
                break;
            lock.unlock();
            std::this_thread::sleep_for(10ms);
            lock.lock();
        }
        for (const auto& t : m_tests) {
            if (t->state == TestState::Running) {
                t->child->stop(0ms); // SIGKILL and reap
                finish(*t);
            }
            t->child.reset(); // reaps what its group left (bounded)
        }
        m_running = false;
        m_stopping = false;
        m_changed.notify_all();
    }

    // "/v1/tests/<id>" -> "<id>".
    std::string testIdOf(std::string_view path) { return std::string(path.substr(std::string_view("/v1/tests/").size())); }

    // ?offset=N: a byte offset into the output; nullopt when it is no number.
    std::optional<std::size_t> parseOffset(const std::string& text)
    {
        std::size_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        return value;
    }

    // /metrics?rail=K[&port=P]: only that rail's (and port's) devices and counters, so that a
    // Prometheus target per (node, rail) can carry the rail's leaf as a label (export file-sd,
    // live/client/prometheus_file_sd.h). False, with the answer sent, when the query is refused.
    bool selectRail(const httplib::Request& req, Inventory& inv, CounterSnapshot& counters, httplib::Response& res)
    {
        if (!req.has_param("rail") && !req.has_param("port"))
            return true;
        auto number = [&](const char* name, int low) -> std::optional<int> {
            if (!req.has_param(name))
                return -1;
            const std::optional<std::size_t> v = parseOffset(req.get_param_value(name));
            if (!v || *v < static_cast<std::size_t>(low) || *v > 255) {
                sendError(res, 400, "BAD_REQUEST", std::string(name) + ": must be a whole number from " + std::to_string(low)
                        + " to 255, got " + launch_detail::shown(req.get_param_value(name)), { { "field", name } });
                return std::nullopt;
            }
            return static_cast<int>(*v);
        };
        const std::optional<int> rail = number("rail", 0);
        if (!rail)
            return false;
        const std::optional<int> port = number("port", 1);
        if (!port)
            return false;
        auto wanted = [&](int r, int p) { return (*rail < 0 || r == *rail) && (*port < 0 || p == *port); };
        std::erase_if(counters.ports, [&](const PortCounters& pc) { return !wanted(pc.rail, pc.port); });
        std::string rails;
        for (const RdmaDevice& d : inv.devices)
            if (d.rail >= 0)
                rails += (rails.empty() ? "" : ", ") + std::to_string(d.rail);
        std::erase_if(inv.devices, [&](RdmaDevice& d) {
            std::erase_if(d.ports, [&](const RdmaPort& p) { return !wanted(d.rail, p.number); });
            return d.ports.empty() || (*rail >= 0 && d.rail != *rail);
        });
        if (inv.devices.empty()) {
            sendError(res, 404, "NOT_FOUND", "this node has no " + (*rail >= 0 ? "rail " + std::to_string(*rail) : std::string("device"))
                    + (*port >= 0 ? " with port " + std::to_string(*port) : "") + " (its rails: " + (rails.empty() ? "none" : rails)
                    + "); check the file_sd targets against the plan");
            return false;
        }
        return true;
    }

    // cpp-httplib's own ThreadPool queues every accepted connection, without a limit: a flood
    // of connections from one client would pile up file descriptors and memory and make every
    // other client wait behind it. This pool bounds the queue. Past kShedQueued waiting
    // connections each is answered 503 as soon as a worker reads its request; past kMaxQueued
    // a new connection goes to one shedding thread (its own queue bounded the same) that
    // answers 503 at once, and past that it is answered on the accepting thread itself, which
    // then accepts nothing more meanwhile: the rest wait in the kernel's listen backlog, so what
    // the agent holds stays bounded. (Connections that send nothing never get this far: the
    // listening socket has TCP_DEFER_ACCEPT.)
    constexpr std::size_t kShedQueued = 32;
    constexpr std::size_t kMaxQueued = 128;
    thread_local bool t_overflow = false; // this thread answers an overflowing connection now

    class BoundedPool : public httplib::TaskQueue {
    public:
        explicit BoundedPool(std::size_t threads)
        {
            for (std::size_t i = 0; i < threads; ++i)
                m_threads.emplace_back([this] { work(m_jobs, false); });
            m_threads.emplace_back([this] { work(m_shed, true); });
        }
        ~BoundedPool() override = default;

        void enqueue(std::function<void()> fn) override
        {
            {
                const std::lock_guard lock(m_mutex);
                if (m_jobs.size() < kMaxQueued || m_shed.size() < kMaxQueued) {
                    (m_jobs.size() < kMaxQueued ? m_jobs : m_shed).push_back(std::move(fn));
                    m_queued = m_jobs.size();
                    m_wake.notify_all();
                    return;
                }
            }
            t_overflow = true;
            fn();
            t_overflow = false;
        }

        void shutdown() override
        {
            {
                const std::lock_guard lock(m_mutex);
                m_shutdown = true;
            }
            m_wake.notify_all();
            for (std::thread& t : m_threads)
                t.join();
        }

        /// Connections accepted and waiting for a worker.
        std::size_t queued() const { return m_queued; }

    private:
        void work(std::deque<std::function<void()>>& jobs, bool shedding)
        {
            t_overflow = shedding;
            for (;;) {
                std::function<void()> fn;
                {
                    std::unique_lock lock(m_mutex);
                    m_wake.wait(lock, [&] { return !jobs.empty() || m_shutdown; });
                    if (m_shutdown && jobs.empty())
                        return;
                    fn = std::move(jobs.front());
                    jobs.pop_front();
                    m_queued = m_jobs.size();
                }
                fn();
            }
        }

        std::mutex m_mutex;
        std::condition_variable m_wake;
        std::deque<std::function<void()>> m_jobs;
        std::deque<std::function<void()>> m_shed; // answered 503 by the shedding thread
        std::atomic<std::size_t> m_queued { 0 };
        std::vector<std::thread> m_threads;
        bool m_shutdown = false;
    };

} // namespace

struct AgentServer::Impl {
    AgentConfig config;
    std::shared_ptr<const NodeReader> reader;
    httplib::Server server;
    std::thread thread;
    std::mutex mutex; // start/stop
    std::atomic<int> boundPort { 0 };
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    std::string nodeName;
    bool running = false;
    // /metrics: the inventory part (device identity, ports, rails) is read at most every
    // config.metricsInventoryTtlMs; port state and rate are re-read on every scrape.
    mutable std::mutex metricsMutex;
    mutable std::optional<Inventory> metricsInventory;
    mutable std::chrono::steady_clock::time_point metricsInventoryAt;
    std::atomic<bool> listenReturned { false };
    std::atomic<BoundedPool*> pool { nullptr }; // the running listen loop's pool
    bool handlersSet = false;
    std::unique_ptr<TestRunner> tests; // declared last: its tests end before the rest goes

    Impl(AgentConfig c, std::shared_ptr<const NodeReader> r)
        : config(std::move(c))
        , reader(std::move(r))
        , tests(std::make_unique<TestRunner>(config.toolsDir, reader ? reader->options().sysfsRoot.string() : std::string()))
    {
    }

    // Everything is decided here, before cpp-httplib's own routing: one place decides on
    // method, token and path, so no request can reach a handler the checks did not see. Only
    // POST /v1/tests, once checked, goes on to its handler (which has the body read for it);
    // every other request is answered here (false: go on).
    bool handle(const httplib::Request& req, httplib::Response& res) const
    {
        const BoundedPool* current = pool.load();
        const std::size_t waiting = current ? current->queued() : 0;
        if (t_overflow || waiting >= kShedQueued) {
            res.set_header("Connection", "close");
            res.set_header("Retry-After", "1");
            sendError(res, 503, "AGENT_BUSY",
                "the agent is busy: " + std::to_string(waiting) + " connections wait for its " + std::to_string(config.threads)
                    + " workers; try again in a second");
            return true;
        }
        // Others wait for a worker: this connection gives its worker back after this answer
        // rather than keeping it for its next request.
        if (waiting > 0)
            res.set_header("Connection", "close");
        const Endpoint route = endpointOf(req.path);
        const bool isPublic = route == Endpoint::Health || route == Endpoint::Metrics;
        if (!isPublic && !authorize(req, res))
            return true;
        if (route == Endpoint::Unknown) {
            sendError(res, 404, "NOT_FOUND",
                "no such path: " + req.path + " (the agent answers /v1/inventory, /v1/counters, /v1/tests, /v1/health and /metrics)");
            return true;
        }
        if (!methodAllowed(route, req.method)) {
            res.set_header("Allow", allowedMethods(route));
            sendError(res, 405, "METHOD_NOT_ALLOWED", req.method + " " + req.path + ": allowed here: " + allowedMethods(route));
            return true;
        }
        if (route == Endpoint::Tests && req.method == "POST") {
            const std::string length = req.get_header_value("Content-Length");
            std::uint64_t bytes = 0;
            const auto [end, error] = std::from_chars(length.data(), length.data() + length.size(), bytes);
            if (!length.empty() && (error != std::errc() || bytes > kMaxBody)) {
                res.set_header("Connection", "close"); // its body is not read
                sendError(res, 413, "PAYLOAD_TOO_LARGE", "the request body is larger than " + std::to_string(kMaxBody / 1024) + " KiB");
                return true;
            }
            return false;
        }
        try {
            if (route == Endpoint::Tests || route == Endpoint::Test)
                answerTests(route, req, res);
            else
                answer(route, req, res);
        } catch (const std::exception& e) {
            sendError(res, 500, "INTERNAL", std::string("reading the node failed: ") + e.what());
        }
        return true;
    }

    // GET /v1/tests, GET and DELETE /v1/tests/<id>.
    void answerTests(Endpoint route, const httplib::Request& req, httplib::Response& res) const
    {
        if (route == Endpoint::Tests) {
            sendJson(res, { { "api_version", kApiVersion }, { "tests", tests->list() } });
            return;
        }
        const std::string id = testIdOf(req.path);
        std::optional<std::size_t> offset = 0;
        if (req.has_param("offset"))
            offset = parseOffset(req.get_param_value("offset"));
        if (!offset) {
            sendError(res, 400, "BAD_REQUEST", "offset: must be a byte offset (a whole number from 0), got "
                    + launch_detail::shown(req.get_param_value("offset")), { { "field", "offset" } });
            return;
        }
        std::optional<nlohmann::json> doc = req.method == "DELETE" ? tests->cancel(id) : tests->find(id, *offset);
        if (!doc) {
            sendError(res, 404, "NOT_FOUND", "no test " + launch_detail::shown(id) + " on this agent (GET /v1/tests lists them)");
            return;
        }
        (*doc)["api_version"] = kApiVersion;
        sendJson(res, *doc);
    }

    // POST /v1/tests, after handle() has checked the token and the length.
    void startTest(const httplib::Request& req, httplib::Response& res) const
    {
        core::Result<TestRequest> request = parseTestRequest(req.body);
        if (!request) {
            std::string message;
            nlohmann::json problems = nlohmann::json::array();
            for (const core::Error& e : request.errors()) {
                message += (message.empty() ? "" : "; ") + e.message;
                problems.push_back({ { "field", e.where }, { "message", e.message } });
            }
            sendError(res, 400, "BAD_REQUEST", message, { { "field", request.error().where }, { "problems", problems } });
            return;
        }
        if (std::optional<std::string> refused = helperRefused(request->invocation)) {
            sendError(res, 400, "BAD_REQUEST", *refused, { { "field", "args" } });
            return;
        }
        core::Result<nlohmann::json> test = tests->launch(std::move(*request));
        if (!test) {
            sendError(res, 503, test.error().code, test.error().message);
            return;
        }
        (*test)["api_version"] = kApiVersion;
        sendJson(res, *test, 201);
    }

    // A program mpirun would start for the test (its plm_rsh_agent) must be ssh, rsh or a file
    // of the agent's own tools folder, like the test program itself.
    std::optional<std::string> helperRefused(const ToolInvocation& invocation) const
    {
        const std::filesystem::path tools = std::filesystem::absolute(config.toolsDir).lexically_normal();
        for (const std::string& helper : launcherHelpers(invocation)) {
            const std::filesystem::path path(helper);
            if (helper == "ssh" || helper == "rsh" || (path.is_absolute() && path.lexically_normal().parent_path() == tools))
                continue;
            return "mpirun's plm_rsh_agent " + launch_detail::shown(helper) + " is neither ssh, rsh nor a program in the agent's tools folder "
                + tools.string();
        }
        return std::nullopt;
    }

    bool authorize(const httplib::Request& req, httplib::Response& res) const
    {
        if (config.token.empty()) {
            sendError(res, 403, "NO_TOKEN_CONFIGURED",
                "this agent has no token configured, so it refuses every JSON API request; restart it with "
                "--token-file FILE (/metrics and /v1/health need no token)");
            return false;
        }
        const auto it = req.headers.find("Authorization");
        const std::string_view token = it == req.headers.end() ? std::string_view {} : bearerToken(it->second);
        if (token.empty()) {
            res.set_header("WWW-Authenticate", "Bearer realm=\"railyard-agent\"");
            sendError(res, 401, "UNAUTHORIZED",
                "missing bearer token: send \"Authorization: Bearer <token>\" with the token of the agent's --token-file");
            return false;
        }
        if (!constantTimeEquals(token, config.token)) {
            res.set_header("WWW-Authenticate", "Bearer realm=\"railyard-agent\", error=\"invalid_token\"");
            sendError(res, 401, "UNAUTHORIZED", "wrong bearer token: use the token of the agent's --token-file");
            return false;
        }
        return true;
    }

    void answer(Endpoint route, const httplib::Request& req, httplib::Response& res) const
    {
        switch (route) {
        case Endpoint::Health: {
            const auto up = std::chrono::steady_clock::now() - started;
            AgentHealth h;
            h.node = nodeName;
            h.uptimeSeconds = std::chrono::duration_cast<std::chrono::seconds>(up).count();
            sendJson(res, toJson(h));
            return;
        }
        case Endpoint::Metrics: {
            Inventory inv = inventoryForMetrics();
            CounterSnapshot counters = reader->counters();
            if (!selectRail(req, inv, counters, res))
                return;
            // One connection per scrape: a kept-alive connection holds one of the agent's few
            // worker threads between scrapes, and with a target per rail (export file-sd) eight
            // of them would starve /v1/counters and each other. Reconnecting once a scrape
            // interval (1 s at the fastest) costs next to nothing.
            res.set_header("Connection", "close");
            res.status = 200;
            res.set_content(prometheusText(inv, counters), kPrometheus);
            return;
        }
        case Endpoint::Inventory:
            sendJson(res, toJson(reader->inventory()));
            return;
        case Endpoint::Counters: {
            // ?format=compact: the line text of counters_compact.h, which a client polling
            // thousands of nodes reads several times faster than the JSON; JSON stays the default.
            const std::string format = req.has_param("format") ? req.get_param_value("format") : "json";
            if (format == "json") {
                sendJson(res, toJson(reader->counters()));
                return;
            }
            if (format != "compact") {
                sendError(res, 400, "BAD_REQUEST",
                    "format: must be json or compact, got " + launch_detail::shown(format), { { "field", "format" } });
                return;
            }
            core::Result<std::string> text = toCompactText(reader->counters());
            if (!text) {
                sendError(res, 500, "COMPACT_UNAVAILABLE", text.error().message + "; " + text.error().hint);
                return;
            }
            res.status = 200;
            res.set_content(std::move(*text), kCompactCountersType);
            return;
        }
        case Endpoint::Tests:
        case Endpoint::Test: // answerTests()
        case Endpoint::Unknown:
            break;
        }
    }

    Inventory inventoryForMetrics() const
    {
        Inventory inv;
        {
            const std::lock_guard lock(metricsMutex);
            const auto now = std::chrono::steady_clock::now();
            if (!metricsInventory || now - metricsInventoryAt >= std::chrono::milliseconds(config.metricsInventoryTtlMs)) {
                metricsInventory = reader->inventory();
                metricsInventoryAt = now;
                return *metricsInventory; // just read: state and rate are fresh
            }
            inv = *metricsInventory;
        }
        refreshPortState(inv, reader->options().sysfsRoot.string());
        return inv;
    }

    core::Status bind()
    {
        const std::string where = config.listenAddress + ":" + std::to_string(config.port);
        const std::string shown = config.listenAddress.find(':') != std::string::npos
            ? "[" + config.listenAddress + "]:" + std::to_string(config.port)
            : where;
        addrinfo hints {};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICHOST;
        addrinfo* found = nullptr;
        const int rc = ::getaddrinfo(config.listenAddress.c_str(), nullptr, &hints, &found);
        if (found)
            ::freeaddrinfo(found);
        if (rc != 0) {
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": not an IP address (" + ::gai_strerror(rc) + ")",
                shown, "give --listen an IPv4 or IPv6 address and a port, e.g. 127.0.0.1:9473 or [::1]:9473" };
        }
        if (config.port < 0 || config.port > 65535) {
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": port out of range", shown,
                "use a port from 1 to 65535, or 0 for any free port" };
        }
        const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (probe >= 0)
            ::close(probe);
        errno = 0;
        int port = config.port;
        bool ok = false;
        if (config.port == 0) {
            port = server.bind_to_any_port(config.listenAddress);
            ok = port > 0;
        } else {
            ok = server.bind_to_port(config.listenAddress, config.port);
        }
        if (!ok) {
            const int err = errno;
            const std::string reason = err != 0 ? std::strerror(err) : "the address could not be bound";
            const std::string hint = err == EADDRINUSE ? "another program listens there; stop it or choose another port with --listen"
                : err == EACCES                       ? "ports below 1024 need privileges; choose a port above 1024"
                : err == EADDRNOTAVAIL                ? "this host has no such address; use one of its own addresses"
                                                      : "check the address and port given to --listen";
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": " + reason, shown, hint };
        }
        boundPort = port;
        raiseListenBacklog(port, probe);
        return core::Status::success();
    }

    // Debian's cpp-httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG is compiled
    // into its library): a burst of connections, or a few that send nothing (held back by
    // TCP_DEFER_ACCEPT), would fill it and make the next client's SYN wait for a retransmit
    // seconds later. Its listening socket is not exposed, so it is found by its bound port and
    // listen() is called again with the system's maximum, which Linux applies to a listening
    // socket.
    // `likelyFd` is the lowest free descriptor before binding, which the listening socket
    // usually got; the others are searched only when it did not (another thread opened one).
    static void raiseListenBacklog(int port, int likelyFd)
    {
        const auto listensOnPort = [port](int fd) {
            int listening = 0;
            socklen_t length = sizeof listening;
            if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || !listening)
                return false;
            sockaddr_storage address {};
            socklen_t size = sizeof address;
            if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
                return false;
            const int bound = address.ss_family == AF_INET ? ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port)
                : address.ss_family == AF_INET6            ? ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port)
                                                           : -1;
            return bound == port;
        };
        if (likelyFd >= 0 && listensOnPort(likelyFd)) {
            ::listen(likelyFd, SOMAXCONN);
            return;
        }
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
            int fd = -1;
            const std::string name = entry.path().filename().string();
            if (std::from_chars(name.data(), name.data() + name.size(), fd).ec == std::errc() && listensOnPort(fd)) {
                ::listen(fd, SOMAXCONN);
                return;
            }
        }
    }

    void configure()
    {
        const int threads = config.threads < 1 ? 1 : config.threads;
        server.new_task_queue = [this, threads] {
            auto* created = new BoundedPool(static_cast<std::size_t>(threads));
            pool = created; // owned by the server until its listen loop ends
            return created;
        };
        // Short timeouts: a client that stops sending or reading gives its worker back soon.
        const auto io = std::chrono::milliseconds(config.ioTimeoutMs < 1 ? 1 : config.ioTimeoutMs);
        server.set_read_timeout(io);
        server.set_write_timeout(io);
        server.set_keep_alive_timeout(std::chrono::duration_cast<std::chrono::seconds>(io).count() < 1
                ? 1
                : std::chrono::duration_cast<std::chrono::seconds>(io).count());
        server.set_keep_alive_max_count(100);
        server.set_payload_max_length(kMaxBody);
        // httplib's default also sets SO_REUSEPORT, which would let a second agent (or any
        // program of the same user) bind the same port and take a share of the connections.
        const int deferS = std::max(1, config.ioTimeoutMs / 1000);
        server.set_socket_options([deferS](socket_t sock) {
            int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
            // A connection is handed to accept() only once its first bytes came: a flood of
            // connections that send nothing takes no worker and no file descriptor here.
            ::setsockopt(sock, IPPROTO_TCP, TCP_DEFER_ACCEPT, &deferS, sizeof deferS);
        });
        if (handlersSet)
            return;
        handlersSet = true;
        server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            return handle(req, res) ? httplib::Server::HandlerResponse::Handled : httplib::Server::HandlerResponse::Unhandled;
        });
        server.Post("/v1/tests", [this](const httplib::Request& req, httplib::Response& res) {
            try {
                startTest(req, res);
            } catch (const std::exception& e) {
                sendError(res, 500, "INTERNAL", std::string("starting the test failed: ") + e.what());
            }
        });
        server.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
            if (!res.body.empty())
                return httplib::Server::HandlerResponse::Unhandled; // already the agent's own answer
            const auto [code, message] = httpErrorOf(res.status);
            sendError(res, res.status, code, message);
            return httplib::Server::HandlerResponse::Handled;
        }));
    }
};

AgentServer::AgentServer(AgentConfig config, std::shared_ptr<const NodeReader> reader)
    : m_impl(std::make_unique<Impl>(std::move(config), std::move(reader)))
{
}

AgentServer::~AgentServer()
{
    stop();
}

core::Status AgentServer::start()
{
    Impl& d = *m_impl;
    const std::lock_guard lock(d.mutex);
    if (d.running)
        return core::Error { "AGENT_STATE", "the agent server is already running", {}, {} };
    if (!d.reader)
        return core::Error { "AGENT_STATE", "the agent server has no node reader", {}, "construct it with a NodeReader" };
    d.nodeName = d.reader->options().node.empty() ? hostName() : d.reader->options().node;
    d.configure();
    if (core::Status s = d.bind(); !s)
        return s;
    d.started = std::chrono::steady_clock::now();
    d.running = true;
    d.listenReturned = false;
    d.tests->start();
    d.thread = std::thread([&d] {
        d.server.listen_after_bind();
        d.pool = nullptr; // deleted by the server as its loop ended
        d.listenReturned = true;
    });
    // httplib's stop() does nothing until the accept loop has begun: wait for it, so that a
    // stop() right after start() cannot miss it and leave the thread listening.
    while (!d.server.is_running() && !d.listenReturned)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return core::Status::success();
}

void AgentServer::stop()
{
    Impl& d = *m_impl;
    const std::lock_guard lock(d.mutex);
    if (!d.running)
        return;
    if (!d.listenReturned)
        d.server.stop();
    if (d.thread.joinable())
        d.thread.join();
    d.tests->stop(); // no request is served any more: end every running test
    d.running = false;
}

int AgentServer::port() const
{
    return m_impl->boundPort;
}

} // namespace railyard::live
