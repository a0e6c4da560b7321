"""The suite's mode adds options to every command it times (smoke: `--samples
300 --epochs 1 --validation 100`; quick: `--samples 10000`). A recipe that
gives one of them itself (the best recipe's `--epochs 60`) would name it twice,
which cae refuses: the mode's value wins, since the mode exists to bound the
run. Standard library only."""


def option_items(options):
    """[[option, value?], ...]: each option with the value that follows it
    (an item that does not start with "--")."""
    items, i = [], 0
    while i < len(options):
        takes_value = i + 1 < len(options) and not options[i + 1].startswith("--")
        items.append(list(options[i:i + (2 if takes_value else 1)]))
        i += len(items[-1])
    return items


def with_mode_options(mode_options, options):
    """The mode's options, then `options` less those the mode gives."""
    given = {item[0] for item in option_items(mode_options)}
    kept = [part for item in option_items(options) if item[0] not in given for part in item]
    return list(mode_options) + kept
