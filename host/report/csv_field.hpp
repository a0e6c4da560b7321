// Quoting of one CSV field (RFC 4180), and reading such a table back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cae {

// `text` as it must appear in a CSV line: unchanged when safe, otherwise in
// double quotes with inner quotes doubled (commas, quotes, line breaks, or
// spaces at either end, which some readers would trim).
std::string csv_field(std::string_view text);

// The rows of a CSV text (quoted fields may hold commas, quotes and line
// breaks; "\r\n" and "\n" both end a row; a final line break is optional).
// Throws std::invalid_argument for a quote that is never closed.
std::vector<std::vector<std::string>> parse_csv(std::string_view text);

}  // namespace cae
