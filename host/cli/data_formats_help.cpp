#include "data_formats_help.hpp"

namespace cae::cli {

const char* const kDataFormatsHelp = R"(Data formats (--data PATH; the format is recognised, or forced with --data-format):
  cifar10    PATH or PATH/cifar-10-batches-bin: data_batch_<n>.bin, test_batch.bin,
             batches.meta.txt (the official binary release).
  cifar100   PATH or PATH/cifar-100-binary: train.bin, test.bin, fine_label_names.txt,
             coarse_label_names.txt; --labels fine (100 classes) or coarse (20).
  stl10      PATH or PATH/stl10_binary: train_X.bin/train_y.bin (5,000), test_X.bin/
             test_y.bin (8,000), class_names.txt, and unlabeled_X.bin (100,000) which
             --unlabelled trains the autoencoder on; 96x96 RGB, planes stored column by
             column as in the official files.
  folder     image files (.png, .jpg, .jpeg, .bmp; other files and names starting with
             '.' are ignored): PATH/train/<class>/ and PATH/test/<class>/, or PATH/<class>/
             split by --test-fraction and --split-seed, or images directly in PATH
             (unlabelled: `cae train` only). Class names are the subfolder names, sorted.
             Every image becomes --image-size square (default: the first image's
             shorter side): --resize box scales the whole image with a box filter (each
             output pixel the area-weighted mean of the source pixels under it; aspect
             not kept), --resize crop keeps the centred square (an image smaller than
             it is an error). Grayscale images give 1 channel, but a set with any colour
             image is RGB and its grayscale images are repeated into R, G and B; alpha
             is dropped.
  npy        a folder with images.npy [labels.npy] (split by --test-fraction), or
             train_images.npy, test_images.npy [train_labels.npy, test_labels.npy];
             optional classes.txt (one name per line); or PATH an images .npy alone
             (unlabelled). Images: (N, H, W, C) with C 1 or 3, or (N, H, W); uint8, or
             float32 in [0, 1] (NaN, infinities and values outside are refused), held
             as round(255 v). Labels: integers 0..255.
  synthetic  the generated 10-class set (3,000 train, 600 test, seed 1) made in memory.
A split whose pixels exceed --memory-cap MiB (default 2048) stays on disk and is read
batch by batch, so STL-10's 2.8 GB unlabelled split trains in little memory; results
are the same either way.
Checkpoints, features.json and reports record the data (format, image shape, resize,
label set, class names, image counts, split, and the SHA-256 of the files' names and
sizes; `cae info --weights CKPT` prints it). extract, evaluate and train --resume
refuse images of another shape than the network was trained on; the same shape from
another source is a transfer, allowed (image folders reach a size with --image-size).
)";

}  // namespace cae::cli
