// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Reader of `ibnetdiscover` output. The formats follow infiniband-diags' ibnetdiscover.c:
//
// Topology (default) format, one block per node:
//   vendid=0x2c9 / devid=... / sysimgguid=0x... / switchguid=0x<guid>(<portguid>) | caguid=0x<guid> | routerguid=0x<guid>
//   Switch  41 "S-0ff08c43213b3f30"  # "desc" enhanced port 0 lid 387 lmc 0
//   [1]     "S-0ff08c432172aa1a"[21]  # "desc" lid 226 4xHDR s=4 w=2 v=4 e=4
//   [41]    "H-0ff08c43213b3f38"[1](ff08c43213b3f38)  # "desc" lid 2152 4xHDR
//   Ca      1 "H-0ff08c4321664e96"  # "desc"
//   [1](ff08c4321664e96)  "S-0ff08c43215bae48"[1]  # lid 1181 lmc 0 "desc" lid 556 4xHDR
// Ports may carry "[ext N]" (chassis external port numbers); node ids are S-/H-/R- and the
// node GUID in hex. Every link shows from both ends; it is kept once.
//
// Ports report (`-p`), one line per port:
//   CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )
//   SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'
// The GUIDs there are port GUIDs (a switch's is its node GUID). A line without a peer is an
// unconnected port ("4x ???" or a speed the port would train at).
#include "live/client/ibnet_parse.h"

#include "live/common/text_scan.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

namespace railyard::live {

namespace {

    std::string_view trim(std::string_view s)
    {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
            s.remove_suffix(1);
        return s;
    }

    std::optional<long long> toInt(std::string_view s)
    {
        s = trim(s);
        long long v = 0;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || p != s.data() + s.size())
            return std::nullopt;
        return v;
    }

    std::vector<std::string_view> words(std::string_view s)
    {
        std::vector<std::string_view> out;
        std::size_t i = 0;
        while (i < s.size()) {
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
                ++i;
            const std::size_t start = i;
            while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
                ++i;
            if (i > start)
                out.push_back(s.substr(start, i - start));
        }
        return out;
    }

    struct LineError {
        std::string message;
    };

    core::Error errorAt(std::string_view source, std::size_t line, const std::string& message, std::string_view text)
    {
        std::string shown(trim(text).substr(0, 100));
        return core::Error { "IBNET_PARSE", message + (shown.empty() ? "" : ": '" + shown + "'"),
            std::string(source) + ":" + std::to_string(line),
            "give the output of `ibnetdiscover` (topology format) or `ibnetdiscover -p`, unedited" };
    }

    /// "4xHDR" -> {"4x", "HDR"}.
    bool splitRate(std::string_view token, std::string& width, std::string& speed)
    {
        const auto x = token.find('x');
        if (x == std::string_view::npos || x == 0 || x + 1 >= token.size())
            return false;
        if (!toInt(token.substr(0, x)))
            return false;
        for (char c : token.substr(x + 1))
            if (!std::isalnum(static_cast<unsigned char>(c)))
                return false;
        width = std::string(token.substr(0, x + 1));
        speed = std::string(token.substr(x + 1));
        return true;
    }

    /// "S-0ff08c43213b3f30" -> type and GUID.
    std::optional<std::pair<IbNodeType, std::uint64_t>> parseNodeId(std::string_view id)
    {
        if (id.size() < 3 || id[1] != '-')
            return std::nullopt;
        IbNodeType type {};
        switch (id[0]) {
        case 'S': type = IbNodeType::Switch; break;
        case 'H': type = IbNodeType::CA; break;
        case 'R': type = IbNodeType::Router; break;
        default: return std::nullopt;
        }
        const auto guid = parseGuid(id.substr(2));
        if (!guid)
            return std::nullopt;
        return std::make_pair(type, *guid);
    }

    /// The text between the first '"' at or after `from` and its closing '"'; advances `from`.
    std::optional<std::string_view> quotedAt(std::string_view line, std::size_t& from)
    {
        const auto a = line.find('"', from);
        if (a == std::string_view::npos)
            return std::nullopt;
        const auto b = line.find('"', a + 1);
        if (b == std::string_view::npos)
            return std::nullopt;
        from = b + 1;
        return line.substr(a + 1, b - a - 1);
    }

    /// Reads "[N]" at `at` (after spaces); returns N and moves past it (and past "[ext N]").
    std::optional<int> bracketNumber(std::string_view line, std::size_t& at)
    {
        while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at])))
            ++at;
        if (at >= line.size() || line[at] != '[')
            return std::nullopt;
        const auto close = line.find(']', at);
        if (close == std::string_view::npos)
            return std::nullopt;
        const auto n = toInt(line.substr(at + 1, close - at - 1));
        if (!n || *n < 0 || *n > 65535)
            return std::nullopt;
        at = close + 1;
        if (line.substr(at).starts_with("[ext ")) {
            const auto close2 = line.find(']', at);
            if (close2 != std::string_view::npos)
                at = close2 + 1;
        }
        return static_cast<int>(*n);
    }

    /// Reads "(hex)" at `at` when present.
    std::optional<std::uint64_t> parenGuid(std::string_view line, std::size_t& at)
    {
        std::size_t i = at;
        while (i < line.size() && line[i] == ' ')
            ++i;
        if (i >= line.size() || line[i] != '(')
            return std::nullopt;
        const auto close = line.find(')', i);
        if (close == std::string_view::npos)
            return std::nullopt;
        const auto guid = parseGuid(line.substr(i + 1, close - i - 1));
        if (guid)
            at = close + 1;
        return guid;
    }

    /// The value after "lid " in `text`, searching from `from`.
    int lidAfter(std::string_view text, std::size_t from = 0)
    {
        const auto at = text.find("lid ", from);
        if (at == std::string_view::npos)
            return 0;
        const auto w = words(text.substr(at + 4));
        if (w.empty())
            return 0;
        const auto v = toInt(w.front());
        return v ? static_cast<int>(*v) : 0;
    }

    class TopologyReader {
    public:
        TopologyReader(std::string_view source)
            : m_source(source)
        {
        }

        core::Status line(std::string_view raw, std::size_t number)
        {
            const std::string_view text = trim(raw);
            if (text.empty() || text.front() == '#')
                return {};
            if (text.front() == '[')
                return portLine(text, number);
            const auto eq = text.find('=');
            const auto w = words(text);
            if (eq != std::string_view::npos && w.size() == 1)
                return keyValue(text.substr(0, eq), text.substr(eq + 1), number, text);
            if (w.front() == "Switch" || w.front() == "Ca" || w.front() == "Rt")
                return nodeLine(text, number);
            return errorAt(m_source, number, "not a line of ibnetdiscover's topology format", text);
        }

        core::Result<IbFabric> finish()
        {
            if (m_fabric.nodes.empty())
                return core::Error { "IBNET_EMPTY", "no node found in the ibnetdiscover text", std::string(m_source),
                    "run `ibnetdiscover > FILE` on a host of the subnet and give that file" };
            m_fabric.finish();
            return std::move(m_fabric);
        }

    private:
        core::Status keyValue(std::string_view key, std::string_view value, std::size_t number, std::string_view text)
        {
            if (key == "switchguid" || key == "caguid" || key == "routerguid") {
                const auto paren = value.find('(');
                const auto guid = parseGuid(value.substr(0, paren));
                if (!guid)
                    return errorAt(m_source, number, std::string(key) + ": not a GUID", text);
                m_blockGuid = guid;
            } else if (key == "sysimgguid" || key == "vendid" || key == "devid") {
                m_blockGuid.reset();
                if (key == "vendid")
                    m_current.reset();
            }
            return {};
        }

        core::Status nodeLine(std::string_view text, std::size_t number)
        {
            const auto w = words(text);
            IbNode node;
            node.type = w[0] == "Switch" ? IbNodeType::Switch : w[0] == "Ca" ? IbNodeType::CA : IbNodeType::Router;
            const auto ports = w.size() > 1 ? toInt(w[1]) : std::nullopt;
            if (!ports || *ports < 0 || *ports > 255)
                return errorAt(m_source, number, "the port count after '" + std::string(w[0]) + "' is not a number", text);
            node.ports = static_cast<int>(*ports);
            std::size_t at = 0;
            const auto id = quotedAt(text, at);
            if (!id)
                return errorAt(m_source, number, "the node id (\"S-<guid>\", \"H-<guid>\") is missing", text);
            const auto parsed = parseNodeId(*id);
            if (!parsed && !m_blockGuid)
                return errorAt(m_source, number, "the node id '" + std::string(*id) + "' is not S-, H- or R- and a GUID",
                    text);
            node.guid = m_blockGuid ? *m_blockGuid : parsed->second;
            if (parsed)
                m_idToGuid[std::string(*id)] = node.guid;
            const auto hash = text.find('#', at);
            if (hash != std::string_view::npos) {
                std::size_t q = hash;
                if (const auto desc = quotedAt(text, q))
                    node.description = std::string(*desc);
                if (node.type == IbNodeType::Switch)
                    node.lid = lidAfter(text, q);
            }
            m_current = m_fabric.addNode(node);
            m_fabric.nodes[*m_current].description = node.description;
            m_fabric.nodes[*m_current].ports = node.ports;
            return {};
        }

        core::Status portLine(std::string_view text, std::size_t number)
        {
            if (!m_current)
                return errorAt(m_source, number, "a port line before any Switch/Ca/Rt line", text);
            std::size_t at = 0;
            const auto local = bracketNumber(text, at);
            if (!local)
                return errorAt(m_source, number, "the local port \"[N]\" is not a number", text);
            IbNode& self = m_fabric.nodes[*m_current];
            if (const auto portGuid = parenGuid(text, at))
                self.portGuids[*local] = *portGuid;
            std::size_t q = at;
            const auto peerId = quotedAt(text, q);
            if (!peerId)
                return errorAt(m_source, number, "the peer node id is missing", text);
            const auto peer = parseNodeId(*peerId);
            const auto known = m_idToGuid.find(std::string(*peerId));
            if (!peer && known == m_idToGuid.end())
                return errorAt(m_source, number, "the peer id '" + std::string(*peerId) + "' is not S-, H- or R- and a GUID",
                    text);
            std::size_t after = q;
            const auto peerPort = bracketNumber(text, after);
            if (!peerPort)
                return errorAt(m_source, number, "the peer port \"[N]\" is missing after the peer id", text);
            IbNode peerNode;
            peerNode.guid = known != m_idToGuid.end() ? known->second : peer->second;
            peerNode.type = peer ? peer->first : IbNodeType::CA;
            const auto peerPortGuid = parenGuid(text, after);
            IbLink link { { self.guid, *local }, { peerNode.guid, *peerPort }, {}, {} };
            const IbNodeType selfType = self.type;
            const auto hash = text.find('#', after);
            if (hash != std::string_view::npos) {
                const std::string_view comment = text.substr(hash + 1);
                const auto firstQuote = comment.find('"');
                // CA ports: "# lid L lmc M "desc" lid L2 rate"; switch ports: "# "desc" lid L rate".
                if (selfType != IbNodeType::Switch && firstQuote != std::string_view::npos) {
                    const int lid = lidAfter(comment.substr(0, firstQuote));
                    IbNode& me = m_fabric.nodes[*m_current];
                    if (lid > 0 && (me.lid == 0 || lid < me.lid))
                        me.lid = lid;
                }
                const auto endQuote = comment.rfind("\" lid ");
                if (firstQuote != std::string_view::npos && endQuote != std::string_view::npos && endQuote > firstQuote) {
                    peerNode.description = std::string(comment.substr(firstQuote + 1, endQuote - firstQuote - 1));
                    peerNode.lid = lidAfter(comment, endQuote);
                    for (auto word : words(comment.substr(endQuote + 6)))
                        if (splitRate(word, link.width, link.speed))
                            break;
                }
            }
            const std::size_t peerIndex = m_fabric.addNode(peerNode);
            if (peerPortGuid && peerNode.type != IbNodeType::Switch)
                m_fabric.nodes[peerIndex].portGuids[*peerPort] = *peerPortGuid;
            m_fabric.addLink(std::move(link));
            return {};
        }

        std::string_view m_source;
        IbFabric m_fabric;
        std::optional<std::size_t> m_current;
        std::optional<std::uint64_t> m_blockGuid;
        std::unordered_map<std::string, std::uint64_t> m_idToGuid;
    };

    /// One side of a `-p` line: "CA   134  1 0x7cfe9003003b4bde".
    struct PortsSide {
        IbNodeType type {};
        int lid = 0;
        int port = 0;
        std::uint64_t guid = 0;
    };

    std::optional<PortsSide> portsSide(const std::vector<std::string_view>& w, std::size_t i)
    {
        if (i + 3 >= w.size())
            return std::nullopt;
        PortsSide side;
        if (w[i] == "CA")
            side.type = IbNodeType::CA;
        else if (w[i] == "SW")
            side.type = IbNodeType::Switch;
        else if (w[i] == "RT")
            side.type = IbNodeType::Router;
        else
            return std::nullopt;
        const auto lid = toInt(w[i + 1]);
        const auto port = toInt(w[i + 2]);
        const auto guid = parseGuid(w[i + 3]);
        if (!lid || !port || !guid || *port < 0 || *port > 255)
            return std::nullopt;
        side.lid = static_cast<int>(*lid);
        side.port = static_cast<int>(*port);
        side.guid = *guid;
        return side;
    }

    /// "'desc'" -> desc; unquoted text is taken as it is (trimmed).
    std::string unquote(std::string_view s)
    {
        s = trim(s);
        if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'')
            return std::string(s.substr(1, s.size() - 2));
        return std::string(s);
    }

    core::Status portsLine(IbFabric& fabric, std::string_view raw, std::size_t number, std::string_view source)
    {
        const std::string_view text = trim(raw);
        if (text.empty() || text.front() == '#')
            return {};
        const auto w = words(text);
        if (w.size() < 6)
            return errorAt(source, number, "a ports line needs type, LID, port, GUID, width and speed", text);
        const auto self = portsSide(w, 0);
        if (!self)
            return errorAt(source, number, "expected 'CA|SW|RT <lid> <port> <guid>' at the start", text);
        std::string width(w[4]);
        std::string speed(w[5]);
        IbNode node { self->guid, self->type, {}, 0, self->lid, {} };
        if (self->type == IbNodeType::CA)
            node.portGuids[self->port] = self->guid;
        // What follows the speed: "- <side> ( 'a' - 'b' )" or "'a'".
        const std::size_t afterSpeed = static_cast<std::size_t>(w[5].data() + w[5].size() - text.data());
        std::string_view rest = trim(text.substr(afterSpeed));
        if (!rest.starts_with("- ")) {
            node.description = unquote(rest);
            fabric.addNode(node);
            fabric.unconnectedPorts.push_back({ self->guid, self->port });
            return {};
        }
        const auto peer = portsSide(w, 7);
        if (w.size() < 11 || w[6] != "-" || !peer)
            return errorAt(source, number, "expected '- CA|SW|RT <lid> <port> <guid>' after the speed", text);
        const auto open = rest.find('(');
        const auto close = rest.rfind(')');
        std::string selfDesc, peerDesc;
        if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
            const std::string_view names = rest.substr(open + 1, close - open - 1);
            auto split = names.find("' - '");
            std::size_t skip = 5;
            if (split == std::string_view::npos) {
                split = names.find(" - ");
                skip = 3;
            }
            if (split == std::string_view::npos)
                return errorAt(source, number, "the node descriptions in '( ... )' are not separated by ' - '", text);
            const bool quoted = skip == 5;
            selfDesc = unquote(std::string(names.substr(0, split + (quoted ? 1 : 0))));
            peerDesc = unquote(std::string(names.substr(split + skip - (quoted ? 1 : 0))));
        }
        node.description = selfDesc;
        fabric.addNode(node);
        IbNode other { peer->guid, peer->type, peerDesc, 0, peer->lid, {} };
        if (peer->type == IbNodeType::CA)
            other.portGuids[peer->port] = peer->guid;
        fabric.addNode(other);
        fabric.addLink({ { self->guid, self->port }, { peer->guid, peer->port }, width, speed == "???" ? "" : speed });
        return {};
    }

    bool looksLikePortsFormat(std::string_view text)
    {
        std::istringstream in { std::string(text) };
        std::string line;
        while (std::getline(in, line)) {
            const auto t = trim(line);
            if (t.empty() || t.front() == '#')
                continue;
            const auto w = words(t);
            return w.size() >= 4 && (w[0] == "CA" || w[0] == "SW" || w[0] == "RT") && toInt(w[1]).has_value();
        }
        return false;
    }

} // namespace

std::string_view toString(IbNodeType type)
{
    switch (type) {
    case IbNodeType::CA: return "CA";
    case IbNodeType::Switch: return "Switch";
    case IbNodeType::Router: return "Router";
    }
    return "CA";
}

const IbNode* IbFabric::find(std::uint64_t guid) const
{
    const auto i = indexOf(guid);
    return i ? &nodes[*i] : nullptr;
}

std::optional<std::size_t> IbFabric::indexOf(std::uint64_t guid) const
{
    if (m_index.size() != nodes.size()) {
        auto& index = const_cast<std::unordered_map<std::uint64_t, std::size_t>&>(m_index);
        index.clear();
        for (std::size_t i = 0; i < nodes.size(); ++i)
            index.emplace(nodes[i].guid, i);
    }
    const auto it = m_index.find(guid);
    if (it == m_index.end())
        return std::nullopt;
    return it->second;
}

std::size_t IbFabric::addNode(const IbNode& node)
{
    if (const auto i = indexOf(node.guid)) {
        IbNode& have = nodes[*i];
        if (have.description.empty())
            have.description = node.description;
        if (have.ports == 0)
            have.ports = node.ports;
        if (have.lid == 0)
            have.lid = node.lid;
        for (const auto& [port, guid] : node.portGuids)
            have.portGuids.emplace(port, guid);
        return *i;
    }
    nodes.push_back(node);
    m_index.emplace(node.guid, nodes.size() - 1);
    return nodes.size() - 1;
}

void IbFabric::addLink(IbLink link)
{
    if (std::tie(link.b.guid, link.b.port) < std::tie(link.a.guid, link.a.port))
        std::swap(link.a, link.b);
    const std::string key = std::to_string(link.a.guid) + ':' + std::to_string(link.a.port) + '-'
        + std::to_string(link.b.guid) + ':' + std::to_string(link.b.port);
    const auto [it, added] = m_links.emplace(key, links.size());
    if (!added) {
        IbLink& have = links[it->second];
        if (have.width.empty())
            have.width = link.width;
        if (have.speed.empty())
            have.speed = link.speed;
        return;
    }
    links.push_back(std::move(link));
}

void IbFabric::finish()
{
    std::sort(links.begin(), links.end(), [](const IbLink& x, const IbLink& y) {
        return std::tie(x.a.guid, x.a.port, x.b.guid, x.b.port) < std::tie(y.a.guid, y.a.port, y.b.guid, y.b.port);
    });
    std::sort(unconnectedPorts.begin(), unconnectedPorts.end(),
        [](const IbLinkEnd& x, const IbLinkEnd& y) { return std::tie(x.guid, x.port) < std::tie(y.guid, y.port); });
    m_index.clear();
    for (std::size_t i = 0; i < nodes.size(); ++i)
        m_index.emplace(nodes[i].guid, i);
    m_links.clear();
    for (std::size_t i = 0; i < links.size(); ++i)
        m_links.emplace(std::to_string(links[i].a.guid) + ':' + std::to_string(links[i].a.port) + '-'
                + std::to_string(links[i].b.guid) + ':' + std::to_string(links[i].b.port),
            i);
}

core::Result<IbFabric> parseIbnetdiscover(std::string_view text, std::string_view source)
{
    // Read as UTF-8: node descriptions are any bytes an administrator set, and they go into
    // findings and `live cabling --json` (one that is not UTF-8 made its dump() throw).
    std::istringstream in { text::validUtf8(std::string(text)) };
    std::string line;
    std::size_t number = 0;
    if (looksLikePortsFormat(text)) {
        IbFabric fabric;
        while (std::getline(in, line)) {
            ++number;
            if (auto st = portsLine(fabric, line, number, source); !st)
                return st.errors();
        }
        if (fabric.nodes.empty())
            return core::Error { "IBNET_EMPTY", "no port found in the ibnetdiscover -p text", std::string(source), "" };
        fabric.finish();
        return fabric;
    }
    TopologyReader reader(source);
    while (std::getline(in, line)) {
        ++number;
        if (auto st = reader.line(line, number); !st)
            return st.errors();
    }
    return reader.finish();
}

core::Result<IbFabric> readIbnetdiscoverFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "FILE_UNREADABLE", "cannot read the ibnetdiscover output", path, "check the path" };
    std::ostringstream text;
    text << in.rdbuf();
    return parseIbnetdiscover(text.str(), path);
}

std::string formatGuid(std::uint64_t guid)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
    return buf;
}

std::optional<std::uint64_t> parseGuid(std::string_view text)
{
    text = trim(text);
    if (text.starts_with("0x") || text.starts_with("0X"))
        text.remove_prefix(2);
    std::string hex;
    for (char c : text) {
        if (c == ':')
            continue;
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        hex += c;
    }
    if (hex.empty() || hex.size() > 16)
        return std::nullopt;
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), v, 16);
    if (ec != std::errc() || p != hex.data() + hex.size())
        return std::nullopt;
    return v;
}

} // namespace railyard::live
