// The live reader's thread: poll()/read() on the descriptor, parse, cut batches, queue them.
#include "stream/live_reader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

// A queue of at most `cap` items between two threads. close() wakes every waiter: push() then
// refuses and pop() returns false, whatever is left (the reader is being torn down).
template <class T>
class bounded_queue {
 public:
  explicit bounded_queue(std::size_t cap) : cap_(cap) {}
  bool push(T&& v) {
    std::unique_lock<std::mutex> lk(m_);
    not_full_.wait(lk, [&] { return q_.size() < cap_ || closed_; });
    if (closed_) return false;
    q_.push_back(std::move(v));
    not_empty_.notify_one();
    return true;
  }
  bool pop(T& out) {
    std::unique_lock<std::mutex> lk(m_);
    not_empty_.wait(lk, [&] { return !q_.empty() || closed_; });
    if (closed_) return false;
    out = std::move(q_.front());
    q_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void close() {
    std::lock_guard<std::mutex> lk(m_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  std::size_t cap_;
  std::mutex m_;
  std::condition_variable not_empty_, not_full_;
  std::deque<T> q_;
  bool closed_ = false;
};

// Two threads: the reader (poll, read, parse, cut) and the mapper (input ids to dense ids: to_dense,
// memory-bound on a large id table). Apart, each runs at its own speed: parsing the next batch, mapping
// this one and applying the one before overlap (parse + ids in one thread were the stream's limit).
// The reader and mapper threads behind fluxgraph::live_reader (its one pimpl, below).
struct live_input {
  using clock = std::chrono::steady_clock;
  struct item {  // one batch, the end of the input, or an error: in input order through both queues
    raw_edges raw;     // as parsed (reader -> mapper)
    live_batch batch;  // in dense ids (mapper -> next())
    std::int64_t number = 0;
    clock::time_point arrived;
    bool end = false;
    std::exception_ptr error;
  };
  // Buffers handed back for the next batches: a fresh 1e5-edge batch costs its allocations and
  // their first-touch page faults in every thread (a tenth of the reader's time on a 100 M/s stream).
  template <class T>
  struct spares {
    std::mutex m;
    std::vector<T> v;
    T take() {
      std::lock_guard<std::mutex> lk(m);
      if (v.empty()) return T{};
      T t = std::move(v.back());
      v.pop_back();
      return t;
    }
    void give(T&& t) {
      std::lock_guard<std::mutex> lk(m);
      if (v.size() < 8) v.push_back(std::move(t));
    }
  };
  enum class ready { input, timeout, again, stop };

  static constexpr std::size_t queue = 4;        // parsed batches waiting at most; the reader then waits too
  static constexpr std::size_t chunk = 1 << 20;  // bytes per read()
  int fd;
  live_options opt;
  batch_cutter cutter;
  int wake[2] = {-1, -1};  // written to stop the reader while it waits in ppoll
  bounded_queue<item> parsed, mapped;
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> skipped{0};
  std::atomic<std::int64_t> waiting{0};  // batches cut and not yet handed out by next()
  std::mutex times_m;
  live_reader_times times;  // under times_m: each thread adds its own fields
  spares<raw_edges> spare_raw;
  spares<live_batch> spare_batch;
  bool done = false;  // next() saw the end or the error
  id_map known;  // the known ids, handed to the mapper
  std::thread reader, mapper;

  live_input(int f, live_options o) : fd(f), opt(std::move(o)), cutter{opt.batch_edges, opt.max_delay}, parsed(queue), mapped(queue) {
    if (opt.batch_edges == 0) throw invalid_argument("live_reader: batch_edges must be at least 1");
    if (!(opt.max_delay >= 0 && opt.max_delay <= 1e6)) throw invalid_argument("live_reader: max_delay must be in [0, 1e6] seconds");
    for (const std::int64_t id : opt.known_ids) {
      FG_EXPECTS(id >= 0, "live_reader: a negative known id");
      const vertex_t next = known.size();
      FG_EXPECTS(known.intern(id) == next, "live_reader: id " + std::to_string(id) + " is known twice");
    }
    if (pipe(wake) != 0) throw error(std::string("live_reader: pipe: ") + std::strerror(errno));
    // A pipe holds 64 KiB by default: a read, and a switch to the writer, every 64 KiB. Ask for a
    // chunk's worth (best effort: the system caps it, and a failure only costs speed).
    struct stat sb {};
    if (fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode))
      (void)fcntl(fd, F_SETPIPE_SZ, int(chunk));
    mapper = std::thread([this] { map_loop(); });
    reader = std::thread([this] { run(); });
  }
  ~live_input() {
    stop = true;
    [[maybe_unused]] const ssize_t w = write(wake[1], "x", 1);
    parsed.close();
    mapped.close();
    reader.join();
    mapper.join();
    close(wake[0]);
    close(wake[1]);
  }

  void run() {
    try {
      read_loop();
    } catch (...) {
      item it;
      it.error = std::current_exception();
      parsed.push(std::move(it));
    }
  }

  // Batches to dense ids, in order; an end or an error passes through and ends the thread.
  void map_loop() {
    id_map ids = std::move(known);
    double busy = 0, blocked = 0;
    auto account = [&] {
      std::lock_guard<std::mutex> lk(times_m);
      times.map = busy, times.mapper_blocked = blocked;
    };
    for (item it; parsed.pop(it);) {
      const auto t0 = clock::now();
      const bool last = it.end || it.error;
      if (!last) {
        try {
          it.batch = spare_batch.take();
          to_dense(it.raw, ids, it.batch);
          it.batch.number = it.number;
          it.batch.arrived = it.arrived;
          it.raw.clear();
          spare_raw.give(std::move(it.raw));
        } catch (...) {
          it = item{};
          it.error = std::current_exception();
        }
      }
      const bool failed = it.error != nullptr;
      const auto t1 = clock::now();
      const bool pushed = mapped.push(std::move(it));
      busy += std::chrono::duration<double>(t1 - t0).count();
      blocked += std::chrono::duration<double>(clock::now() - t1).count();
      account();
      if (!pushed || last || failed) return;
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
    parsed.push(std::move(it));
    return false;
  }

  void read_loop();
};

void live_input::read_loop() {
  const auto parser = edge_parser::make(opt.format);
  std::vector<char> buf(chunk);
  raw_edges cur;
  const clock::time_point t0 = clock::now();
  const auto at = [&](clock::time_point t) { return std::chrono::duration<double>(t - t0).count(); };
  clock::time_point chunk_time = t0, first = t0;  // when the last read returned; the batch's first edge
  std::int64_t number = 0;
  double input_wait = 0, blocked = 0;
  auto account = [&] {  // parsing and cutting: the rest of the thread's time
    std::lock_guard<std::mutex> lk(times_m);
    times.input_wait = input_wait, times.reader_blocked = blocked;
    times.parse = at(clock::now()) - input_wait - blocked;
  };
  auto cut = [&] {
    if (cur.size() == 0) return true;
    item it;
    std::swap(it.raw, cur);
    cur = spare_raw.take();
    cur.clear();
    it.number = ++number;
    it.arrived = first;
    ++waiting;
    const auto b0 = clock::now();
    const bool ok = parsed.push(std::move(it));
    blocked += std::chrono::duration<double>(clock::now() - b0).count();
    return ok;
  };
  // Full: cut (the push waits for room). Due by delay: cut unless a batch is still waiting to be
  // handed out; then the applier is busy for a batch at least, and this one keeps growing toward
  // full instead of queueing behind it (under load the input reaches the store no later, in fewer
  // and larger batches).
  auto cut_now = [&] {
    if (cutter.full(cur.size())) return true;
    return cutter.due(cur.size(), at(first), at(clock::now())) && waiting == 0;
  };
  constexpr std::size_t slice = std::size_t(1) << 16;  // edges parsed between two looks at the clock
  for (bool eof = false;;) {
    for (parse_stop s = parse_stop::batch_full; s != parse_stop::need_input;) {
      const bool was_empty = cur.size() == 0;
      s = parser->parse(cur, std::min(cutter.max_edges, cur.size() + slice));
      if (was_empty && cur.size() > 0) first = chunk_time;
      if (s == parse_stop::bad_input && !bad_input(*parser, cur)) return;
      if (cut_now() && !cut()) return;
    }
    account();
    if (eof || stop) break;
    // A batch due by delay but held back is looked at again every millisecond.
    const auto w0 = clock::now();
    double wait = cutter.wait(cur.size(), at(first), at(w0));
    if (wait == 0) wait = 1e-3;
    const ready r = wait_for_input(wait);
    if (r == ready::stop) return;
    if (r != ready::input) input_wait += at(clock::now()) - at(w0);
    if (r == ready::timeout && cut_now() && !cut()) return;
    if (r != ready::input) continue;
    const ssize_t n = read(fd, buf.data(), buf.size());
    chunk_time = clock::now();
    input_wait += std::chrono::duration<double>(chunk_time - w0).count();
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
  parsed.push(std::move(end));
}

}  // namespace fg

struct fluxgraph::live_reader::impl : fg::live_input {
  using live_input::live_input;
};

namespace fluxgraph {

live_reader::live_reader(int fd, const live_options& opt) : p_(std::make_unique<impl>(fd, opt)) {}
live_reader::~live_reader() = default;

bool live_reader::next(live_batch& out) {
  impl& p = *p_;
  if (p.done) return false;
  fg::live_input::item it;
  if (!p.mapped.pop(it)) throw error("live_reader: stopped");  // only while being destroyed
  if (it.error) {
    p.done = true;
    std::rethrow_exception(it.error);
  }
  if (it.end) {
    p.done = true;
    return false;
  }
  std::swap(out, it.batch);
  p.spare_batch.give(std::move(it.batch));  // the caller's previous batch, for its buffers
  --p.waiting;
  return true;
}

std::int64_t live_reader::skipped() const noexcept { return p_->skipped; }

live_times live_reader::times() const {
  std::lock_guard<std::mutex> lk(p_->times_m);
  return p_->times;
}

}  // namespace fluxgraph
