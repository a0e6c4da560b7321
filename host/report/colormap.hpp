// Colour maps for heat maps: a value in [0, 1] to a colour.
#pragma once

#include "report/color.hpp"

namespace cae {

enum class ColorMap {
  // White to dark blue: nearly-empty cells stay quiet, so the few large
  // values (a confusion matrix's diagonal and its worst confusions) stand out.
  kBlues,
  // Perceptually uniform dark purple to yellow, readable in grey scale and by
  // colour-blind readers.
  kViridis,
};

// `value` is clamped to [0, 1]; NaN maps to the colour of 0.
Rgb map_color(ColorMap map, double value);

// Black or white, whichever contrasts more with `background`: for text
// drawn on top of a coloured cell.
Rgb readable_text_color(Rgb background);

}  // namespace cae
