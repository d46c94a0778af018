// The stream's journal (stream/journal.hpp): folder, lock, recovery, log appends, the sync thread,
// snapshots and pruning.
#include "stream/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "core/error.hpp"
#include "loaders/durable_io.hpp"

namespace fg {

namespace fs = std::filesystem;

namespace {
struct entry {
  std::int64_t batch;
  std::string path;
};

std::string file_name(const char* kind, std::int64_t batch, const char* ext) {
  char b[64];
  std::snprintf(b, sizeof b, "%s-%020lld.%s", kind, static_cast<long long>(batch), ext);
  return b;
}

// The folder's snapshots and logs, ascending by batch. Leftover temporaries (a snapshot write that
// was killed) are removed when `tidy`.
void list(const std::string& dir, std::vector<entry>& snaps, std::vector<entry>& logs, bool tidy = true) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    long long b = -1;
    if (name.rfind("snap-", 0) == 0 && name.find(".tmp") != std::string::npos) {
      std::error_code ec;
      if (tidy) fs::remove(e.path(), ec);
    } else if (std::sscanf(name.c_str(), "snap-%20lld", &b) == 1 && b >= 0 && name == file_name("snap", b, "fgsnap")) {
      snaps.push_back({b, e.path().string()});
    } else if (std::sscanf(name.c_str(), "log-%20lld", &b) == 1 && b >= 0 && name == file_name("log", b, "wal")) {
      logs.push_back({b, e.path().string()});
    }
  }
  const auto by_batch = [](const entry& a, const entry& b) { return a.batch < b.batch; };
  std::sort(snaps.begin(), snaps.end(), by_batch);
  std::sort(logs.begin(), logs.end(), by_batch);
}

// A stream's snapshot, which must hold the batch its name says.
snapshot read_stream_snapshot(const entry& e) {
  snapshot s = read_snapshot(e.path);
  if (s.stream_batches != e.batch)
    throw input_error(e.path, 0, "holds batch " + std::to_string(s.stream_batches) + ", its name says " + std::to_string(e.batch));
  return s;
}

// The acknowledged batches a log's header counts that it no longer holds whole ("" when none).
std::string lost_batches(const wal_scan& s) {
  const auto whole = std::int64_t(s.records.size());
  if (s.valid_bytes == 0 || whole >= s.acked) return "";
  return "batches " + std::to_string(s.base_batch + whole + 1) + " to " + std::to_string(s.base_batch + s.acked) + " (" +
         std::to_string(s.acked - whole) + ")";
}

[[noreturn]] void refuse(const std::string& dir, const std::string& what) {
  throw error("cannot recover the stream in " + dir + ": " + what);
}
}  // namespace

struct journal::impl {
  durability_options opt;
  bool read_only = false;  // journal::check(): recover() reads, and changes nothing on the disk
  int lock_fd = -1, dir_fd = -1;  // the LOCK file's and the folder's: both flock'ed (lock())
  void unlock() noexcept {
    ::close(lock_fd);
    ::close(dir_fd);
  }
  journal_recovery rec;
  std::int64_t last_batch = 0;  // the last batch in the journal
  std::atomic<std::int64_t> snap_whole{-1};  // the newest snapshot known whole (-1: none)
  std::string broken;           // a log write failed: the log may end in a partial record, so
                                // nothing more is appended (recovery, at the next start, cuts it)
  std::int64_t batches_since = 0, bytes_since = 0;
  std::string buffer;           // one encoded record

  std::mutex m;                 // the log's fd and the sync thread's state
  std::condition_variable cv;
  int log_fd = -1;
  std::string log_path;
  std::uint64_t log_size = 0;
  std::int64_t log_base = 0;    // the log's header: its base batch and seeded flag,
  bool log_seeded = false;
  std::int64_t log_records = 0, synced_records = 0;  // its records, and those on the disk at the last sync
  bool dirty = false, stopping = false;
  std::string sync_error;       // the sync thread's failure, reported by the next append
  std::thread syncer;
  std::thread snapper;          // the snapshot being written
  std::string snap_error;       // its failure (written by it, read after a join)
  std::atomic<bool> snap_failed{false};  // set after snap_error: the next append() joins and throws
  std::atomic<bool> snap_running{false};  // a snapshot is begun or being written: the next one is not due yet
  std::int64_t begun = -1;      // the batch of a snapshot begun whose contents have not come (-1: none)

  void lock();
  void recover();
  std::int64_t base_snapshot(const std::vector<entry>& snaps, std::vector<std::pair<std::string, std::string>>& damaged);
  void replay(const std::vector<entry>& logs, std::int64_t from);
  void lost_tail(const std::string& path, const wal_scan& s);
  void missing_log(const std::vector<entry>& logs, std::int64_t from);
  void check_fallbacks(const std::vector<entry>& snaps, const std::vector<entry>& logs, std::int64_t from);
  static std::string torn_story(const wal_scan& s);
  void open_log(const std::string& path, const wal_scan& s, std::int64_t base);
  // The log's header rewritten in place to say its first n records were acknowledged (version 2:
  // what recovery tells lost acknowledged batches from a torn, never acknowledged write by).
  void mark_acked(std::int64_t n) {
    const std::string h = wal_header(log_base, log_seeded, std::uint32_t(std::min<std::int64_t>(n, 0xffffffffLL)));
    if (::pwrite(log_fd, h.data(), h.size(), 0) != ssize_t(h.size())) throw error("cannot write " + log_path + ": " + std::strerror(errno));
  }
  void new_log(std::int64_t base, bool seeded = false);
  void check_usable() const {
    if (!broken.empty()) throw error("the stream's journal failed earlier (" + broken + "); restart the stream to recover");
  }
  void prune();
  void sync_loop();
  void join_snapshot();
};

// Waits for the snapshot thread and reports its failure once.
void journal::impl::join_snapshot() {
  if (snapper.joinable()) snapper.join();
  if (snap_failed.exchange(false)) throw error(std::exchange(snap_error, std::string()));
}

void journal::impl::lock() {
  std::error_code ec;
  fs::create_directories(opt.dir, ec);
  if (ec || !fs::is_directory(opt.dir)) throw error("cannot use " + opt.dir + " as the stream's journal: " + (ec ? ec.message() : "not a folder"));
  // The folder itself is the lock: it cannot be deleted from under a running stream while it holds
  // the log, as a LOCK file can (`rm DIR/LOCK` let a second writer in). The LOCK file is locked too,
  // for streams of earlier versions, which lock only it.
  dir_fd = ::open(opt.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) throw error("cannot open " + opt.dir + ": " + std::strerror(errno));
  if (::flock(dir_fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(dir_fd);
    throw error(opt.dir + " is in use by another stream (the folder is locked)");
  }
  const std::string path = (fs::path(opt.dir) / "LOCK").string();
  lock_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string why = lock_fd < 0 ? std::string("cannot open ") + path + ": " + std::strerror(errno)
                                        : opt.dir + " is in use by another stream (" + path + " is locked)";
    unlock();
    throw error(why);
  }
}

// The newest snapshot that reads whole; older ones stay for the next recovery's sake. Those that do
// not read whole go to `damaged` (path, why): renamed away only once the recovery holds, so that a
// refused start leaves the folder as it was.
std::int64_t journal::impl::base_snapshot(const std::vector<entry>& snaps,
                                          std::vector<std::pair<std::string, std::string>>& damaged) {
  for (auto it = snaps.rbegin(); it != snaps.rend(); ++it) {
    try {
      rec.base = read_stream_snapshot(*it);
      rec.snapshot_path = it->path;
      return it->batch;
    } catch (const input_error& e) {
      damaged.emplace_back(it->path, e.what());
    }
  }
  rec.base = snapshot{};
  rec.base.row_ptr = {0};
  rec.base.stream_batches = 0;
  return 0;
}

// The records after batch `from`, from the logs that hold them. The last log's torn tail is cut off.
// A log with fewer whole records than its header says were acknowledged lost acknowledged batches
// (cut short, or its last records damaged): refused, unless opt.accept_loss.
void journal::impl::lost_tail(const std::string& path, const wal_scan& s) {
  const std::string range = lost_batches(s);
  if (range.empty()) return;
  const std::string lost = path + " holds " + std::to_string(s.records.size()) + " whole records where its header says " +
                           std::to_string(s.acked) + " were acknowledged: " + range + " are lost (the log was cut short or damaged)";
  if (!opt.accept_loss) refuse(opt.dir, lost + "; --accept-loss goes on from what is left");
  rec.warnings.push_back(lost + "; going on from what is left (--accept-loss)");
  rec.lost_batches += s.acked - std::int64_t(s.records.size());
}

// The log a snapshot's batches go on in (log-B for snap-B) is started, its header on the disk and
// the folder synced, before the snapshot is written: a whole snap-B without a readable log-B means
// the log was deleted or cut to nothing since, and every batch acknowledged after B with it.
// Refused, unless opt.accept_loss (how many were lost cannot be known).
void journal::impl::missing_log(const std::vector<entry>& logs, std::int64_t from) {
  if (rec.snapshot_path.empty()) return;
  const std::string path = (fs::path(opt.dir) / file_name("log", from, "wal")).string();
  const auto it = std::find_if(logs.begin(), logs.end(), [&](const entry& e) { return e.batch == from; });
  std::string what;
  if (it == logs.end()) what = path + ", the log after " + rec.snapshot_path + ", is missing (deleted?)";
  else if (fs::file_size(it->path) < wal_header_bytes) what = path + ", the log after " + rec.snapshot_path + ", is cut to nothing";
  if (what.empty()) return;
  what += ": any batch acknowledged after batch " + std::to_string(from) + " is lost";
  if (!opt.accept_loss) refuse(opt.dir, what + "; --accept-loss goes on from the snapshot");
  rec.warnings.push_back(what + "; going on from the snapshot (--accept-loss)");
}

// What a dropped torn record was, as far as the log can tell.
std::string journal::impl::torn_story(const wal_scan& s) {
  const std::int64_t whole = std::int64_t(s.records.size()), batch = s.base_batch + whole + 1;
  std::string t = std::to_string(s.torn_bytes) + " bytes, batch " + std::to_string(batch);
  if (s.version < 2) return t + "; a version-1 log records no acknowledgements";
  if (whole < s.acked) return t + ": one of the acknowledged batches lost";
  if (whole > s.acked) return t + ": written after the last batch the log records as acknowledged, " + std::to_string(s.base_batch + s.acked) + ": never acknowledged";
  return t + ": cut short while it was written (then never acknowledged) or damaged since; the log records acknowledgements "
             "up to batch " + std::to_string(s.base_batch + s.acked) + ", one batch behind at most";
}

void journal::impl::replay(const std::vector<entry>& logs, std::int64_t from) {
  std::int64_t cur = from;
  std::size_t first = 0;  // the newest log starting at or before `from`: older ones hold nothing needed
  for (std::size_t i = 0; i < logs.size(); ++i)
    if (logs[i].batch <= from) first = i;
  if (!logs.empty() && logs[first].batch > from)
    refuse(opt.dir, "batches " + std::to_string(from + 1) + " to " + std::to_string(logs[first].batch) + " are in no log");
  missing_log(logs, from);
  for (std::size_t i = first; i < logs.size(); ++i) {
    const bool newest = i + 1 == logs.size();
    wal_scan s;
    try {
      s = read_wal(logs[i].path);
    } catch (const input_error& e) {
      refuse(opt.dir, e.what());
    }
    if (s.valid_bytes > 0 && s.base_batch != logs[i].batch)
      refuse(opt.dir, logs[i].path + " starts after batch " + std::to_string(s.base_batch) + ", its name says " + std::to_string(logs[i].batch));
    if (s.seeded && s.base_batch == 0 && from == 0 && rec.snapshot_path.empty())
      refuse(opt.dir, "the stream started from a snapshot (" + file_name("snap", 0, "fgsnap") + ") that cannot be read");
    if (s.valid_bytes > 0 && s.base_batch > cur)
      refuse(opt.dir, "batches " + std::to_string(cur + 1) + " to " + std::to_string(s.base_batch) + " are in no log");
    for (wal_record& r : s.records) {
      if (r.batch <= cur) continue;
      if (!rec.records.empty() || r.lines >= rec.base.stream_lines) rec.records.push_back(std::move(r));
      else refuse(opt.dir, logs[i].path + ": batch " + std::to_string(r.batch) + " goes back in the input");
      cur = rec.records.back().batch;
    }
    lost_tail(logs[i].path, s);
    if (s.torn_bytes > 0) {
      rec.torn_bytes += std::int64_t(s.torn_bytes);
      rec.warnings.push_back(logs[i].path + ": dropped a torn last record (" + torn_story(s) + ")");
    }
    const std::int64_t ends = s.base_batch + std::int64_t(s.records.size());
    if (read_only) {
      continue;
    } else if (newest && (s.valid_bytes == 0 ? logs[i].batch == cur : ends == cur)) {
      open_log(logs[i].path, s, logs[i].batch);
    } else if (s.valid_bytes == 0) {  // a log created and never written, that no batch will go to
      std::error_code ec;
      fs::remove(logs[i].path, ec);
    }
  }
  last_batch = cur;
  if (log_fd < 0 && !read_only) new_log(cur);  // no log, or the newest one ends elsewhere (a snapshot without its log)
}

void journal::impl::recover() {
  std::vector<entry> snaps, logs;
  list(opt.dir, snaps, logs, !read_only);
  std::vector<std::pair<std::string, std::string>> damaged;
  const std::int64_t from = base_snapshot(snaps, damaged);
  try {
    if (!snaps.empty() && rec.snapshot_path.empty() && (logs.empty() || logs.front().batch != 0))
      refuse(opt.dir, "no snapshot reads whole and the logs do not go back to the first batch");
    if (!rec.snapshot_path.empty()) snap_whole = from;
    replay(logs, from);
    if (!read_only) check_fallbacks(snaps, logs, from);
  } catch (const error& e) {  // a refusal names every snapshot passed over, and renames none
    std::string why = e.what();
    for (const auto& [path, what] : damaged) why += "; passed over: " + what;
    throw error(why);
  }
  for (const auto& [path, what] : damaged) {  // renamed away: pruning must not count it as one of the two kept
    std::error_code ec;
    if (!read_only) fs::rename(path, path + ".corrupt", ec);
    rec.warnings.push_back(what + ": passed over for an older snapshot and the log (kept as " + path + ".corrupt)");
  }
  batches_since = last_batch - from;  // the spacing counts from the snapshot, not the start
  bytes_since = std::int64_t(log_size);
}

// Appends go after the log's whole records (what follows, a torn record, is cut off); none: a
// fresh header. The records kept are synced, then the header says so.
void journal::impl::open_log(const std::string& path, const wal_scan& s, std::int64_t base) {
  log_fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (log_fd < 0) throw error("cannot open " + path + ": " + std::strerror(errno));
  log_path = path;
  const std::uint64_t valid = s.valid_bytes;
  if (::ftruncate(log_fd, off_t(valid)) != 0 || ::lseek(log_fd, off_t(valid), SEEK_SET) < 0)
    throw error("cannot write " + path + ": " + std::strerror(errno));
  log_size = valid;
  log_base = base;
  log_seeded = valid == 0 ? base == 0 && !rec.snapshot_path.empty() : s.seeded;
  log_records = synced_records = valid == 0 ? 0 : std::int64_t(s.records.size());
  if (valid == 0) {
    const std::string h = wal_header(base, log_seeded);
    write_all(log_fd, h.data(), h.size(), path);
    log_size = h.size();
  }
  sync_data(log_fd, path);
  if (valid > 0 && s.acked != log_records) {  // the records on the disk first, then the header that says so
    mark_acked(log_records);
    sync_data(log_fd, path);
  }
}

void journal::impl::new_log(std::int64_t base, bool seeded) {
  check_usable();
  const std::string path = (fs::path(opt.dir) / file_name("log", base, "wal")).string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw error("cannot write " + path + ": " + std::strerror(errno));
  std::lock_guard<std::mutex> g(m);
  if (log_fd >= 0) {  // the old log's last records reach the disk before it is left, then its header says so
    sync_data(log_fd, log_path);
    mark_acked(log_records);
    sync_data(log_fd, log_path);
    ::close(log_fd);
  }
  log_fd = fd;
  log_path = path;
  log_size = 0;
  log_base = base, log_seeded = seeded;
  log_records = synced_records = 0;
  try {
    const std::string h = wal_header(base, seeded);
    write_all(log_fd, h.data(), h.size(), path);
    log_size = h.size();
    sync_data(log_fd, path);
    sync_folder_of(path);
  } catch (const error& e) {
    broken = e.what();
    throw;
  }
}

// Keeps the two newest snapshots and the logs from the older of them on; removes the rest.
void journal::impl::prune() {
  std::vector<entry> snaps, logs;
  list(opt.dir, snaps, logs);
  if (snaps.size() < 2) return;  // the one snapshot may turn out corrupted: every log stays
  const std::int64_t keep_from = snaps[snaps.size() - 2].batch;
  std::error_code ec;
  for (std::size_t i = 0; i + 2 < snaps.size(); ++i) fs::remove(snaps[i].path, ec);
  for (const entry& l : logs)
    if (l.batch < keep_from && l.path != log_path) fs::remove(l.path, ec);
  sync_folder_of(log_path);
}

void journal::impl::sync_loop() {
  std::unique_lock<std::mutex> g(m);
  while (!stopping) {
    cv.wait_for(g, std::chrono::duration<double>(opt.sync_interval));
    if (dirty && log_fd >= 0 && sync_error.empty()) {
      // the header says what the last sync put on the disk: a header ahead of its records could
      // reach the disk first and make a torn, never acknowledged record look like a lost one
      const std::int64_t n = log_records;
      try {
        mark_acked(synced_records);
        if (::fdatasync(log_fd) != 0) throw error("cannot write " + log_path + ": " + std::strerror(errno));
        synced_records = n;
      } catch (const error& e) {
        sync_error = e.what();
      }
      dirty = false;
    }
  }
}

journal::journal(const durability_options& opt) : p_(std::make_unique<impl>()) {
  FG_EXPECTS(!opt.dir.empty(), "journal: no folder");
  FG_EXPECTS(opt.sync_interval > 0 && opt.sync_interval <= 1e6, "journal: the sync interval must be in (0, 1e6] seconds");
  FG_EXPECTS(opt.snapshot_every >= 0 && opt.snapshot_bytes >= 0, "journal: negative snapshot spacing");
  p_->opt = opt;
  p_->lock();
  try {
    p_->recover();
  } catch (...) {
    if (p_->log_fd >= 0) ::close(p_->log_fd);
    p_->unlock();
    throw;
  }
  if (opt.sync == sync_mode::interval) p_->syncer = std::thread([this] { p_->sync_loop(); });
}

journal::~journal() {
  if (p_->snapper.joinable()) p_->snapper.join();  // a failure now is not a loss: the log holds every batch
  {
    std::lock_guard<std::mutex> g(p_->m);
    p_->stopping = true;
  }
  p_->cv.notify_all();
  if (p_->syncer.joinable()) p_->syncer.join();
  if (p_->log_fd >= 0) {  // best effort: a clean end leaves everything on the disk, the header saying so
    if (p_->broken.empty() && ::fdatasync(p_->log_fd) == 0) {
      try {
        p_->mark_acked(p_->log_records);
        ::fdatasync(p_->log_fd);
      } catch (const error&) {
      }
    }
    ::close(p_->log_fd);
  }
  p_->unlock();
}

journal_recovery journal::take_recovery() { return std::move(p_->rec); }

void journal::append(const wal_record& r) {
  impl& p = *p_;
  FG_EXPECTS(r.batch == p.last_batch + 1, "journal: batch " + std::to_string(r.batch) + " appended after batch " + std::to_string(p.last_batch));
  p.buffer.clear();
  encode_record(r, p.buffer);
  p.check_usable();
  if (p.snap_failed.load(std::memory_order_acquire)) p.join_snapshot();
  std::lock_guard<std::mutex> g(p.m);
  if (!p.sync_error.empty()) throw error(p.sync_error);
  try {
    write_all(p.log_fd, p.buffer.data(), p.buffer.size(), p.log_path);
    if (p.opt.sync == sync_mode::batch) {  // the records before this one were synced: the header says so
      p.mark_acked(p.log_records);
      sync_data(p.log_fd, p.log_path);
    }
  } catch (const error& e) {
    // Cut back to before the record; whether or not that worked, nothing more is appended (a record
    // after a partial one would turn a torn tail into damage in the middle of the log).
    if (::ftruncate(p.log_fd, off_t(p.log_size)) == 0) ::lseek(p.log_fd, off_t(p.log_size), SEEK_SET);
    p.broken = e.what();
    throw;
  }
  p.log_size += p.buffer.size();
  ++p.log_records;
  if (p.opt.sync == sync_mode::batch) p.synced_records = p.log_records;
  p.dirty = true;
  p.last_batch = r.batch;
  ++p.batches_since;
  p.bytes_since += std::int64_t(p.buffer.size());
}

bool journal::snapshot_due() const noexcept {
  const impl& p = *p_;
  if (p.snap_running.load(std::memory_order_acquire)) return false;  // due when the one being written is whole
  return (p.opt.snapshot_every > 0 && p.batches_since >= p.opt.snapshot_every) ||
         (p.opt.snapshot_bytes > 0 && p.bytes_since >= p.opt.snapshot_bytes);
}

void journal::write_snapshot(snapshot s) {
  const std::int64_t batch = s.stream_batches;
  write_snapshot(batch, [s = std::move(s)]() mutable { return std::move(s); });
}

bool journal::begin_snapshot(std::int64_t batch) {
  impl& p = *p_;
  FG_EXPECTS(batch == p.last_batch, "journal: a snapshot of batch " + std::to_string(batch) + " after batch " + std::to_string(p.last_batch));
  p.check_usable();
  p.join_snapshot();
  if (batch == p.snap_whole.load()) return false;  // that snapshot is whole already
  // The log after it first: the batches that follow go there while the snapshot is made. If the
  // snapshot never becomes whole, the one before and the logs from there still hold everything.
  p.new_log(batch, batch == 0);  // a batch-0 snapshot is a seed (or an empty start): log-0 needs it then
  p.batches_since = p.bytes_since = 0;
  p.begun = batch;
  p.snap_running.store(true, std::memory_order_release);
  return true;
}

void journal::drop_snapshot() noexcept {
  if (p_->begun < 0) return;
  p_->begun = -1;
  p_->snap_running.store(false, std::memory_order_release);
}

void journal::write_snapshot(std::int64_t batch, std::function<snapshot()> build) {
  impl& p = *p_;
  if (p.begun != batch) {
    drop_snapshot();
    if (!begin_snapshot(batch)) return;
  }
  p.begun = -1;
  const std::string path = (fs::path(p.opt.dir) / file_name("snap", batch, "fgsnap")).string();
  const auto work = [&p, path, batch, build = std::move(build)] {
    // Background work: the scheduler runs the stream's threads first where they share cores
    // (Linux: a thread's nice value is its own). Best effort.
    ::setpriority(PRIO_PROCESS, pid_t(::syscall(SYS_gettid)), 10);
    try {
      const snapshot s = build();
      if (s.stream_batches != batch) throw error("journal: the snapshot built for batch " + std::to_string(batch) + " holds another");
      fg::write_snapshot(path, s);
      p.snap_whole.store(batch);
      p.prune();
    } catch (const std::exception& e) {
      p.snap_error = e.what();
      p.snap_failed.store(true, std::memory_order_release);
    }
    p.snap_running.store(false, std::memory_order_release);
  };
  try {
    p.snapper = std::thread(work);
  } catch (...) {  // no thread: no snapshot running
    p.snap_running.store(false, std::memory_order_release);
    throw;
  }
}

void journal::wait() { p_->join_snapshot(); }
void journal::check() const { p_->check_usable(); }

const std::string& journal::dir() const noexcept { return p_->opt.dir; }

namespace {
// One file of the folder: a line saying what it holds, and whether it is whole.
struct file_health {
  std::string line;
  bool whole = true;
};

file_health snapshot_health(const entry& e) {
  try {
    const snapshot s = read_stream_snapshot(e);
    return {e.path + ": whole: the graph from batch " + std::to_string(e.batch) + " on, " + std::to_string(s.vertices) + " vertices, " +
            std::to_string(s.col.size()) + " edges, " + std::to_string(s.stream_lines) + " lines"};
  } catch (const input_error& x) {
    return {x.what(), false};
  }
}

file_health log_health(const entry& e) {
  try {
    const wal_scan w = read_wal(e.path);
    const auto n = std::int64_t(w.records.size());
    file_health h{e.path + ": version " + std::to_string(w.version) + ", " + std::to_string(n) + " whole records (batches " +
                  std::to_string(w.base_batch + 1) + " to " + std::to_string(w.base_batch + n) + "), " + std::to_string(w.acked) +
                  " counted as acknowledged"};
    if (w.torn_bytes > 0) h.line += ", a torn last record of " + std::to_string(w.torn_bytes) + " bytes";
    if (const std::string range = lost_batches(w); !range.empty()) h.line += ": " + range + " lost", h.whole = false;
    return h;
  } catch (const input_error& x) {
    return {x.what(), false};
  }
}
}  // namespace

// The snapshots older than the one recovered from and the logs before the ones replayed are what
// a damaged newest snapshot would be recovered from: read now, so that damage there is named while
// the newest is still whole, not found when it is needed (docs/durability.md).
void journal::impl::check_fallbacks(const std::vector<entry>& snaps, const std::vector<entry>& logs, std::int64_t from) {
  for (const entry& e : snaps)
    if (e.batch < from) {
      const file_health h = snapshot_health(e);
      if (!h.whole) rec.warnings.push_back("a fallback is damaged: " + h.line + " (a damaged newest snapshot could not be recovered from it)");
    }
  for (const entry& e : logs)
    if (e.batch < from) {
      const file_health h = log_health(e);
      if (!h.whole) rec.warnings.push_back("a fallback is damaged: " + h.line + " (a damaged newest snapshot could not be recovered with it)");
    }
}

// Every snapshot and log read whole, then the recovery a start would make, without the lock and
// without changing the folder (journal.hpp).
journal_health journal::check(const std::string& dir) {
  if (!fs::is_directory(dir)) throw error(dir + ": not a folder");
  journal_health h;
  std::vector<entry> snaps, logs;
  list(dir, snaps, logs, false);
  bool whole = true;
  for (const entry& e : snaps) {
    const file_health f = snapshot_health(e);
    h.files.push_back(f.line), whole = whole && f.whole;
  }
  for (const entry& e : logs) {
    const file_health f = log_health(e);
    h.files.push_back(f.line), whole = whole && f.whole;
  }
  impl p;
  p.opt.dir = dir;
  p.read_only = true;
  try {
    p.recover();
    h.start = "a start recovers batch " + std::to_string(p.last_batch) + " (" +
              (p.rec.snapshot_path.empty() ? std::string("no snapshot") : p.rec.snapshot_path) + ", then " +
              std::to_string(p.rec.records.size()) + " batches from the log)";
    for (const std::string& w : p.rec.warnings) h.start += "; " + w;
    h.ok = whole;
  } catch (const error& x) {
    h.start = std::string("a start is refused: ") + x.what();
  }
  return h;
}

}  // namespace fg
