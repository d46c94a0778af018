// Exceptions of the library: the public ones (include/fluxgraph/error.hpp) under their internal
// names. The library never calls exit(); the CLI maps these to exit code 1.
#pragma once
#include <string>

#include "fluxgraph/error.hpp"

namespace fg {
using fluxgraph::batch_error;
using fluxgraph::cuda_error;
using fluxgraph::error;
using fluxgraph::input_error;
using fluxgraph::invalid_argument;
using fluxgraph::out_of_memory;
}  // namespace fg

#define FG_EXPECTS(cond, msg)                                   \
  do {                                                          \
    if (!(cond)) throw ::fg::invalid_argument(std::string(msg)); \
  } while (0)
