/* The canonical text of a backend option's value (ABI 1.4: cae_option_type in
 * backend.h), checked one way by everyone who reads it: the host, before it
 * calls create_with_options, and a backend, inside it. Header-only and in C,
 * so that a backend written in C includes it as it includes backend.h; it
 * adds nothing to the ABI (no member, no symbol).
 *
 *   CAE_OPTION_BOOL   "true" or "false"
 *   CAE_OPTION_INT    a decimal integer: an optional '-', digits, nothing else
 *   CAE_OPTION_FLOAT  a finite decimal number as strtod reads it, with no
 *                     leading blank or '+' ("0.25", "-1e-3"; never "nan")
 *   CAE_OPTION_ENUM   exactly one of the words of `choices` ("fast|precise"
 *                     allows "fast" and "precise", not "fast|precise")
 */
#ifndef CAE_OPTION_TEXT_H
#define CAE_OPTION_TEXT_H

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 and *value set when `text` is a canonical integer, else 0. */
static inline int cae_option_parse_integer(const char* text, long long* value) {
  char* end = NULL;
  if (!text || !(text[0] == '-' || (text[0] >= '0' && text[0] <= '9'))) return 0;
  errno = 0;
  *value = strtoll(text, &end, 10);
  return errno == 0 && end && *end == '\0';
}

/* 1 and *value set when `text` is a canonical finite number, else 0. */
static inline int cae_option_parse_number(const char* text, double* value) {
  char* end = NULL;
  if (!text || text[0] == '\0' || text[0] == ' ' || text[0] == '\t' || text[0] == '+') return 0;
  errno = 0;
  *value = strtod(text, &end);
  return errno == 0 && end && *end == '\0' && isfinite(*value);
}

/* 1 when `text` is one whole word of the '|'-separated `choices`, else 0. */
static inline int cae_option_is_choice(const char* choices, const char* text) {
  const char* word = choices;
  size_t length;
  if (!choices || !text || text[0] == '\0') return 0;
  length = strlen(text);
  for (;;) {
    const char* bar = strchr(word, '|');
    const size_t word_length = bar ? (size_t)(bar - word) : strlen(word);
    if (word_length == length && strncmp(word, text, length) == 0) return 1;
    if (!bar) return 0;
    word = bar + 1;
  }
}

/* 1 when `text` is a value an option of this type, range and choices
 * allows, in canonical form, else 0 (an unknown type allows nothing). */
static inline int cae_option_value_allowed(int32_t type, double min_value, double max_value,
                                           const char* choices, const char* text) {
  long long integer = 0;
  double number = 0.0;
  if (!text) return 0;
  switch (type) {
    case CAE_OPTION_BOOL:
      return strcmp(text, "true") == 0 || strcmp(text, "false") == 0;
    case CAE_OPTION_INT:
      return cae_option_parse_integer(text, &integer) && (double)integer >= min_value &&
             (double)integer <= max_value;
    case CAE_OPTION_FLOAT:
      return cae_option_parse_number(text, &number) && number >= min_value && number <= max_value;
    case CAE_OPTION_ENUM:
      return cae_option_is_choice(choices, text);
    default:
      return 0;
  }
}

#ifdef __cplusplus
}
#endif

#endif /* CAE_OPTION_TEXT_H */
