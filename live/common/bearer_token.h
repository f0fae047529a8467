// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The bearer token of a token file, read one way by the agent (--token-file), the emulator and
// every client (agents.json's token_file, --token-file).
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

namespace railyard::live {

/// The token in `text`, a token file's content: its first line with the blanks around it
/// trimmed, which must be one word of visible ASCII ('!' to '~'), so that it goes into an
/// "Authorization: Bearer" header as it is (RFC 6750's b64token is a subset). Errors are
/// TOKEN_FILE, say what is wrong and at which column of the line, and have `where` as theirs.
core::Result<std::string> parseBearerToken(std::string_view text, const std::string& where);

} // namespace railyard::live
