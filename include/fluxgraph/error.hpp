// The exceptions fluxgraph throws (the library never calls exit()). Every one derives from
// fluxgraph::error, itself a std::runtime_error, and its message names what was wrong and where.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fluxgraph {


/// @brief Base of every error fluxgraph throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// @brief Bad input file: the message reads "FILE:LINE: what".
class input_error : public error {
 public:
  input_error(const std::string& file, std::int64_t line, const std::string& what)
      : error(file + ":" + std::to_string(line) + ": " + what), file_(file), line_(line) {}
  const std::string& file() const noexcept { return file_; }
  /// 1-based line number; 0 when the error concerns the whole file (e.g. it is empty).
  std::int64_t line() const noexcept { return line_; }

 private:
  std::string file_;
  std::int64_t line_;
};

/// @brief A batch of edges that was rejected; the store is left exactly as before.
class batch_error : public error {
 public:
  batch_error(std::int64_t batch, std::int64_t edge, const std::string& what)
      : error("batch " + std::to_string(batch) + ", edge " + std::to_string(edge) + ": " + what),
        batch_(batch), edge_(edge) {}
  std::int64_t batch() const noexcept { return batch_; }
  std::int64_t edge() const noexcept { return edge_; }

 private:
  std::int64_t batch_, edge_;
};

/// @brief Device (or host, in the CPU build) memory could not be allocated.
class out_of_memory : public error {
 public:
  using error::error;
};

/// @brief A CUDA runtime call failed.
class cuda_error : public error {
 public:
  using error::error;
};

/// @brief Bad argument or configuration value given to the library.
class invalid_argument : public error {
 public:
  using error::error;
};

}  // namespace fluxgraph
