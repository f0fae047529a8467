// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/fabric.h"
#include "core/result.h"
#include "core/speed.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::core {

namespace detail {
    struct CatalogDocument;
}

/// One way a switch can run its cages: the port rate and how many logical ports that gives.
struct SwitchMode {
    PortRate rate;
    int ports = 0;        ///< logical ports at this rate (radix k)
    int portsPerCage = 1; ///< logical ports per cage at this rate (QM9700: 2 at NDR, 4 at NDR200)
};

struct SwitchModel {
    std::string id;     ///< catalog id, e.g. "qm9700"
    std::string name;   ///< "NVIDIA Quantum-2 QM9700"
    std::string vendor;
    std::string part;   ///< orderable part number
    Fabric fabric = Fabric::InfiniBand;
    int cages = 0;          ///< physical cages on the front panel
    std::string cageForm;   ///< "OSFP", "QSFP56", "QSFP-DD800"
    int cagePorts = 1;      ///< ports one transceiver in a cage carries natively (twin-port OSFP: 2)
    std::vector<SwitchMode> modes;
    int maxLogicalPorts = 0; ///< breakout cap of the box (0: none)
    double powerW = 0;       ///< typical power; 0 when unknown
    int rackUnits = 1;
    std::optional<double> priceUsd;
    std::string source; ///< catalog file it came from
    std::string reference; ///< where the figures come from (URL or document), as written in the catalog
    std::string note;      ///< free text; says which figures are estimates

    /// The mode running ports at exactly `rate`, or nullptr.
    const SwitchMode* modeFor(const PortRate& rate) const;
};

struct NicModel {
    std::string id; ///< "connectx-7"
    std::string name;
    std::string part;
    std::vector<PortRate> ibRates;       ///< InfiniBand port rates it supports
    std::vector<PortRate> ethernetRates; ///< Ethernet port rates it supports (per logical port)
    double maxGbps = 0;   ///< total data rate of one NIC (CX-8: 800 as 1 x XDR or 2 x 400GbE)
    int nativeEthernetLanes = 4; ///< lanes it uses when the spec does not say (CX-7 400G: 4 x 100G)
    std::string cageForm; ///< "OSFP", "QSFP112", "QSFP56"
    double powerW = 0;
    std::optional<double> priceUsd;
    std::string source;
    std::string reference; ///< where the figures come from (URL or document), as written in the catalog
    std::string note;      ///< free text; says which figures are estimates

    bool supports(const PortRate& rate) const;
};

struct NodeType {
    std::string id; ///< "dgx-h100"
    std::string name;
    int gpus = 8;
    int rails = 8;       ///< compute NICs (one per rail)
    std::string nic;     ///< NicModel id of the compute NICs
    int railsPerCage = 1; ///< 2 when a twin-port OSFP cage carries two NICs' ports (DGX H100/B200)
    std::string cageForm; ///< node-side compute cage, e.g. "OSFP"
    bool flatTopTransceivers = false; ///< node cages need flat-top modules (DGX)
    std::vector<std::string> railMap; ///< device (mlx5_N) or PCI address of NIC k, k = rail
    double powerW = 0;
    int rackUnits = 0;
    std::optional<double> priceUsd;
    std::string source;
    std::string reference; ///< where the figures come from (URL or document), as written in the catalog
    std::string note;      ///< free text; says which figures are estimates
};

/// Physical medium of a cable assembly (interfaces.md §3 `type`).
enum class Medium { Dac, Acc, Aoc, Mmf, Smf };
std::string_view toString(Medium medium);
std::optional<Medium> parseMedium(std::string_view text);
/// Fiber media need transceivers at both ends.
inline bool needsTransceivers(Medium m) { return m == Medium::Mmf || m == Medium::Smf; }

struct CableModel {
    std::string id;
    std::string name;
    std::string part;
    Medium medium = Medium::Dac;
    std::vector<int> speedsGbps; ///< per-link data rates it carries
    std::vector<Fabric> fabrics; ///< fabrics it is qualified for (empty: both)
    int linksPerAssembly = 1;   ///< 2 for a 1-to-2 splitter or a twin-port-to-twin-port cable
    bool splitter = false;      ///< one end feeds two different far ends
    std::vector<double> lengthsM; ///< orderable lengths, ascending
    std::optional<double> priceUsd;
    std::string source;
    std::string reference; ///< where the figures come from (URL or document), as written in the catalog
    std::string note;      ///< free text; says which figures are estimates

    double maxLengthM() const { return lengthsM.empty() ? 0 : lengthsM.back(); }
};

struct TransceiverModel {
    std::string id;
    std::string name;
    std::string part;
    std::string form;   ///< cage form it plugs into, e.g. "OSFP"
    int ports = 1;      ///< links it carries (twin-port: 2)
    int speedGbps = 0;  ///< per link
    std::vector<Fabric> fabrics; ///< empty: both
    Medium medium = Medium::Mmf;
    double reachM = 0;
    bool flatTop = false; ///< node-side (DGX) flat top vs switch-side finned
    double powerW = 0;
    std::optional<double> priceUsd;
    std::string source;
    std::string reference; ///< where the figures come from (URL or document), as written in the catalog
    std::string note;      ///< free text; says which figures are estimates
};

/// Which switch the planner picks when the spec names none.
struct SwitchDefault {
    Fabric fabric;
    std::optional<IbGeneration> generation; ///< InfiniBand
    std::optional<int> speedGbps;           ///< Ethernet
    std::string switchId;
};

/// The hardware catalog: the built-in JSON files plus any the user adds.
/// Later files may add entries; an id that exists already is an error naming both files.
class Catalog {
public:
    /// The catalog compiled into the program (resources/catalog/*.json).
    static Result<Catalog> builtin();

    /// Adds the entries of one catalog document. `sourceName` names it in errors.
    /// Errors name the file, the entry (by id or index) and the field.
    Status addJson(std::string_view jsonText, const std::string& sourceName);
    /// Reads a catalog file from disk and adds it.
    Status addFile(const std::string& path);

    const SwitchModel* findSwitch(std::string_view id) const;
    const NicModel* findNic(std::string_view id) const;
    const NodeType* findNodeType(std::string_view id) const;
    const CableModel* findCable(std::string_view id) const;
    const TransceiverModel* findTransceiver(std::string_view id) const;

    const std::vector<SwitchModel>& switches() const { return m_switches; }
    const std::vector<NicModel>& nics() const { return m_nics; }
    const std::vector<NodeType>& nodeTypes() const { return m_nodeTypes; }
    const std::vector<CableModel>& cables() const { return m_cables; }
    const std::vector<TransceiverModel>& transceivers() const { return m_transceivers; }
    const std::vector<SwitchDefault>& defaults() const { return m_defaults; }

    /// The default switch for a fabric at a port rate, or nullptr.
    /// The catalog's default for the generation (IB) or speed (Ethernet) when it has a mode at exactly
    /// `rate`; otherwise the first switch of the fabric that has one (400G over 8 lanes: sn5400).
    const SwitchModel* defaultSwitch(Fabric fabric, const PortRate& rate) const;

private:
    void checkReferences(const detail::CatalogDocument& doc, const std::string& file, Errors& errors) const;

    std::vector<SwitchModel> m_switches;
    std::vector<NicModel> m_nics;
    std::vector<NodeType> m_nodeTypes;
    std::vector<CableModel> m_cables;
    std::vector<TransceiverModel> m_transceivers;
    std::vector<SwitchDefault> m_defaults;
};

} // namespace railyard::core
