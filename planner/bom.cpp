// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/bom.h"

#include "core/text.h"

#include <map>
#include <tuple>

namespace railyard::planner {

using core::BomLine;
using core::DeviceKind;

namespace {

    void addSwitches(const core::Catalog& catalog, core::Plan& plan)
    {
        // One line per model, in tier order of first appearance.
        std::map<std::string, std::map<core::SwitchTier, long long>> perModel;
        std::vector<std::string> order;
        for (const auto& d : plan.devices) {
            if (d.kind != DeviceKind::Switch || !d.installed)
                continue;
            if (!perModel.count(d.model))
                order.push_back(d.model);
            ++perModel[d.model][d.tier];
        }
        for (const auto& id : order) {
            const core::SwitchModel* sw = catalog.findSwitch(id);
            long long total = 0;
            std::string roles;
            for (const auto& [tier, n] : perModel[id]) {
                total += n;
                roles += (roles.empty() ? "" : ", ") + core::formatCount(n) + " " + std::string(core::toString(tier));
            }
            BomLine line;
            line.category = "switch";
            line.item = sw->name + " (" + roles + ")";
            line.part = sw->part;
            line.catalogId = id;
            line.quantity = total;
            line.unitPriceUsd = sw->priceUsd;
            line.unitPowerW = sw->powerW;
            line.unitRackUnits = sw->rackUnits;
            plan.bom.push_back(std::move(line));
        }
    }

    void addNodes(const Parts& parts, core::Plan& plan)
    {
        long long nodes = 0;
        long long mgmt = 0;
        for (const auto& d : plan.devices) {
            if (d.kind == DeviceKind::Node && d.installed)
                ++nodes;
            if (d.kind == DeviceKind::Management)
                ++mgmt;
        }
        BomLine node;
        node.category = "node";
        node.item = parts.nodeType->name;
        node.catalogId = parts.nodeType->id;
        node.quantity = nodes;
        node.unitPriceUsd = parts.nodeType->priceUsd;
        node.unitPowerW = parts.nodeType->powerW;
        node.unitRackUnits = parts.nodeType->rackUnits;
        plan.bom.push_back(std::move(node));

        BomLine nic;
        nic.category = "nic";
        nic.item = parts.nic->name + " compute NIC, " + std::to_string(parts.rails) + " per node";
        nic.part = parts.nic->part;
        nic.catalogId = parts.nic->id;
        nic.quantity = nodes * parts.rails;
        nic.unitPriceUsd = parts.nic->priceUsd;
        nic.unitPowerW = parts.nic->powerW;
        plan.bom.push_back(std::move(nic));

        if (mgmt > 0) {
            BomLine m;
            m.category = "management";
            m.item = "Fabric management appliance port (e.g. UFM), cabled to a leaf";
            m.quantity = mgmt;
            plan.bom.push_back(std::move(m));
        }
    }

    void addCables(const core::Catalog& catalog, core::Plan& plan)
    {
        std::map<std::tuple<std::string, float>, long long> count;
        for (const auto& a : plan.assemblies) {
            if (a.installed && !a.cable.empty())
                ++count[{ a.cable, a.lengthM }];
        }
        for (const auto& [key, n] : count) {
            const auto& [id, length] = key;
            const core::CableModel* c = catalog.findCable(id);
            BomLine line;
            line.category = "cable";
            line.item = c->name + ", " + core::formatNumber(length) + " m";
            line.part = c->part;
            line.catalogId = id;
            line.lengthM = length;
            line.quantity = n;
            line.unitPriceUsd = c->priceUsd;
            plan.bom.push_back(std::move(line));
        }
    }

    void addTransceivers(const core::Catalog& catalog, const std::map<std::string, long long>& tally, const char* side,
        core::Plan& plan)
    {
        for (const auto& [id, n] : tally) {
            const core::TransceiverModel* t = catalog.findTransceiver(id);
            BomLine line;
            line.category = "transceiver";
            line.item = t->name + " (" + side + ")";
            line.part = t->part;
            line.catalogId = id;
            line.quantity = n;
            line.unitPriceUsd = t->priceUsd;
            line.unitPowerW = t->powerW;
            plan.bom.push_back(std::move(line));
        }
    }

} // namespace

void buildBom(const Parts& parts, const core::Catalog& catalog, const TransceiverTally& tally, core::Plan& plan)
{
    plan.bom.clear();
    addSwitches(catalog, plan);
    addNodes(parts, plan);
    addCables(catalog, plan);
    addTransceivers(catalog, tally.switchSide, "switch side", plan);
    addTransceivers(catalog, tally.nodeSide, "node side", plan);

    auto& s = plan.summary;
    s.powerW = 0;
    s.rackUnits = 0;
    s.transceivers = 0;
    double cost = 0;
    bool priced = true;
    for (const auto& line : plan.bom) {
        if (line.category == "transceiver")
            s.transceivers += line.quantity;
        if (line.category == "node" || line.category == "management")
            continue; // the fabric's own totals
        s.powerW += line.unitPowerW * static_cast<double>(line.quantity);
        if (line.category == "switch")
            s.rackUnits += line.unitRackUnits * static_cast<int>(line.quantity);
        if (line.unitPriceUsd)
            cost += *line.unitPriceUsd * static_cast<double>(line.quantity);
        else
            priced = false;
    }
    if (priced)
        s.costUsd = cost;
}

} // namespace railyard::planner
