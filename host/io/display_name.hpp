// Names read from files that cae then shows in figures, pages, JSON and
// messages (class names, a loss table's series): cairo and the JSON writer
// refuse bytes that are not UTF-8, and a control character would break a
// one-line message or a table, so a reader refuses such a name at once
// rather than a later stage failing after the work.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cae {

inline constexpr size_t kMaxDisplayNameBytes = 256;

// Length of the UTF-8 sequence starting at text[i] (i < text.size()), 0 when
// none starts there (overlong forms, surrogates and code points past
// U+10FFFF are none).
size_t utf8_sequence_length(std::string_view text, size_t i);

// Empty when `name` is valid UTF-8 of at most kMaxDisplayNameBytes bytes
// without control characters; otherwise why not, e.g. "is not UTF-8".
std::string display_name_problem(std::string_view name);

}  // namespace cae
