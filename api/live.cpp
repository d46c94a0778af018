// fluxgraph::live_reader (include/fluxgraph/live.hpp): the engine's live_reader behind the public
// options.
#include "fluxgraph/live.hpp"

#include "stream/live_reader.hpp"

namespace fluxgraph {

struct live_reader::impl {
  fg::live_reader r;
};

namespace {
fg::live_options engine_options(const live_options& o) {
  if (o.batch_edges == 0) throw invalid_argument("live_reader: batch_edges must be at least 1");
  if (!(o.max_delay >= 0 && o.max_delay <= 1e6)) throw invalid_argument("live_reader: max_delay must be in [0, 1e6] seconds");
  fg::live_options l;
  l.format = o.format == input_format::bin32   ? fg::input_format::bin32
             : o.format == input_format::bin64 ? fg::input_format::bin64
                                               : fg::input_format::text;
  l.cut.max_edges = o.batch_edges;
  l.cut.max_delay = o.max_delay;
  l.skip_bad = o.skip_bad;
  l.name = o.name;
  l.on_skip = o.on_skip;
  l.known_ids = o.known_ids;
  return l;
}
}  // namespace

live_reader::live_reader(int fd, const live_options& opt) : p_(new impl{fg::live_reader(fd, engine_options(opt))}) {}
live_reader::~live_reader() = default;
bool live_reader::next(live_batch& out) { return p_->r.next(out); }
std::int64_t live_reader::skipped() const noexcept { return p_->r.skipped(); }
live_times live_reader::times() const { return p_->r.times(); }

}  // namespace fluxgraph
