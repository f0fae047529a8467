// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The plan as NetBox bulk-import CSV files: devices.csv, interfaces.csv, cables.csv (import in
// that order, under Devices / Interfaces / Cables -> Import).
//
// Sources followed (netbox-community/netbox):
// - dcim/forms/bulk_import.py: DeviceImportForm takes name, role (by name), manufacturer (by
//   name), device_type (by model), status, site (by name), ... description; InterfaceImportForm
//   takes device (by name), name, type (required), speed (Kbps), enabled, description, ...;
//   CableImportForm takes side_a_device, side_a_type, side_a_name, side_b_device, side_b_type,
//   side_b_name, type, status, label, length, length_unit, description, ...
//   Roles, manufacturer, device types and the site are looked up, not created: they must exist.
// - dcim/choices.py: DeviceStatusChoices and LinkStatusChoices `planned`; InterfaceTypeChoices
//   `infiniband-sdr` ... `infiniband-ndr`, `infiniband-xdr` (one per IB generation, present in
//   NetBox 3.x and 4.x) and the pluggable Ethernet types `100gbase-x-qsfp28`,
//   `200gbase-x-qsfp56`, `400gbase-x-qsfp112`, `400gbase-x-osfp`, `400gbase-x-qsfpdd`,
//   `800gbase-x-osfp`, `800gbase-x-qsfpdd`, `other`; CableTypeChoices `dac-passive`,
//   `dac-active`, `aoc`, `mmf`, `smf`; CableLengthUnitChoices `m`.
//
// Choices: device_type is the catalog id (qm9700, dgx-h100; the orderable part goes into the
// description), so the NetBox device types to create are named as the plan names them. Switch
// interfaces are named by logical port number ("17"), cage and position in the description;
// node interfaces as the plan names NIC ports ("nic3", "nic3-p1"). One NetBox cable per link
// (NetBox cables join one device per side in most versions; a splitter assembly is two cables,
// its description names the assembly). A label over NetBox's 100 characters is cut to the
// cable id ("C000123").
#include "planner/exporters.h"

#include "core/pending_file.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace railyard::planner {

namespace {

    constexpr std::size_t kMaxLabel = 100; ///< NetBox Cable.label max_length
    constexpr std::string_view kTermination = "dcim.interface";

    void appendRow(std::string& text, std::initializer_list<std::string_view> fields)
    {
        bool first = true;
        for (auto field : fields) {
            if (!first)
                text += ',';
            core::appendCsvField(text, field);
            first = false;
        }
        text += '\n';
    }

    bool validDevice(const core::Plan& plan, const core::PortRef& end)
    {
        return end.device < plan.devices.size();
    }

    /// The interface name: the plan's port name without "<device>/".
    std::string interfaceName(const core::Plan& plan, const core::PortRef& end)
    {
        const std::string full = plan.portName(end);
        const std::size_t skip = validDevice(plan, end) ? plan.devices[end.device].name.size() + 1 : 0;
        return skip <= full.size() ? full.substr(skip) : full;
    }

    const core::SwitchModel* switchModel(const NetboxOptions& options, const core::Device& device)
    {
        return options.catalog ? options.catalog->findSwitch(device.model) : nullptr;
    }

    std::string roleOf(const core::Device& device, const NetboxOptions& options)
    {
        switch (device.kind) {
        case core::DeviceKind::Node:
            return options.nodeRole;
        case core::DeviceKind::Management:
            return options.managementRole;
        case core::DeviceKind::Switch:
            break;
        }
        switch (device.tier) {
        case core::SwitchTier::Leaf:
            return options.leafRole;
        case core::SwitchTier::Spine:
            return options.spineRole;
        case core::SwitchTier::Core:
            return options.coreRole;
        }
        return options.leafRole;
    }

    std::string deviceType(const core::Device& device)
    {
        if (!device.model.empty())
            return device.model;
        return device.kind == core::DeviceKind::Management ? "management-appliance" : "unknown";
    }

    std::string deviceDescription(const core::Plan& plan, const core::Device& device, const NetboxOptions& options)
    {
        std::string text;
        const auto add = [&text](const std::string& part) {
            if (!text.empty())
                text += "; ";
            text += part;
        };
        if (device.plane > 0)
            add("plane " + std::to_string(device.plane));
        if (device.su > 0)
            add("SU " + std::to_string(device.su));
        if (device.kind == core::DeviceKind::Switch && device.rail >= 0)
            add("rail " + std::to_string(device.rail));
        if (device.kind == core::DeviceKind::Switch)
            add(std::to_string(device.ports) + " ports at " + plan.summary.port.label());
        if (const auto* model = switchModel(options, device); model && !model->part.empty())
            add("part " + model->part);
        if (device.kind == core::DeviceKind::Management)
            add("fabric management port");
        if (!device.installed)
            add("planned for grow_to, not installed now");
        return text;
    }

    /// "OSFP", "QSFP-DD800" -> "OSFP", "QSFPDD800".
    std::string formKey(std::string_view form)
    {
        std::string out;
        for (char c : form)
            if (std::isalnum(static_cast<unsigned char>(c)))
                out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return out;
    }

    struct EthernetType {
        int gbps;
        std::string_view form;
        std::string_view slug;
    };
    constexpr EthernetType kEthernetTypes[] = {
        { 100, "QSFP28", "100gbase-x-qsfp28" },
        { 100, "QSFPDD", "100gbase-x-qsfpdd" },
        { 200, "QSFP56", "200gbase-x-qsfp56" },
        { 200, "QSFPDD", "200gbase-x-qsfpdd" },
        { 400, "OSFP", "400gbase-x-osfp" },
        { 400, "QSFP112", "400gbase-x-qsfp112" },
        { 400, "QSFPDD", "400gbase-x-qsfpdd" },
        { 800, "OSFP", "800gbase-x-osfp" },
        { 800, "QSFPDD800", "800gbase-x-qsfpdd" },
        { 800, "QSFPDD", "800gbase-x-qsfpdd" },
    };

    /// The cage form of a port, from the catalog: the switch's cages, the node type's compute
    /// cages, a management port's NIC.
    std::string cageFormOf(const core::Plan& plan, const core::PortRef& end, const NetboxOptions& options)
    {
        if (!options.catalog || !validDevice(plan, end))
            return {};
        const auto& device = plan.devices[end.device];
        switch (device.kind) {
        case core::DeviceKind::Switch: {
            const auto* model = switchModel(options, device);
            return model ? model->cageForm : std::string();
        }
        case core::DeviceKind::Node: {
            const auto* type = options.catalog->findNodeType(device.model);
            if (type && !type->cageForm.empty())
                return type->cageForm;
            const auto* nic = options.catalog->findNic(plan.spec.nic);
            return nic ? nic->cageForm : std::string();
        }
        case core::DeviceKind::Management: {
            const auto* nic = options.catalog->findNic(plan.spec.nic);
            return nic ? nic->cageForm : std::string();
        }
        }
        return {};
    }

    std::string interfaceType(const core::Plan& plan, const core::PortRef& end, const NetboxOptions& options)
    {
        const auto& rate = plan.summary.port;
        if (plan.spec.fabric == core::Fabric::InfiniBand) {
            const auto generation = rate.generation ? rate.generation : plan.spec.link.generation;
            if (!generation)
                return "other";
            std::string slug = "infiniband-";
            for (char c : core::toString(*generation))
                slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return slug;
        }
        const std::string form = formKey(cageFormOf(plan, end, options));
        for (const auto& type : kEthernetTypes)
            if (type.gbps == rate.speedGbps() && type.form == form)
                return std::string(type.slug);
        return "other";
    }

    std::string interfaceDescription(const core::Plan& plan, const core::PortRef& end, const NetboxOptions& options)
    {
        const auto& device = plan.devices[end.device];
        std::string text;
        if (device.kind == core::DeviceKind::Switch) {
            const auto [cage, position] = plan.cageOf(end);
            text = "cage " + std::to_string(cage) + " position " + std::to_string(position);
            if (const std::string form = cageFormOf(plan, end, options); !form.empty())
                text += " (" + form + ")";
        } else if (device.kind == core::DeviceKind::Node) {
            text = "rail " + std::to_string(end.port);
            if (std::max(plan.spec.planes, plan.summary.planes) > 1)
                text += ", plane " + std::to_string(end.plane + 1);
        } else {
            text = "fabric management port";
        }
        return text + "; " + plan.summary.port.label();
    }

    std::string_view cableType(core::Medium medium)
    {
        switch (medium) {
        case core::Medium::Dac:
            return "dac-passive";
        case core::Medium::Acc:
            return "dac-active";
        case core::Medium::Aoc:
            return "aoc";
        case core::Medium::Mmf:
            return "mmf";
        case core::Medium::Smf:
            return "smf";
        }
        return "";
    }

    std::string cableDescription(const core::Plan& plan, const core::Link& link)
    {
        std::string text(core::toString(link.tier));
        if (link.assembly < plan.assemblies.size()) {
            const auto& assembly = plan.assemblies[link.assembly];
            text += "; " + assembly.cable + ", assembly " + std::to_string(link.assembly + 1);
            if (assembly.links > 1)
                text += " (" + std::to_string(assembly.links) + " links)";
        }
        if (!link.installed)
            text += "; planned for grow_to, not installed now";
        return text;
    }

} // namespace

void writeNetboxDevicesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& options)
{
    std::string text = "name,role,manufacturer,device_type,status,site,description\n";
    for (const auto& device : plan.devices) {
        const auto* model = switchModel(options, device);
        const std::string& manufacturer = model && !model->vendor.empty() ? model->vendor : options.manufacturer;
        appendRow(text, { device.name, roleOf(device, options), manufacturer, deviceType(device), "planned",
                            options.site, deviceDescription(plan, device, options) });
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void writeNetboxInterfacesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& options)
{
    std::vector<core::PortRef> ends;
    ends.reserve(plan.links.size() * 2);
    for (const auto& link : plan.links)
        for (const auto& end : { link.a, link.b })
            if (validDevice(plan, end))
                ends.push_back(end);
    const auto key = [](const core::PortRef& p) { return std::tuple(p.device, p.port, p.plane); };
    std::sort(ends.begin(), ends.end(), [&](const auto& x, const auto& y) { return key(x) < key(y); });
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    const std::string speedKbps = std::to_string(static_cast<long long>(plan.summary.port.dataGbps * 1e6));
    std::string text = "device,name,type,speed,enabled,description\n";
    for (const auto& end : ends)
        appendRow(text, { plan.devices[end.device].name, interfaceName(plan, end), interfaceType(plan, end, options),
                            speedKbps, "true", interfaceDescription(plan, end, options) });
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void writeNetboxCablesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& /*options*/)
{
    std::string text = "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,"
                       "label,length,length_unit,description\n";
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& link = plan.links[i];
        if (!validDevice(plan, link.a) || !validDevice(plan, link.b))
            continue;
        std::string label = cableLabel(plan, i);
        if (label.size() > kMaxLabel)
            label = cableId(i);
        const bool hasLength = link.lengthM > 0;
        appendRow(text, { plan.devices[link.a.device].name, kTermination, interfaceName(plan, link.a),
                            plan.devices[link.b.device].name, kTermination, interfaceName(plan, link.b),
                            cableType(link.medium), "planned", label,
                            hasLength ? core::formatNumber(link.lengthM) : std::string(), hasLength ? "m" : "",
                            cableDescription(plan, link) });
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

core::Status writeNetboxCsv(const core::Plan& plan, const std::string& folder, const NetboxOptions& options)
{
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder, ec))
        return core::Error { "EXPORT_WRITE", "cannot create the folder: " + std::string(std::strerror(ec ? ec.value() : ENOTDIR)), folder,
            "check that the folder can be created and is writable" };
    using Writer = void (*)(const core::Plan&, std::ostream&, const NetboxOptions&);
    const std::pair<const char*, Writer> files[] = {
        { kNetboxDevicesFile, &writeNetboxDevicesCsv },
        { kNetboxInterfacesFile, &writeNetboxInterfacesCsv },
        { kNetboxCablesFile, &writeNetboxCablesCsv },
    };
    // Write all three temp files first, then rename: a failure leaves the old files in place.
    std::vector<std::unique_ptr<core::PendingFile>> pending;
    for (const auto& [name, writer] : files) {
        std::ostringstream text;
        writer(plan, text, options);
        pending.push_back(std::make_unique<core::PendingFile>((std::filesystem::path(folder) / name).string(), "EXPORT_WRITE"));
        if (auto status = pending.back()->write(text.str()); !status)
            return status;
    }
    for (auto& file : pending)
        if (auto status = file->commit(); !status)
            return status;
    return core::Status::success();
}

} // namespace railyard::planner
