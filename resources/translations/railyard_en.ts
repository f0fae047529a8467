<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>railyard::app::AddressesModel</name>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peer address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ASN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::AdvisorDialog</name>
    <message>
        <source>InfiniBand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the answers argues for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which fabric: InfiniBand or RoCEv2?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About the cluster and the team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs on the back-end (GPU-to-GPU) fabric. Prefilled from the current plan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs on the fabric:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The team already operates Ethernet data-centre networks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch OS, monitoring, automation, spares and on-call practice for Ethernet are in place. RoCEv2 reuses all of that; InfiniBand brings a second network technology into operations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone on staff has tuned lossless Ethernet (PFC, ECN, DCQCN) in production</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2 needs priority flow control, ECN marking and DCQCN set consistently on every NIC and switch hop. InfiniBand is lossless by design and has no such settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Depending on a single vendor is a concern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand switches, adapters and the subnet manager come in practice from one vendor; RoCEv2 runs on Ethernet from several.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The budget is tight (cost per port weighs heavily)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ethernet switches and optics usually cost less per port than InfiniBand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fabric is shared (tenants, storage or front-end Ethernet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A fabric converged with other Ethernet traffic favours RoCEv2; a dedicated back-end network suits InfiniBand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confidence %1% (InfiniBand %2, RoCEv2 %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a close call: either fabric can be defended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get right with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply: switch to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the spec to %1 (%2) with the catalog&apos;s default switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NDR 4x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>400G Ethernet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec already uses %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::BomModel</name>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length (m)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unit price (USD)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::CableMapModel</name>
    <message>
        <source>End A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cage A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cage B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medium</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length (m)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::CompareView</name>
    <message>
        <source>Fabric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spine switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Core switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node-leaf links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf-spine links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spine-core links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transceivers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bisection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Oversubscription (leaf, spine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:1, %2:1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not priced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1
%n node(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Pin current plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the plan shown now as a column of the comparison (up to %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Growth at the current design choices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First pin: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin plans to compare them; cells that differ from the first pin are highlighted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep cancelled: the spec changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost (US$ thousands)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power (kW)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planning %1 cluster sizes...</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n node(s): %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Planned %1 of %2 cluster sizes...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches and cost at %1 cluster sizes with the current design choices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches and power at %1 cluster sizes with the current design choices (some parts have no price).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each point re-plans the current spec at another size, keeping its fabric, link, node type, switches, SU size and oversubscription.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not planned: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::Export</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export bill of materials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Excel workbooks (*.xlsx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export cable map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export topology for ibsim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ibnetdiscover topology (*.ibnet *.txt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export topology for ibdiagnet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ibdiagnet topology (*.topo)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the NetBox import files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 describes an InfiniBand subnet; this plan is RoCEv2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown export %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export address plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the switch configurations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder for the host scripts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::FindingsModel</name>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::IntentView</name>
    <message>
        <source>Make it &amp;routed (default ranges)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adds `addressing` to the spec: a /31 per link from 10.0.0.0/10, loopbacks from 10.255.0.0/16, a private AS number per leaf (eBGP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVIDIA Cumulus (NVUE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SONiC (config_db.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The switch operating system the configurations are written for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the shown configuration (or the address plan as CSV) to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address plan (CSV)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address plan (JSON)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch configurations (NVUE) to a folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch configurations (SONiC) to a folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host scripts to a folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch OS:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find a switch, node or address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plan yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand needs no address plan or switch configuration from here: the Subnet Manager assigns the LIDs and computes the routes. The network intent (addresses, BGP, lossless QoS, host routing) is for RoCEv2 plans.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This RoCEv2 plan is not routed: its spec has no `addressing`. A routed (L3) fabric gives every link a /31 (or every leaf a subnet for its NICs), every switch a loopback and an AS number for eBGP, and from them Railyard generates each switch&apos;s configuration (addresses, BGP, the lossless QoS of the plan) and each node&apos;s host script (addresses, source routing per NIC, ARP and rp_filter, mlnx_qos, ECN/DCQCN, NCCL environment).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assigning addresses...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address plan cannot be made:
%1

Widen the range in the spec&apos;s `addressing`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routed RoCEv2, %1: %2 links from %3, %4 loopbacks from %5, AS numbers %6 from %7; %8 NIC ports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hosts (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveBusbwChart</name>
    <message>
        <source>message size (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busbw (GB/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plan&apos;s bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busbw, all rails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busbw, rail %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveConnectDialog</name>
    <message>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to the agents of a hostfile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one host per line: node001, or node001 slots=8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hostfile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The port every railyard-agent listens on (its --listen; 9473 by default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent &amp;port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the fabric from Prometheus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>railyard (the agents&apos; railyard_* series)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>node-exporter (node_infiniband_*: no ECN, PFC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Metrics:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Selector:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveFabricView</name>
    <message>
        <source>leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rates yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>healthy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>congested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pausing (PFC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>erroring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SU %1.%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p%1 r%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>r%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, SU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, rail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, plane %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, pod %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 host port(s) below; %2 uplink(s) to %3 switch(es) above (%4 Gb/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rates yet from its hosts&apos; ports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its %1 host port(s) send %2 Gb/s into it and receive %3 Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1 % of its uplink capacity (what can leave the leaf; the uplinks&apos; own counters are not read here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %1 % of its host ports&apos; line rate (no uplinks: one leaf per rail)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s, link errors %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 link(s) down to %2 switch(es); %3 link(s) up to %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unhealthy leaves below: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its own ports&apos; load needs the switch counters (live watch --switches); the hosts&apos; agents do not see it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;Click a switch in the leaf/spine view to see its ports and findings.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;... and %1 more.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Below (%1 ports)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cabled to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tx Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rx Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Above (%1 uplinks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this switch.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan has no switches to show yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hosts&apos; traffic at the uplinks&apos; capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>congested or pausing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 switch pairs: links drawn for the selected switch and unhealthy leaves</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveFindingsModel</name>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>congestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>test</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveGrid</name>
    <message>
        <source>, rail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port: %1 port %2, leaf %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rates yet for this port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent %1 Gb/s (%2 % of %3), received %4 Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link errors this interval: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check: error findings here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check: warnings here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected. Press Demo fabric to emulate the current plan, or open the agents.json of a fabric.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveHistoryModel</name>
    <message>
        <source>incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>errors found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not stored yet: open or save a project to keep it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (not stored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveHistoryPage</name>
    <message>
        <source>Save project...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the project: this session&apos;s runs are stored in it, and every run after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the selected run&apos;s result page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select two runs of the same kind (before and after a change) and compare them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export JSON...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring-up report (PDF)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan, the fabric&apos;s status, the last check and this session&apos;s tests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project is open: this session&apos;s runs are listed but not stored. Save the project to keep them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs stored in %1 (railyard-cli results list --project shows the same).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project&apos;s runs could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a run in the list first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A %1 run and a %2 run measure different things: select two runs of the same kind.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt;: %1 %2 (%3) &amp;nbsp; &lt;b&gt;B&lt;/b&gt;: %4 %5 (%6) &amp;nbsp; measured in %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select exactly two runs (Ctrl+click) to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the run to export first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export results as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export results as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the bring-up report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote the bring-up report to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the two runs...</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveNodePanel</name>
    <message>
        <source>&lt;p&gt;Click a node in the grid to see its ports, counters and findings.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, answered in %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NIC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tx Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rx Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ECN/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CNPs %1/s, PFC pauses %2/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this node (run the live check, F5, to read its inventory).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this node.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the last check could not read on this node:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveNodesModel</name>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveRailChart</name>
    <message>
        <source>%.0f s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gb/s per port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each rail&apos;s mean throughput per port: sent solid, received dashed; the plan&apos;s line rate dashed grey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each rail&apos;s congestion signals, summed over its ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ECN marks, PFC pauses /s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>XmitWait ticks/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scroll back through the samples kept; at the right end the chart follows the newest. The mouse wheel on the chart zooms.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveReport</name>
    <message>
        <source>No findings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding and what to do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fabric status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected when the report was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 node(s), %3 connected, %4 slow, %5 lost; %6 rail(s) at %7 Gb/s per port in the plan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tx Gb/s per port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rx Gb/s per port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard bring-up report, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last live check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No live check was run in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No bandwidth or all-reduce test was run in this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring-up of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring-up report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the nodes&apos; sysfs or outputs did not give:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 more</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveSession</name>
    <message>
        <source>There is no plan to emulate yet: wait for the planner to finish, or fix the spec&apos;s errors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>demo fabric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo fabric could not update its counters: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo fabric did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no plan to compare the fabric with yet: wait for the planner to finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot use %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the agents&apos; token: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Faults can be injected into a demo fabric only: connect to one first (Live &gt; Demo fabric).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fault cannot be injected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no fault given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fault %1 was not injected: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents can be stopped and started in a demo fabric only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to check: connect to a demo fabric or to an agents.json first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading inventories: %1 of %2 nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the token for Prometheus: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read from Prometheus at %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to test: connect to a demo fabric or to an agents.json first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A test is running: stop it first (Shift+F6).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tests cannot run on this demo fabric: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a node of this fabric&apos;s agents: name plan nodes (node001, ...), or leave the list empty for all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> on rail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tests done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was not stored in the project: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown test kind %1: choose allreduce, allgather, reduce_scatter, write_bw or read_bw.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sizes: from %1 to %2 is not a range of sizes: give a first size above 0 and a last size at least as large.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iterations: give at least 1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message size: %1 is not a perftest size (1 B to 2 GiB - 1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2: %3 B, busbw %4 GB/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveTestPage</name>
    <message>
        <source>Run &amp;test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the chosen test on the nodes (F6)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End the test on every node; what was measured is kept (Shift+F6)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All-reduce (nccl-tests)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUDirect bandwidth per rail (ib_write_bw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes: node001,node002,... (empty: every node)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One run per rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan&apos;s bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to a fabric, then run a test: an all-reduce across the nodes, or every rail&apos;s GPUDirect bandwidth pair by pair.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth test: starting the first round...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>low</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 finished: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All-gather (nccl-tests)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reduce-scatter (nccl-tests)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUDirect read bandwidth per rail (ib_read_bw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collectives: NCCL_IB_HCA set to one rail&apos;s NIC per run, a verdict per rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first message size (nccl-tests -b): bytes, or with K, M or G</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last message size (nccl-tests -e); each size is 4 times the one before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The message size of every test (perftest -s): bytes, or with K, M or G</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iterations per message size (nccl-tests -n)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Iterations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message si&amp;ze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: starting mpirun through the first node&apos;s agent...</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveTestResultView</name>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding and what to do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run shown: run a test, or open one in History.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2, %3: %4 &lt;i&gt;(%5)&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> &amp;mdash; run %1 of the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 nodes: %2, ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveWorkspace</name>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Congestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live check: reading every node&apos;s inventory...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; some nodes could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live check cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Injected %1; checking the fabric again...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Demo fabric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emulate the current plan on this machine and connect to its agents (Ctrl+Shift+D)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Agents file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to the agents listed in an agents.json (Ctrl+Shift+A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dis&amp;connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freeze the charts; sampling goes on (Ctrl+Shift+P)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run live &amp;check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare every node&apos;s inventory with the plan (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inject &amp;fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Into the demo fabric, at the selected cell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Degraded link (half width)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cable unplugged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Congested leaf uplinks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PFC off on the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ECN off on the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPUDirect on the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the node&apos;s agent again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the node&apos;s agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a node in the grid first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inject fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors and warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter: code, node, words...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan ready: press Demo fabric (Ctrl+Shift+D) to emulate it, or open the fabric&apos;s agents.json.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent lists (agents.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the demo fabric: writing the emulated nodes and starting their agents...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to the agents of %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected to the %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 node(s): %3 connected, %4 slow, %5 lost; sweep %6 ms; %7 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a node or leaf of the grid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Faults go into a demo fabric: connect to one first (Ctrl+Shift+D).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click the cell (node and rail) to inject the fault into first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The leaf of %1 rail %2 has no uplinks to congest (one leaf per rail, or no rates yet).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf/spine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hostfile...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to the agents of the hosts in a hostfile (one per line, Open MPI&apos;s host slots=N too)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;rometheus...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the fabric&apos;s rates from a Prometheus server that scrapes the agents or the node exporter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2 host settings (the selected NIC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust mode PCP instead of DSCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PFC on the wrong priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MTU 1500</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rp_filter strict (routed plans)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCE v2 GID at another index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live check: %1 error(s), %2 warning(s) over %3 node(s)%4%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 node(s) with reading notes (click one to see them)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::MainWindow</name>
    <message>
        <source>Railyard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planning cancelled; showing the previous plan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topology</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cable map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bill of materials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open spe&amp;c...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sa&amp;ve spec as...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bill of materials (CSV)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bill of materials (XLSX)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bill of materials (JSON)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cable map (CSV)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cable map (XLSX)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topology (ibnetdiscover)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topology (ibdiagnet .topo)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NetBox import files...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan (JSON)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report (PDF)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which &amp;fabric? (advisor)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the advisor whether InfiniBand or RoCEv2 suits this cluster and team</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Railyard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System</source>
        <extracomment>View &gt; Language: follow the system&apos;s language</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language changes when Railyard is started again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop planning and keep the previous plan (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 nodes, %2 switches, %3 links; %4 error(s), %5 warning(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec cannot be planned: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting %1...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open plan spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan specs (*.plan.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save plan spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan specs (*.plan.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Railyard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Railyard %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Plans and brings up rail-optimized GPU fabrics, InfiniBand or RoCEv2.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Planner workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Live workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network intent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectController</name>
    <message>
        <source>Project operation failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectDialog</name>
    <message>
        <source>Plans and revisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plan / revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected revision (a plan: its latest revision)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project is open. Save the project to keep plans in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n revision(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Revision %1</source>
        <extracomment>A revision of a plan in the &quot;Plans and revisions&quot; list</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name for plan &quot;%1&quot;:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete plan &quot;%1&quot; and all its revisions from the project? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectSession</name>
    <message>
        <source>Saved plan &quot;%1&quot; as revision %2 in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open project...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the spec as a new revision of its plan in the project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save project &amp;as...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Plans and revisions...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[*] — %2 — Railyard</source>
        <extracomment>Window title: plan name, then the project file; [*] shows * while there are unsaved edits</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened plan &quot;%1&quot;, revision %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard did not exit cleanly. Unsaved changes to plan &quot;%1&quot; in %2 (autosaved %3) can be restored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard did not exit cleanly. An unsaved plan (autosaved %1) can be restored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of this plan in the project:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard projects (*.railyard)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The plan has changes that are not saved in a project. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard projects (*.railyard);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::ReportPdf</name>
    <message>
        <source>Untitled plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topology</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No topology picture was available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bill of materials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unit price</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total of the priced lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some parts have no price in the catalog; the total leaves them out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The catalog has no prices for these parts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No findings: the design follows every rule Railyard checks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Railyard fabric report, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the PDF writer did not start</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::SpecForm</name>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GbE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lanes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n name(s) listed in the spec</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>default for the speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same as leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same as spine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (other fabric)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from node type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from node type (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %L1 nodes of %2 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>= %L1 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1x (%2 Gb/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1x (not offered)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be &quot;down:up&quot; like &quot;2:1&quot;, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be priorities from 0 to 7, separated by commas, like &quot;3&quot; or &quot;3, 4&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> m</source>
        <extracomment>Unit suffix of a distance in metres.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free text that names the design in reports and exports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2 (Ethernet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand: a credit-based lossless fabric run by a subnet manager. RoCEv2: RDMA over UDP/IP on Ethernet, kept lossless by PFC, ECN and DCQCN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The GPU server from the catalog. It gives the GPUs per node, the compute NICs (one per rail) and the NIC model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the cluster size in nodes (servers) or in GPUs; with GPUs, nodes = GPUs / GPUs per node, rounded up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many nodes (servers) the fabric connects, or how many GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overrides the node type&apos;s GPU count. Leave it at &quot;from node type&quot; unless the servers differ from the catalog.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rail is the set of NIC k of every node, wired to its own leaf switches, so GPU k talks to GPU k elsewhere in one hop. Rails = compute NICs per node; overrides the node type.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NIC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compute NIC model; by default the node type&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A pattern with exactly one %0Nd, numbered from 1 in SU order: node%03d gives node001, node002 and so on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand speed grade per lane: EDR 25, HDR 50, NDR 100, XDR 200 Gb/s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lanes per port. NDR 2x is NDR200 (200 Gb/s): a QM9700 then has 128 ports instead of 64 at NDR 4x (400 Gb/s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ethernet port speed of each NIC port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NIC&apos;s native</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 lane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ethernet lanes per port. 400G is 4 x 100G on ConnectX-7 but 8 x 50G on some switches; the two cannot be cabled together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The leaf (rail) switch model; by default the catalog&apos;s switch for the fabric and speed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spine switch model; by default the leaf&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The core switch model of a three-tier fabric; by default the spine&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Topology</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>derived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SU size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A scalable unit (SU) is a group of nodes whose NIC k all share one rail-k leaf; the SU size is the leaf&apos;s node-facing ports. Derived by default from the leaf&apos;s ports and the oversubscription.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Oversubscription is the down:up bandwidth ratio at a switch tier: 1:1 is non-blocking, 2:1 gives half as much uplink as downlink bandwidth.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spine ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 (leaf, spine)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 (leaf, spine, core)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch layers between nodes: two (leaf and spine) or three (with a core). Auto picks two while one spine layer can connect every leaf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Independent copies of the rail fabric. With two, each NIC port is split across two planes, e.g. 800G as 2 x 400G.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ports per leaf kept free for management, storage or growth; they do not carry planned links.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mgmt ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ports of fabric-management appliances (such as UFM) attached to the leaves of SU 1; counted as node-leaf cables.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grow to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The final size in nodes when building in phases: spines, cores and their cabling are planned for it, and the plan marks what is installed now. Must be more than the nodes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lossless profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2 only: how the Ethernet fabric avoids dropping RDMA traffic.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lossless</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PFC only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lossy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lossless: PFC on every hop, ECN marking at switches, DCQCN at NICs. PFC only: no ECN. Lossy: ECN and DCQCN without PFC, relying on NIC retransmission.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PFC priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PFC (priority flow control) pauses one traffic class when a buffer fills instead of dropping. The priority (0 to 7) that carries RoCE; several separated by commas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marking at switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ECN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ECN (explicit congestion notification): switches mark packets when a queue builds up instead of dropping them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate control at NICs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DCQCN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DCQCN: a NIC that receives ECN-marked packets sends CNPs back, and the sender slows down.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCP (VLAN)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which packet field switches and NICs trust to pick the priority: DSCP in the IP header (works without VLANs) or the VLAN PCP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCE DSCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSCP value of RoCE data packets (0 to 63), mapped to the PFC priority.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CNP DSCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DSCP value of congestion notification packets (CNPs), usually a strict-priority class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> B</source>
        <extracomment>Unit suffix of an MTU in bytes.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MTU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An RDMA path MTU (256, 512, 1024, 2048 or 4096) or an Ethernet interface MTU from 1500 to 9216.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rack layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where nodes and switches sit; cable lengths follow from it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes per rack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU servers in one rack.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row (network rack)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rack (top of rack)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaves in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row: the leaves of an SU sit in a network rack in the middle of its row. Rack: in the node racks, top of rack.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rack width</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distance between neighbouring racks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In-rack run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vertical cable run at each end: up to the tray and down into the rack.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added to every cable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SU pitch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distance between neighbouring SU rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To spines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From an SU row to the spine area.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the spine area to the core area.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>derived (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the marked fields to plan again; the plan shown is for the last valid spec.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec cannot be planned; the marked fields say why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a private AS number: 4200000000 to 4294967294 or 64512 to 65534</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Addressing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2 only: a routed (L3) fabric, its address ranges and BGP AS numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>routed (L3, eBGP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Routing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every link gets its own addresses and every switch a loopback and an AS number; the Network intent page then generates the switch and host configuration. Off: the plan has no addresses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/31 per link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>subnet per leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/31 per link: each NIC-leaf link is its own /31 (the leaf side takes the even address). Subnet per leaf: the NICs of one leaf share a subnet with the leaf as gateway; switch-to-switch links stay /31.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fabric range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IPv4 prefix the link /31s and the leaf subnets come from, like 10.0.0.0/10. A 128K-GPU fabric needs about 400,000 /31s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loopbacks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IPv4 prefix of the switches&apos; loopbacks (one /32 each, also the BGP router id).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AS numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per leaf: a unique AS number per leaf, one per spine group and core plane (RFC 7938). Per tier: one for all leaves, one for the spines, one for the cores (the leaves then allow their own AS in paths).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First ASN</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First AS number, private only: 4200000000 to 4294967294 (4-byte) or 64512 to 65534 (2-byte).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::SummaryView</name>
    <message>
        <source>This spec cannot be planned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Links below</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No findings: the design follows every rule Railyard checks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>switches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transceivers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoCEv2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scalable units</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 nodes, %3 leaf per rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 (%1 pods of %2 SU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaf ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 down, %2 up; %3 links to each of %4 spines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Oversubscription</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leaf %1:1, spine %2:1 (as built)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bisection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LIDs per subnet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch hops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same leaf %1, same rail other SU %2, across rails %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switches and links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::SwitchesModel</name>
    <message>
        <source>Switch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::TablePage</name>
    <message>
        <source>Search (any column)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 rows</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::TopologyView</name>
    <message>
        <source>Zoom In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapsed: one box per SU and rail, bundles show link counts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hover a cable for its ports; right-click to mark failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Mark %n Switches Failed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Restore %n Switches</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Mark Cable Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Mark All %n Cables Failed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Mark One Cable Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore Cable</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Restore %n Cables</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Restore All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collapsed View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 %3, %4 ports: %5 used, %6 reserved, %7 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, SU %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n device(s)&lt;/b&gt;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;… and %n more</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;font color=&apos;#d62728&apos;&gt;failed (what-if)&lt;/font&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;planned for growth, not installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 &lt;-&gt; %2, %3 %4 m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (planned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n cable(s)&lt;/b&gt;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Pod %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P%1 R%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>SU %1 · %n node(s)</source>
        <translation>
            <numerusform>SU %1 · %n node</numerusform>
            <numerusform>SU %1 · %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> + %n mgmt</source>
        <translation>
            <numerusform> + %n mgmt</numerusform>
            <numerusform> + %n mgmt</numerusform>
        </translation>
    </message>
    <message>
        <source>SU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Plane %1 · %n spine(s)</source>
        <translation>
            <numerusform>Plane %1 · %n spine</numerusform>
            <numerusform>Plane %1 · %n spines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n spine(s)</source>
        <translation>
            <numerusform>%n spine</numerusform>
            <numerusform>%n spines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n core(s)</source>
        <translation>
            <numerusform>%n core</numerusform>
            <numerusform>%n cores</numerusform>
        </translation>
    </message>
    <message>
        <source>Cores</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::WhatIfPanel</name>
    <message>
        <source>&lt;b&gt;What-if&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity lost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes cut off:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NIC ports lost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bandwidth left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of normal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring every failed switch and cable back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the impact…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing failed. Right-click a switch or a cable in the topology and choose Mark Failed to see what losing it costs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plan yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Failed: %n switch(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cable(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 % of the fabric&apos;s links)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rail %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Tb/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Gb/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>railyard::app::topo::RailLegend</name>
    <message>
        <source>Rails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
