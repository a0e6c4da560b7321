#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "report/confusion_csv.hpp"
#include "report/csv_field.hpp"
#include "report/loss_csv.hpp"
#include "report/predictions_csv.hpp"
#include "temp_dir.hpp"

TEST_CASE("csv fields are quoted only when needed") {
  CHECK(cae::csv_field("cat") == "cat");
  CHECK(cae::csv_field("") == "");
  CHECK(cae::csv_field("a,b") == "\"a,b\"");
  CHECK(cae::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(cae::csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(cae::csv_field(" padded") == "\" padded\"");
}

TEST_CASE("confusion matrix CSV has a header and one line per true class") {
  auto matrix = cae::ConfusionMatrix::from_labels({0, 0, 1, 2}, {0, 1, 1, 0}, 3);
  CHECK(cae::confusion_csv(matrix, {"cat", "dog", "big, bad wolf"}) ==
        "true\\predicted,cat,dog,\"big, bad wolf\"\n"
        "cat,1,1,0\n"
        "dog,0,1,0\n"
        "\"big, bad wolf\",1,0,0\n");
  CHECK(cae::confusion_csv(matrix, {}) == "true\\predicted,0,1,2\n0,1,1,0\n1,0,1,0\n2,1,0,0\n");
  CHECK_THROWS_WITH_AS(cae::confusion_csv(matrix, {"cat"}),
                       doctest::Contains("1 class names given for 3 classes"),
                       std::invalid_argument);
}

TEST_CASE("predictions CSV lists every sample") {
  std::vector<std::string> names = {"plane", "car", "a \"bird\""};
  CHECK(cae::predictions_csv({2, 1}, {0, 1}, names) ==
        "index,true_label,predicted_label,true_name,predicted_name\n"
        "0,2,0,\"a \"\"bird\"\"\",plane\n"
        "1,1,1,car,car\n");
  CHECK(cae::predictions_csv({3}, {4}, {}) ==
        "index,true_label,predicted_label,true_name,predicted_name\n0,3,4,3,4\n");
  CHECK_THROWS_WITH_AS(cae::predictions_csv({0, 5}, {0, 0}, names),
                       doctest::Contains("sample 1: label 5"), std::invalid_argument);
  CHECK_THROWS_AS(cae::predictions_csv({0}, {}, names), std::invalid_argument);
}

TEST_CASE("CSV writers put the text into the file") {
  cae::test::TempDir dir;
  auto matrix = cae::ConfusionMatrix::from_labels({0, 1}, {1, 1}, 2);
  cae::write_confusion_csv(dir / "confusion.csv", matrix, {"a", "b"});
  CHECK(cae::test::read_file(dir / "confusion.csv") == cae::confusion_csv(matrix, {"a", "b"}));
  cae::write_predictions_csv(dir / "predictions.csv", {0, 1}, {1, 1}, {"a", "b"});
  CHECK(cae::test::read_file(dir / "predictions.csv") ==
        cae::predictions_csv({0, 1}, {1, 1}, {"a", "b"}));
  CHECK(cae::test::entries_in(dir.path()) == 2);  // no temporary files left over
}

TEST_CASE("a failed write leaves neither a partial file nor a temporary one") {
  cae::test::TempDir dir;
  auto matrix = cae::ConfusionMatrix::from_labels({0}, {0}, 1);

  // The final name is taken by a directory: the rename fails after the data
  // was written, so only cleanup keeps the folder clean.
  std::filesystem::create_directory(dir / "taken.csv");
  CHECK_THROWS_WITH_AS(cae::write_confusion_csv(dir / "taken.csv", matrix, {}),
                       doctest::Contains((dir / "taken.csv").c_str()), std::runtime_error);
  CHECK(std::filesystem::is_directory(dir / "taken.csv"));
  CHECK(cae::test::entries_in(dir.path()) == 1);

  // A parent that is a file, which even root cannot write into.
  { std::ofstream(dir / "plain") << "x"; }
  auto below_file = dir / "plain" / "predictions.csv";
  CHECK_THROWS_WITH_AS(cae::write_predictions_csv(below_file, {0}, {0}, {}),
                       doctest::Contains(below_file.c_str()), std::runtime_error);
  CHECK(cae::test::entries_in(dir.path()) == 2);
}

TEST_CASE("rewriting a file replaces it completely") {
  cae::test::TempDir dir;
  auto path = dir / "predictions.csv";
  std::vector<int> many(1000, 1);
  cae::write_predictions_csv(path, many, many, {});
  cae::write_predictions_csv(path, {0}, {0}, {});
  CHECK(cae::test::read_file(path) == cae::predictions_csv({0}, {0}, {}));
}

TEST_CASE("CSV text is parsed back field by field") {
  auto rows = cae::parse_csv("a,\"b, c\",\"say \"\"hi\"\"\"\r\n1,,\"two\nlines\"\n\nlast");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == std::vector<std::string>{"a", "b, c", "say \"hi\""});
  CHECK(rows[1] == std::vector<std::string>{"1", "", "two\nlines"});
  CHECK(rows[2] == std::vector<std::string>{"last"});
  CHECK_THROWS_AS(cae::parse_csv("\"open"), std::invalid_argument);
}

TEST_CASE("a confusion CSV reads back to the same matrix") {
  cae::test::TempDir dir;
  auto matrix = cae::ConfusionMatrix::from_labels({0, 0, 1, 2}, {0, 1, 1, 0}, 3);
  cae::write_confusion_csv(dir / "c.csv", matrix, {"cat", "dog", "big, bad wolf"});
  cae::ConfusionTable table = cae::read_confusion_csv(dir / "c.csv");
  CHECK(table.class_names == std::vector<std::string>{"cat", "dog", "big, bad wolf"});
  CHECK(cae::confusion_csv(table.matrix, table.class_names) ==
        cae::confusion_csv(matrix, {"cat", "dog", "big, bad wolf"}));

  std::ofstream(dir / "bad.csv") << "true\\predicted,a,b\na,1,x\nb,0,1\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "bad.csv"),
                       doctest::Contains("line 2: \"x\" is not a count"), std::runtime_error);
  std::ofstream(dir / "ragged.csv") << "true\\predicted,a,b\na,1\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "ragged.csv"),
                       doctest::Contains("not a square"), std::runtime_error);
}

TEST_CASE("a loss CSV reads back to the same series") {
  cae::test::TempDir dir;
  auto series = cae::train_and_test_series({0.5, 0.25, 0.125}, {0.6, std::nan("")});
  cae::write_loss_series_csv(dir / "loss.csv", series);
  CHECK(cae::test::read_file(dir / "loss.csv") ==
        "epoch,train loss,test MSE\n1,0.5,0.6\n2,0.25,\n3,0.125,\n");
  auto back = cae::read_loss_series_csv(dir / "loss.csv");
  REQUIRE(back.size() == 2);
  CHECK(back[0].name == "train loss");
  CHECK(back[0].values == series[0].values);
  CHECK(back[1].values.size() == 3);
  CHECK(std::isnan(back[1].values[1]));
  std::ofstream(dir / "bad.csv") << "epoch,loss\n1,abc\n";
  CHECK_THROWS_WITH_AS(cae::read_loss_series_csv(dir / "bad.csv"),
                       doctest::Contains("\"abc\" is not a number"), std::runtime_error);
}
