// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// One sweep of the Live workspace as the GUI sees it: each node's connection state and each
// node x rail cell's rates, made by the poller thread and handed to the GUI as an immutable
// snapshot (STYLE §6.3: shared_ptr<const T>, replaced as a whole).
#pragma once

// The engine is Qt-free and free to name a member `slots` or `signals`, which Qt's keywords
// turn into macros: they are lifted around its header.
#pragma push_macro("slots")
#pragma push_macro("signals")
#undef slots
#undef signals
#include "live/client/telemetry.h"
#pragma pop_macro("signals")
#pragma pop_macro("slots")

#include <cstdint>
#include <string>
#include <vector>

namespace railyard::app {

/// How a node's agent answered the last poll.
enum class NodeLink {
    Waiting,   ///< not polled yet
    Connected, ///< answered within kSlowMs
    Slow,      ///< answered, but after kSlowMs or more; or has been waiting that long for an answer
    Lost,      ///< no answer (refused, timed out, malformed, token refused); lastError says why
};

struct NodeConnection {
    std::string node;
    std::string url;
    NodeLink link = NodeLink::Waiting;
    std::string lastError; ///< the last failure, in words; kept after the node comes back
    int latencyMs = 0;     ///< of the last answer
    int failures = 0;      ///< polls without an answer in a row
};

/// One node x rail cell: the sum over the rail's ports (planes) of the node.
struct LiveCell {
    bool present = false; ///< the node answered and has a port on this rail with rates
    float txGbps = 0, rxGbps = 0;
    float xmitWaitPerS = 0, ecnMarkedPerS = 0, cnpPerS = 0, pfcPausePerS = 0;
    std::uint32_t linkErrors = 0;
    int port = -1; ///< index into LiveFrame::sweep.ports (the first port of the cell)
};

struct LiveFrame {
    int rails = 0;
    double lineRateGbps = 0;   ///< the plan's data rate of one rail port
    double seconds = 0;        ///< since connecting
    int pollMs = 0;            ///< how long this sweep's requests took
    std::vector<NodeConnection> nodes; ///< agents order (plan order for a demo fabric)
    std::vector<LiveCell> cells;       ///< nodes.size() x rails, row-major
    live::Sweep sweep;                 ///< ports, rails, leaves of this sweep

    const LiveCell& cell(std::size_t node, int rail) const { return cells[node * static_cast<std::size_t>(rails) + static_cast<std::size_t>(rail)]; }
};

/// A node that takes this long to answer shows as slow.
inline constexpr int kSlowMs = 1000;

} // namespace railyard::app
