#pragma once
// The CIFAR-10 binary format: each record is 1 label byte followed by a 32x32
// RGB image stored as three planes (R, G, B), each row-major.

#include <cstddef>

namespace cae::cifar {

constexpr size_t kImageSide = 32;
constexpr size_t kChannels = 3;
constexpr size_t kImageBytes = kChannels * kImageSide * kImageSide;  // 3072
constexpr size_t kRecordBytes = 1 + kImageBytes;                     // 3073
constexpr size_t kNumClasses = 10;
constexpr size_t kRecordsPerBatchFile = 10000;

constexpr char kSubdirectory[] = "cifar-10-batches-bin";
constexpr char kTrainPrefix[] = "data_batch_";  // data_batch_1.bin, data_batch_2.bin, ...
constexpr char kTestFile[] = "test_batch.bin";
constexpr char kMetaFile[] = "batches.meta.txt";  // class names, one per line

}  // namespace cae::cifar
