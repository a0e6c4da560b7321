// Escaping text for HTML.
#pragma once

#include <string>
#include <string_view>

namespace cae {

// `text` safe to place in HTML element content and in quoted attribute values:
// & < > " ' become character references. Bytes are otherwise kept, so UTF-8
// passes through unchanged.
std::string html_escape(std::string_view text);

}  // namespace cae
