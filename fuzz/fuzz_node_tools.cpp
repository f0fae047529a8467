// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What the node-side tools print and the sysfs files say (live/common/tool_parsers.h,
// live/common/sysfs_counters.h, live/common/rate.h, live/node/sysfs_read.h): the files of
// `live check --dumps` and of the agent's stand-in sources. The first byte picks the reader:
//   0 ibstat  1 ibdev2netdev  2 nvidia-smi topo -m  3 lldpctl -f keyvalue  4 ethtool -S
//   5 mlnx_qos  6 dcb pfc show (the PFC bits)  7 dcb pfc show (everything)  8 lsmod
//   9 a counter file: "<name>\n<content>", read as sysfs does and classified as counters/ and hw_counters/
//   10 a port's `rate` file and a GUID in any form
// Checked: the classified counter's saturation matches its width; a value above 32 bits is never a
// 32-bit counter; a number reads back from its decimal form; an nvidia-smi table's rows have one
// cell per NIC column; both dcb readers agree on the PFC bits; a GUID's sysfs form is a GUID.
#include "live/common/rate.h"
#include "live/common/sysfs_counters.h"
#include "live/common/tool_parsers.h"
#include "live/node/sysfs_read.h"
#include "fuzz/fuzz_support.h"

#include <limits>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_node_tools";

void checkCounter(const live::Counter& c, std::uint64_t value, const std::string& name)
{
    RAILYARD_FUZZ_CHECK(kTarget, c.value == value, name);
    RAILYARD_FUZZ_CHECK(kTarget, c.widthBits >= 1 && c.widthBits <= 64, name + ": width " + std::to_string(c.widthBits));
    const std::uint64_t max = c.widthBits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t { 1 } << c.widthBits) - 1;
    if (c.kind == live::CounterKind::Saturating)
        // At or above its maximum (a value above it cannot come from a counter of that width; it
        // is kept as saturated rather than trusted).
        RAILYARD_FUZZ_CHECK(kTarget, c.saturated == (value >= max), name + ": saturated flag wrong at " + std::to_string(value));
    else
        RAILYARD_FUZZ_CHECK(kTarget, !c.saturated, name + ": only a saturating counter saturates");
    if (c.kind == live::CounterKind::Wrapping32)
        RAILYARD_FUZZ_CHECK(kTarget, c.widthBits == 32 && value <= max, name + ": a 32-bit counter holds " + std::to_string(value));
}

void counterFile(std::string_view text)
{
    const std::size_t nl = text.find('\n');
    const std::string name(text.substr(0, nl));
    const std::string_view content = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const std::optional<std::uint64_t> value = live::sysfs::parseUnsigned(content);
    if (!value)
        return;
    RAILYARD_FUZZ_CHECK(kTarget, live::sysfs::parseUnsigned(std::to_string(*value)) == value, std::to_string(*value));
    checkCounter(live::sysfs::portCounter(name, *value), *value, "counters/" + name);
    checkCounter(live::sysfs::hwCounter(name, *value), *value, "hw_counters/" + name);
}

void topo(std::string_view text)
{
    auto t = live::parseNvidiaSmiTopo(text);
    if (!t)
        return;
    RAILYARD_FUZZ_CHECK(kTarget, t->gpuToNic.size() == t->gpus.size(), "one row per GPU");
    for (std::size_t g = 0; g < t->gpus.size(); ++g) {
        RAILYARD_FUZZ_CHECK(kTarget, t->gpuToNic[g].size() == t->nics.size(), t->gpus[g] + ": one cell per NIC column");
        if (const auto nic = live::closestNic(*t, g))
            RAILYARD_FUZZ_CHECK(kTarget, *nic < t->nics.size(), t->gpus[g] + ": closest NIC out of range");
    }
}

void dcb(std::string_view text)
{
    std::vector<std::string> warnings;
    auto bits = live::parseDcbPfcShow(text);
    auto all = live::parseDcbPfc(text, warnings);
    if (bits && all && all->prioPfcKnown)
        RAILYARD_FUZZ_CHECK(kTarget, *bits == all->prioPfc, "the two dcb readers disagree on prio-pfc");
}

void rateAndGuid(std::string_view text)
{
    if (const auto rate = live::parseRateText(text))
        RAILYARD_FUZZ_CHECK(kTarget, rate->width >= 0, "negative width");
    if (const auto sysfs = live::guidToSysfsForm(text)) {
        RAILYARD_FUZZ_CHECK(kTarget, sysfs->size() == 19, "sysfs GUID form " + *sysfs);
        RAILYARD_FUZZ_CHECK(kTarget, live::guidToSysfsForm(*sysfs) == sysfs, "sysfs GUID form does not read back: " + *sysfs);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    std::vector<std::string> warnings;
    switch (data[0] % 11) {
    case 0: (void)live::parseIbstat(text, warnings); break;
    case 1: (void)live::parseIbdev2netdev(text, warnings); break;
    case 2: topo(text); break;
    case 3: (void)live::parseLldpctlKeyvalue(text, warnings); break;
    case 4: (void)live::parseEthtoolStats(text, warnings); break;
    case 5: (void)live::parseMlnxQos(text, warnings); break;
    case 6:
    case 7: dcb(text); break;
    case 8: (void)live::parseLsmod(text); break;
    case 9: counterFile(text); break;
    default: rateAndGuid(text); break;
    }
    return 0;
}
