import unittest

from mode_options import option_items, with_mode_options


class ModeOptionsTest(unittest.TestCase):
    def test_items_keep_each_value_with_its_option(self):
        self.assertEqual(option_items(["--augment", "flip", "--contrast-normalize", "--epochs", "60", "--search"]),
                         [["--augment", "flip"], ["--contrast-normalize"], ["--epochs", "60"], ["--search"]])
        self.assertEqual(option_items(["--input-noise", "-0.1"]), [["--input-noise", "-0.1"]])
        self.assertEqual(option_items([]), [])

    def test_the_mode_replaces_what_the_recipe_gives_too(self):
        smoke = ["--samples", "300", "--epochs", "1", "--validation", "100"]
        recipe = ["--features", "latent+flip", "--contrast-normalize", "--epochs", "60", "--search"]
        self.assertEqual(with_mode_options(smoke, recipe),
                         smoke + ["--features", "latent+flip", "--contrast-normalize", "--search"])

    def test_full_mode_leaves_the_recipe_as_it_is(self):
        recipe = ["--augment", "flip", "--epochs", "60"]
        self.assertEqual(with_mode_options([], recipe), recipe)
        self.assertEqual(with_mode_options(["--samples", "10000"], recipe), ["--samples", "10000"] + recipe)


if __name__ == "__main__":
    unittest.main()
