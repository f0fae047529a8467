// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"

#include <string>
#include <string_view>
#include <vector>

// The reader of one catalog document (resources/catalog/README.md describes the schema).
// Internal to railyard_core: Catalog::addJson is the public entry point.
namespace railyard::core::detail {

/// The entries of one catalog document, in the order the file lists them.
struct CatalogDocument {
    std::vector<SwitchModel> switches;
    std::vector<NicModel> nics;
    std::vector<NodeType> nodeTypes;
    std::vector<CableModel> cables;
    std::vector<TransceiverModel> transceivers;
    std::vector<SwitchDefault> defaults;
};

/// Reads one document; every entry's `source` is `sourceName`. Checks each entry on its own and
/// ids within the document; references to other entries (node type -> NIC, default -> switch)
/// are checked by the catalog, which knows the earlier files.
Result<CatalogDocument> parseCatalogDocument(std::string_view jsonText, const std::string& sourceName);

/// `file: section[index] (id "x"): field`, the `where` of a catalog error.
std::string catalogWhere(const std::string& file, std::string_view section, std::size_t index,
    std::string_view id, std::string_view field);

} // namespace railyard::core::detail
