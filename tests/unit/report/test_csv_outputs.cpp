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

TEST_CASE("damaged CSV tables of a run are refused with one line, before any large allocation") {
  cae::test::TempDir dir;
  // 5,000 classes in a header and ragged rows: refused by the class bound,
  // never allocated as a 5,000^2 matrix.
  std::string header = "true\\predicted";
  for (int c = 0; c < 5000; ++c) header += ",x";
  std::string many = header + "\n";
  for (int r = 0; r < 5000; ++r) many += "x\n";
  std::ofstream(dir / "many.csv") << many;
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "many.csv"),
                       doctest::Contains("5000 classes; a confusion table has at most 4096"),
                       std::runtime_error);
  // A ragged row is found before the matrix is made.
  std::ofstream(dir / "ragged.csv") << "true\\predicted,a,b\na,1,2\nb\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "ragged.csv"),
                       doctest::Contains("line 3 has 1 fields, the header 3"), std::runtime_error);
  // Counts whose total passes 2^63 - 1 (each alone fits).
  std::ofstream(dir / "overflow.csv")
      << "true\\predicted,a,b\na,9223372036854775807,1\nb,0,0\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "overflow.csv"),
                       doctest::Contains("the counts sum past 2^63"), std::runtime_error);
  // A quoted field with a line break, quoted in the message: escaped, one line.
  std::ofstream(dir / "newline.csv") << "true\\predicted,a\na,\"1\n2\"\n";
  try {
    (void)cae::read_confusion_csv(dir / "newline.csv");
    FAIL("accepted");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
    CHECK(std::string(e.what()).find("\"1\\x0a2\" is not a count") != std::string::npos);
  }
  // Class names that cairo, the JSON writer or a message could not take.
  std::ofstream(dir / "latin1.csv") << "true\\predicted,caf\xe9\ncaf\xe9,1\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "latin1.csv"),
                       doctest::Contains("line 1: \"caf\\xe9\" is not UTF-8"), std::runtime_error);
  std::ofstream(dir / "escape.csv") << "true\\predicted,a\x1b[31m\na,1\n";
  CHECK_THROWS_WITH_AS(cae::read_confusion_csv(dir / "escape.csv"),
                       doctest::Contains("holds a control character"), std::runtime_error);
  std::ofstream(dir / "utf8.csv") << "true\\predicted,K\xc3\xa4tzchen\nK\xc3\xa4tzchen,1\n";
  CHECK(cae::read_confusion_csv(dir / "utf8.csv").class_names ==
        std::vector<std::string>{"K\xc3\xa4tzchen"});
}

TEST_CASE("a loss CSV refuses values that are not finite, bad names and too many series") {
  cae::test::TempDir dir;
  for (const char* value : {"inf", "-inf", "nan", "1e999"}) {
    std::ofstream(dir / "loss.csv") << "epoch,loss\n1," << value << "\n";
    CHECK_THROWS_WITH_AS(cae::read_loss_series_csv(dir / "loss.csv"),
                         doctest::Contains("is not a"), std::runtime_error);
  }
  std::ofstream(dir / "name.csv") << "epoch,lo\xffss\n1,0.5\n";
  CHECK_THROWS_WITH_AS(cae::read_loss_series_csv(dir / "name.csv"),
                       doctest::Contains("is not UTF-8"), std::runtime_error);
  std::ofstream(dir / "wide.csv") << "epoch" << std::string(65, ',') << "\n";
  CHECK_THROWS_WITH_AS(cae::read_loss_series_csv(dir / "wide.csv"),
                       doctest::Contains("65 series; a loss table has at most 64"),
                       std::runtime_error);
}
