#include "data/cifar_dataset.hpp"

#include "data/cifar_files.hpp"

namespace cae {

CifarData load_cifar(const std::string& dir, size_t max_train, size_t max_test) {
  const CifarFiles files = locate_cifar(dir);
  CifarData data;
  data.class_names = read_class_names(files.meta);
  for (const std::string& file : files.train) {
    const size_t wanted = max_train == 0 ? 0 : max_train - data.train.size();
    read_records(file, wanted, data.train);
    if (max_train != 0 && data.train.size() == max_train) break;
  }
  read_records(files.test, max_test, data.test);
  return data;
}

}  // namespace cae
