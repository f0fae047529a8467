// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A Prometheus file_sd targets file from the plan (`railyard-cli export file-sd`), so a site's
// Prometheus scrapes the fabric the way Railyard sees it.
//
// One target group per (node, rail), and per plane on a two-plane plan, not one per node: a
// node's rails plug into different leaves (rail k of every node of an SU into that SU's rail-k
// leaf), and Prometheus attaches target labels to every series of a target, so only a target
// that serves one rail can carry its `leaf` label. With it `sum by (leaf) (rate(...))` is the
// per-leaf load without a join, and `up == 0` names the rail whose scrape failed. Each group's
// `__param_rail` (and `__param_port` with planes) makes the agent serve only that rail's ports at
// `/metrics?rail=K[&port=P]`. The price: rails x planes scrapes per node instead of one, each that
// much smaller; the agent reads the whole node's counters on every scrape (about 760 small sysfs
// files on a DGX H100), so its sysfs reads grow by the same factor.
//
//   [ { "targets": [ "127.0.0.1:40001" ],
//       "labels": { "node": "node001", "rail": "0", "su": "1", "leaf": "su1-rail0-leaf",
//                   "__param_rail": "0" } }, ... ]
//
// With planes: "plane": "1" and "__param_port": "1" (port P of NIC k carries plane P). An
// agent URL with a path prefix sets `__metrics_path__` to <prefix>/metrics. Groups are in plan
// order (nodes, then rails, then planes); only installed nodes and links are listed. The
// agent's own series already carry node and rail, so scrape with `honor_labels: true` (else
// Prometheus keeps the agent's as exported_node / exported_rail next to the target's).
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace railyard::live {

/// The targets of every installed node: from `agents` (agents.json: each plan node's agent URL;
/// a node of the plan without an agent, or an agent of a node the plan lacks, is an error) or,
/// when `agents` is null, "<node>:<port>" (the plan's node names as host names).
core::Result<nlohmann::json> prometheusFileSd(const core::Plan& plan, const std::vector<AgentEndpoint>* agents, int port);

} // namespace railyard::live
