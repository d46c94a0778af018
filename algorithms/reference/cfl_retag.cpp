// Reference twin of the CFL port retagging (algorithms/detail/cfl_kernels.hpp): a sequential loop.
#include <algorithm>

#include "algorithms/detail/cfl_kernels.hpp"

namespace fg::detail {

coo_matrix<pattern, host_space> cfl_kernels<host_space>::retag(const coo_matrix<pattern, host_space>& in,
                                                              const array<vertex_t, host_space>& tag,
                                                              const array<std::int64_t, host_space>& keys) {
  std::vector<vertex_t> r, c;
  const std::int64_t* kb = keys.data();
  const std::int64_t* ke = kb + keys.size();
  for (std::size_t j = 0; j < in.nnz; ++j) {
    const std::int64_t key = port_key(tag[std::size_t(in.row[j])], in.col[j]);
    const std::int64_t* it = std::lower_bound(kb, ke, key);
    if (it != ke && *it == key) r.push_back(in.row[j]), c.push_back(vertex_t(it - kb));
  }
  return make_coo<pattern, host_space>(r, c);
}

}  // namespace fg::detail
