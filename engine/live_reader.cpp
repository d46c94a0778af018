// The live reader's thread: poll()/read() on the descriptor, parse, cut batches, queue them.
#include "engine/live_reader.hpp"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/error.hpp"

namespace fg {

namespace {
inline std::uint64_t key(vertex_t u, vertex_t v) { return (std::uint64_t(std::uint32_t(u)) << 32) | std::uint32_t(v); }

// Drops the inserts that a later delete of the same edge in the batch undoes: after these, the
// mixed batch (deletes first, then inserts) leaves what the lines leave applied one by one. An
// edge's last line decides: an insert after its delete stays (deleted, then inserted again).
void cancel_undone(live_batch& b, const std::vector<std::uint32_t>& del_after) {
  std::unordered_map<std::uint64_t, std::uint32_t> last;  // edge -> inserts before its last delete
  last.reserve(b.deletes.size());
  for (std::size_t j = 0; j < b.deletes.size(); ++j) {
    std::uint32_t& a = last[key(b.deletes.src[j], b.deletes.dst[j])];
    a = std::max(a, del_after[j]);
  }
  edge_list& in = b.inserts;
  const bool weighted = !in.weight.empty();
  std::size_t k = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto it = last.find(key(in.src[i], in.dst[i]));
    if (it != last.end() && i < it->second) continue;
    in.src[k] = in.src[i];
    in.dst[k] = in.dst[i];
    if (weighted) in.weight[k] = in.weight[i];
    ++k;
  }
  in.src.resize(k);
  in.dst.resize(k);
  if (weighted) in.weight.resize(k);
}
}  // namespace

void to_dense(const raw_edges& raw, id_map& ids, live_batch& out) {
  const vertex_t before = ids.size();
  const std::size_t n = raw.ins_src.size();
  out.inserts.src.resize(n);
  out.inserts.dst.resize(n);
  out.inserts.weight = raw.ins_weight;
  if (!out.inserts.weight.empty()) out.inserts.weight.resize(n, 1.0);
  out.deletes.clear();
  std::vector<std::uint32_t> kept_after;  // del_after of the deletes kept
  std::size_t i = 0;
  auto intern_to = [&](std::size_t k) {  // the inserts before position k, in line order
    if (k <= i) return;
    ids.intern_pairs(raw.ins_src.data() + i, raw.ins_dst.data() + i, out.inserts.src.data() + i,
                     out.inserts.dst.data() + i, k - i);
    i = k;
  };
  for (std::size_t j = 0; j < raw.del_src.size(); ++j) {
    intern_to(raw.del_after[j]);
    const vertex_t u = ids.find(raw.del_src[j]), v = ids.find(raw.del_dst[j]);
    if (u < 0 || v < 0) continue;  // an id no insert has named: no such edge
    out.deletes.src.push_back(u);
    out.deletes.dst.push_back(v);
    kept_after.push_back(raw.del_after[j]);
  }
  intern_to(n);
  if (!kept_after.empty()) cancel_undone(out, kept_after);
  out.insert_lines = n;
  out.delete_lines = raw.del_src.size();
  out.new_ids.assign(ids.ids().begin() + before, ids.ids().end());
  out.vertices = ids.size();
  out.first_line = raw.first_line;
  out.last_line = raw.last_line;
}

struct live_reader::impl {
  using clock = std::chrono::steady_clock;
  struct item {
    live_batch batch;
    bool end = false;
    std::exception_ptr error;
  };
  enum class ready { input, timeout, again, stop };

  int fd;
  live_options opt;
  int wake[2] = {-1, -1};  // written to stop the thread while it waits in ppoll
  std::mutex m;
  std::condition_variable not_empty, not_full;
  std::deque<item> q;
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> skipped{0};
  bool done = false;  // next() saw the end or the error
  std::thread thread;

  impl(int f, live_options o) : fd(f), opt(std::move(o)) {
    FG_EXPECTS(opt.cut.max_edges >= 1, "live_reader: batches need at least 1 edge");
    FG_EXPECTS(opt.cut.max_delay >= 0 && std::isfinite(opt.cut.max_delay), "live_reader: the delay must be >= 0");
    FG_EXPECTS(opt.queue >= 1 && opt.chunk >= 1, "live_reader: queue and chunk must be >= 1");
    if (pipe(wake) != 0) throw error(std::string("live_reader: pipe: ") + std::strerror(errno));
    thread = std::thread([this] { run(); });
  }
  ~impl() {
    {
      std::lock_guard<std::mutex> lk(m);  // under the lock: push() cannot miss it between test and wait
      stop = true;
    }
    [[maybe_unused]] const ssize_t w = write(wake[1], "x", 1);
    not_full.notify_all();
    thread.join();
    close(wake[0]);
    close(wake[1]);
  }

  bool push(item&& it) {
    std::unique_lock<std::mutex> lk(m);
    not_full.wait(lk, [&] { return q.size() < opt.queue || stop; });
    if (stop) return false;
    q.push_back(std::move(it));
    not_empty.notify_one();
    return true;
  }

  void run() {
    try {
      read_loop();
    } catch (...) {
      item it;
      it.error = std::current_exception();
      push(std::move(it));
    }
  }

  // Waits until the descriptor has input (or end of input), at most `seconds` (< 0: no limit).
  ready wait_for_input(double seconds) {
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
    timespec ts{};
    if (seconds >= 0) {
      ts.tv_sec = time_t(seconds);
      ts.tv_nsec = long((seconds - double(ts.tv_sec)) * 1e9);
    }
    const int r = ppoll(fds, 2, seconds >= 0 ? &ts : nullptr, nullptr);
    if (stop || (r > 0 && fds[1].revents != 0)) return ready::stop;
    if (r < 0 && errno == EINTR) return ready::again;
    if (r < 0) throw error(opt.name + ": poll: " + std::strerror(errno));
    return r == 0 ? ready::timeout : ready::input;
  }

  // A bad line: skipped (and told), or the end of the input with the error queued. The batch
  // being built holds edges before it: dropped, so that it is never applied halfway.
  bool bad_input(const edge_parser& p, raw_edges& cur) {
    const parse_error& e = p.error();
    const std::string msg = e.message(opt.name);
    if (opt.skip_bad) {
      ++skipped;
      if (opt.on_skip) opt.on_skip(msg);
      return true;
    }
    cur.clear();
    item it;
    it.error = e.byte >= 0 ? std::make_exception_ptr(error(msg))
                           : std::make_exception_ptr(input_error(opt.name, e.line, e.what));
    push(std::move(it));
    return false;
  }

  void read_loop();
};

void live_reader::impl::read_loop() {
  const auto parser = edge_parser::make(opt.format);
  id_map ids;
  std::vector<char> buf(opt.chunk);
  raw_edges cur;
  const clock::time_point t0 = clock::now();
  const auto at = [&](clock::time_point t) { return std::chrono::duration<double>(t - t0).count(); };
  clock::time_point chunk_time = t0, first = t0;  // when the last read returned; the batch's first edge
  std::int64_t number = 0;
  auto cut = [&] {
    if (cur.size() == 0) return true;
    item it;
    to_dense(cur, ids, it.batch);
    it.batch.number = ++number;
    it.batch.arrived = first;
    cur.clear();
    return push(std::move(it));
  };
  // Full: cut (the push waits for room). Due by delay: cut unless a batch is still queued; then the
  // applier is busy for a batch at least, and this one keeps growing toward full instead of queueing
  // behind it (under load the input reaches the store no later, in fewer and larger batches).
  auto cut_now = [&] {
    if (opt.cut.full(cur.size())) return true;
    if (!opt.cut.due(cur.size(), at(first), at(clock::now()))) return false;
    std::lock_guard<std::mutex> lk(m);
    return q.empty();
  };
  constexpr std::size_t slice = std::size_t(1) << 16;  // edges parsed between two looks at the clock
  for (bool eof = false;;) {
    for (parse_stop s = parse_stop::batch_full; s != parse_stop::need_input;) {
      const bool was_empty = cur.size() == 0;
      s = parser->parse(cur, std::min(opt.cut.max_edges, cur.size() + slice));
      if (was_empty && cur.size() > 0) first = chunk_time;
      if (s == parse_stop::bad_input && !bad_input(*parser, cur)) return;
      if (cut_now() && !cut()) return;
    }
    if (eof || stop) break;
    // A batch due by delay but held back is looked at again every millisecond.
    double wait = opt.cut.wait(cur.size(), at(first), at(clock::now()));
    if (wait == 0) wait = 1e-3;
    const ready r = wait_for_input(wait);
    if (r == ready::stop) return;
    if (r == ready::timeout && cut_now() && !cut()) return;
    if (r != ready::input) continue;
    const ssize_t n = read(fd, buf.data(), buf.size());
    chunk_time = clock::now();
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) throw error(opt.name + ": read error: " + std::strerror(errno));
    if (n == 0) {
      eof = true;
      if (!parser->finish() && !bad_input(*parser, cur)) return;
    } else {
      parser->feed(buf.data(), std::size_t(n));
    }
  }
  if (!cut()) return;
  item end;
  end.end = true;
  push(std::move(end));
}

live_reader::live_reader(int fd, live_options opt) : p_(std::make_unique<impl>(fd, std::move(opt))) {}
live_reader::~live_reader() = default;

bool live_reader::next(live_batch& out) {
  impl& p = *p_;
  std::unique_lock<std::mutex> lk(p.m);
  if (p.done) return false;
  p.not_empty.wait(lk, [&] { return !p.q.empty(); });
  impl::item it = std::move(p.q.front());
  p.q.pop_front();
  p.not_full.notify_one();
  lk.unlock();
  if (it.error) {
    p.done = true;
    std::rethrow_exception(it.error);
  }
  if (it.end) {
    p.done = true;
    return false;
  }
  out = std::move(it.batch);
  return true;
}

std::int64_t live_reader::skipped() const noexcept { return p_->skipped; }

}  // namespace fg
