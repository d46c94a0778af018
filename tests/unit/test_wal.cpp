// The write-ahead log's format (stream/wal): records round-trip; a torn tail (cut anywhere inside
// the last record, zeros, garbage) is dropped; a damaged record with records after it, another
// version, a foreign file and impossible contents are refused; the journal (stream/journal)
// recovers across snapshots and passes over a corrupted one.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "core/error.hpp"
#include "stream/journal.hpp"
#include "loaders/durable_io.hpp"
#include "stream/wal.hpp"

namespace {
namespace fs = std::filesystem;

fg::wal_record record(std::int64_t batch, std::int64_t lines, std::mt19937& rng) {
  fg::wal_record r;
  r.batch = batch, r.lines = lines, r.vertices = 50, r.inserts_first = batch % 2 == 0;
  for (int i = 0; i < int(rng() % 20); ++i) r.ins_src.push_back(int(rng() % 50)), r.ins_dst.push_back(int(rng() % 50));
  for (int i = 0; i < int(rng() % 5); ++i) r.del_src.push_back(int(rng() % 50)), r.del_dst.push_back(int(rng() % 50));
  if (batch == 1) for (int v = 0; v < 50; ++v) r.new_ids.push_back(1000 + v);
  return r;
}

bool same(const fg::wal_record& a, const fg::wal_record& b) {
  return a.batch == b.batch && a.lines == b.lines && a.vertices == b.vertices && a.inserts_first == b.inserts_first &&
         a.new_ids == b.new_ids && a.ins_src == b.ins_src && a.ins_dst == b.ins_dst && a.del_src == b.del_src &&
         a.del_dst == b.del_dst;
}

// A log of batches 1..n after base 0; `ends[i]`: where record i ends.
std::string log_of(int n, std::vector<fg::wal_record>& recs, std::vector<std::size_t>& ends) {
  std::mt19937 rng(7);
  std::string b = fg::wal_header(0);
  for (int i = 1; i <= n; ++i) {
    recs.push_back(record(i, 10 * i, rng));
    fg::encode_record(recs.back(), b);
    ends.push_back(b.size());
  }
  return b;
}
// A journal's options on an empty folder of this process.
fg::durability_options fresh_journal(const std::string& name, std::int64_t snapshot_every) {
  const fs::path dir = fs::temp_directory_path() / (name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fg::durability_options o;
  o.dir = dir.string();
  o.snapshot_every = snapshot_every;
  return o;
}
}  // namespace

TEST_CASE("wal: records round-trip; a torn tail anywhere in the last record is dropped") {
  std::vector<fg::wal_record> recs;
  std::vector<std::size_t> ends;
  const std::string b = log_of(6, recs, ends);
  const fg::wal_scan s = fg::scan_wal("x", b.data(), b.size());
  REQUIRE(s.records.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(same(s.records[i], recs[i]));
  CHECK(s.valid_bytes == b.size());
  for (std::size_t cut = ends[4]; cut < ends[5]; ++cut) {  // every cut inside the last record
    const fg::wal_scan t = fg::scan_wal("x", b.data(), cut);
    CHECK(t.records.size() == 5);
    CHECK(t.valid_bytes == ends[4]);
    CHECK(t.torn_bytes == cut - ends[4]);
  }
  for (const char fill : {'\0', 'z'}) {  // zeros or garbage after the last record
    const std::string z = b + std::string(100, fill);
    CHECK(fg::scan_wal("x", z.data(), z.size()).records.size() == 6);
  }
  std::string damaged_last = b;
  damaged_last[ends[4] + 30] ^= 1;  // inside the last record's payload: torn
  CHECK(fg::scan_wal("x", damaged_last.data(), damaged_last.size()).records.size() == 5);
  // A frame whose pad (never written but zero) is set, its checksum made to match: not a record
  // (it would read as one that no encoding gives back; the wal fuzz target found it).
  std::string padded = b;
  const std::size_t frame_at = ends[4], pad_at = frame_at + 20, crc_at = frame_at + 16;
  padded[pad_at] = 1;
  std::string head = padded.substr(frame_at, 24);
  std::fill(head.begin() + 16, head.begin() + 20, '\0');
  const std::uint32_t crc = fg::crc32_of(head.data(), head.size());
  std::memcpy(&padded[crc_at], &crc, 4);
  const fg::wal_scan p = fg::scan_wal("x", padded.data(), padded.size());
  CHECK(p.records.size() == 5);
  CHECK(p.valid_bytes == ends[4]);
}

TEST_CASE("wal: damage before the last record, other versions and foreign bytes are refused") {
  std::vector<fg::wal_record> recs;
  std::vector<std::size_t> ends;
  const std::string b = log_of(6, recs, ends);
  for (const std::size_t at : {ends[1] + 2, ends[1] + 20, ends[1] + 30, ends[2] - 1}) {  // frame and payload of record 3
    std::string d = b;
    d[at] ^= 0x10;
    CHECK_THROWS_AS(fg::scan_wal("log", d.data(), d.size()), fg::input_error);
  }
  std::string v3 = b;
  v3[8] = 3;  // (the header's checksum covers the version)
  CHECK_THROWS_WITH_AS(fg::scan_wal("log", v3.data(), v3.size()), doctest::Contains("corrupted"), fg::input_error);
  const std::string text = "1 2\n3 4\n" + std::string(40, 'x');
  CHECK_THROWS_WITH_AS(fg::scan_wal("log", text.data(), text.size()), doctest::Contains("not a fluxgraph log"), fg::input_error);
  const fg::wal_scan torn_header = fg::scan_wal("log", b.data(), 20);
  CHECK(torn_header.records.empty());
  CHECK(torn_header.valid_bytes == 0);
  fg::wal_record bad = recs[0];
  bad.ins_src.push_back(1);  // lengths differ
  std::string out;
  CHECK_THROWS_AS(fg::encode_record(bad, out), fg::invalid_argument);
}

TEST_CASE("journal: recovery from snapshots and logs; a corrupted snapshot is passed over") {
  const fg::durability_options o = fresh_journal("fg_journal_", 3);
  const fs::path dir = o.dir;
  std::mt19937 rng(3);
  std::vector<fg::wal_record> recs;
  {
    fg::journal j(o);
    CHECK(j.take_recovery().records.empty());
    for (int b = 1; b <= 8; ++b) {
      recs.push_back(record(b, 10 * b, rng));
      j.append(recs.back());
      if (j.snapshot_due()) {
        fg::snapshot s;
        s.vertices = 50, s.row_ptr.assign(51, 0), s.stream_batches = b, s.stream_lines = 10 * b;
        j.write_snapshot(s);
        j.wait();  // (written on a thread of its own; the next is not due while it is)
      }
    }
    CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("in use"), fg::error);  // locked
  }
  {
    fg::journal j(o);
    const fg::journal_recovery r = j.take_recovery();
    CHECK(r.base.stream_batches == 6);
    REQUIRE(r.records.size() == 2);
    CHECK(same(r.records[1], recs[7]));
  }
  const fs::path newest = dir / "snap-00000000000000000006.fgsnap";
  REQUIRE(fs::exists(newest));
  {
    std::fstream f(newest, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(60);
    f.put('\x7f');
  }
  fg::journal j(o);
  const fg::journal_recovery r = j.take_recovery();
  CHECK(r.base.stream_batches == 3);
  REQUIRE(r.records.size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(same(r.records[std::size_t(i)], recs[std::size_t(3 + i)]));
  CHECK(r.warnings.size() == 1);
  CHECK(fs::exists(newest.string() + ".corrupt"));  // renamed aside once the recovery held
  fs::remove(dir / "LOCK");  // the folder itself stays locked
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("in use"), fg::error);
  fs::remove_all(dir);
}

TEST_CASE("journal: a log cut inside its acknowledged records is refused, naming the batches lost; accept_loss goes on") {
  fg::durability_options o = fresh_journal("fg_journal_loss_", 0);
  const fs::path dir = o.dir;
  std::mt19937 rng(5);
  std::vector<fg::wal_record> recs;
  {
    fg::journal j(o);
    for (int b = 1; b <= 6; ++b) {
      recs.push_back(record(b, 10 * b, rng));
      j.append(recs.back());
    }
  }
  const fs::path log = dir / "log-00000000000000000000.wal";
  std::string bytes;
  {
    std::ifstream f(log, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), {});
  }
  const fg::wal_scan whole = fg::scan_wal("log", bytes.data(), bytes.size());
  CHECK(whole.version == fg::wal_version);
  CHECK(whole.acked == 6);  // a clean end: every record acknowledged
  // a flipped byte in the last record of a cleanly ended log: not a torn write, a lost batch
  std::string flipped = bytes;
  flipped[flipped.size() - 3] ^= 0x20;
  std::ofstream(log, std::ios::binary | std::ios::trunc) << flipped;
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("batches 6 to 6 (1) are lost"), fg::error);
  // cut right after record 3 (a record boundary: every record left whole): batches 4 to 6 lost
  std::string three = fg::wal_header(0);
  for (int i = 0; i < 3; ++i) fg::encode_record(recs[std::size_t(i)], three);
  std::ofstream(log, std::ios::binary | std::ios::trunc) << bytes.substr(0, three.size());
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("batches 4 to 6 (3) are lost"), fg::error);
  // cut at half its bytes, inside a record: refused without touching the log; accepted, what is left stays
  std::ofstream(log, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  const auto cut_size = fs::file_size(log);
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("were acknowledged"), fg::error);
  CHECK(fs::file_size(log) == cut_size);
  o.accept_loss = true;
  {
    fg::journal j(o);
    const fg::journal_recovery r = j.take_recovery();
    CHECK(r.lost_batches == 6 - std::int64_t(r.records.size()));
    CHECK(r.lost_batches > 0);
    for (std::size_t i = 0; i < r.records.size(); ++i) CHECK(same(r.records[i], recs[i]));
  }
  o.accept_loss = false;
  fg::journal again(o);  // the header now says what is left: no loss to report
  CHECK(again.take_recovery().lost_batches == 0);
  fs::remove_all(dir);
}

TEST_CASE("journal: a snapshot whose log was deleted or cut to nothing is refused; accept_loss goes on from it") {
  fg::durability_options o = fresh_journal("fg_journal_nolog_", 3);
  const fs::path dir = o.dir;
  std::mt19937 rng(11);
  {
    fg::journal j(o);
    for (int b = 1; b <= 7; ++b) {
      j.append(record(b, 10 * b, rng));
      if (j.snapshot_due()) {
        fg::snapshot s;
        s.vertices = 50, s.row_ptr.assign(51, 0), s.stream_batches = b, s.stream_lines = 10 * b;
        j.write_snapshot(s);
        j.wait();
      }
    }
  }
  const fs::path log = dir / "log-00000000000000000006.wal", moved = dir / "elsewhere";
  REQUIRE(fs::exists(dir / "snap-00000000000000000006.fgsnap"));
  fs::rename(log, moved);
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("is missing (deleted?): any batch acknowledged after batch 6 is lost"),
                       fg::error);
  fs::copy_file(moved, log);
  fs::resize_file(log, 0);
  CHECK_THROWS_WITH_AS(fg::journal{o}, doctest::Contains("is cut to nothing"), fg::error);
  CHECK(fs::file_size(log) == 0);  // refused: nothing changed
  o.accept_loss = true;
  {
    fg::journal j(o);
    const fg::journal_recovery r = j.take_recovery();
    CHECK(r.base.stream_batches == 6);
    CHECK(r.records.empty());
    CHECK(r.warnings.size() == 1);
  }
  fs::remove(log);
  fs::rename(moved, log);
  o.accept_loss = false;
  fs::remove_all(dir);
}
