// Live input (stream/live_reader.hpp): the batch-cutting rule on a fake clock, dense ids and the
// line-order rule of a mixed batch, and the reader thread on a real pipe: a batch cut by delay while
// the pipe stays open, cuts by size, a bad line under fail and under skip, a stop while idle, and
// twenty thousand lines through the reader and mapper threads with their buffers reused.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "stream/live_reader.hpp"

namespace {
using namespace fg;
using clock_type = std::chrono::steady_clock;

TEST_CASE("batch_cutter: cut at the size, or the delay after the first edge, never empty") {
  const batch_cutter c{4, 0.010};
  CHECK_FALSE(c.due(0, 0.0, 100.0));  // nothing to cut, however long
  CHECK(c.wait(0, 0.0, 100.0) < 0);   // no edge: wait for input without a limit
  CHECK_FALSE(c.due(3, 1.0, 1.009));
  CHECK(c.wait(3, 1.0, 1.004) == doctest::Approx(0.006));
  CHECK(c.due(3, 1.0, 1.010));
  CHECK(c.wait(3, 1.0, 1.020) == 0.0);
  CHECK(c.due(4, 1.0, 1.0));  // full at once
  CHECK(c.due(5, 1.0, 1.0));
  const batch_cutter now{100, 0.0};  // --max-delay 0: every read is a batch
  CHECK(now.due(1, 2.0, 2.0));
}

raw_edges raw(std::vector<std::vector<std::int64_t>> lines) {  // {u, v} insert, {-1, u, v} delete
  raw_edges r;
  for (const auto& l : lines) {
    if (l.size() == 2) r.add_insert(l[0], l[1]);
    else r.add_delete(l[1], l[2]);
  }
  return r;
}

TEST_CASE("to_dense: ids in order of first appearance; an insert undone later in its batch is dropped") {
  id_map ids;
  live_batch b;
  to_dense(raw({{50, 7}, {7, 900}, {50, 900}}), ids, b);
  CHECK(b.inserts.src == std::vector<vertex_t>{0, 1, 0});
  CHECK(b.inserts.dst == std::vector<vertex_t>{1, 2, 2});
  CHECK(b.new_ids == std::vector<std::int64_t>{50, 7, 900});
  CHECK(b.vertices == 3);
  // + 50 7 then - 50 7: the edge goes (the insert is dropped, the delete removes a stored copy);
  // - 7 900 then + 7 900: it stays (both kept: the mixed batch deletes first); - 1 2: ids never
  // inserted, dropped; - 50 3 before 3 appears: dropped, though 3 appears later in the batch.
  to_dense(raw({{50, 7}, {-1, 50, 7}, {-1, 7, 900}, {7, 900}, {-1, 1, 2}, {-1, 50, 3}, {3, 50}}), ids, b);
  CHECK(b.insert_lines == 3);
  CHECK(b.delete_lines == 4);
  CHECK(b.inserts.src == std::vector<vertex_t>{1, 3});
  CHECK(b.inserts.dst == std::vector<vertex_t>{2, 0});
  CHECK(b.deletes.src == std::vector<vertex_t>{0, 1});
  CHECK(b.deletes.dst == std::vector<vertex_t>{1, 2});
  CHECK(b.new_ids == std::vector<std::int64_t>{3});
  CHECK(b.vertices == 4);
  // Insert, delete, insert again: present, once.
  to_dense(raw({{3, 7}, {-1, 3, 7}, {3, 7}}), ids, b);
  CHECK(b.inserts.src == std::vector<vertex_t>{3});
  CHECK(b.deletes.src == std::vector<vertex_t>{3});
}

// A pipe whose write end the test holds; the reader reads the other end.
struct pipe_pair {
  int fd[2] = {-1, -1};
  pipe_pair() { REQUIRE(pipe(fd) == 0); }
  ~pipe_pair() {
    close_write();
    close(fd[0]);
  }
  void write(const std::string& s) { REQUIRE(::write(fd[1], s.data(), s.size()) == ssize_t(s.size())); }
  void close_write() {
    if (fd[1] >= 0) close(fd[1]);
    fd[1] = -1;
  }
};

live_options opts(std::size_t batch, double delay_s) {
  live_options o;
  o.batch_edges = batch;
  o.max_delay = delay_s;
  return o;
}

TEST_CASE("live_reader: a batch is cut by the delay while the input stays open") {
  pipe_pair p;
  live_reader r(p.fd[0], opts(1000, 0.02));
  const auto t = clock_type::now();  // before the write: the lines cannot arrive earlier
  p.write("1 2\n2 3\n");
  live_batch b;
  REQUIRE(r.next(b));  // the write end is still open: only the delay can have cut this batch
  const double waited = std::chrono::duration<double>(clock_type::now() - t).count();
  CHECK(b.number == 1);
  CHECK(b.insert_lines == 2);
  CHECK(b.arrived >= t);
  CHECK(waited >= 0.02);
  CHECK(waited < 5.0);
  CHECK(b.arrived <= clock_type::now());
  p.write("3 4\n");
  p.close_write();
  REQUIRE(r.next(b));
  CHECK(b.number == 2);
  CHECK(b.inserts.src == std::vector<vertex_t>{2});
  CHECK(b.new_ids == std::vector<std::int64_t>{4});
  CHECK_FALSE(r.next(b));
  CHECK_FALSE(r.next(b));
}

TEST_CASE("live_reader: cut by size, and at the end of the input") {
  pipe_pair p;
  std::string text;
  for (int i = 0; i < 10; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  p.write(text + "# the end, no newline: 20 21");
  p.close_write();
  live_reader r(p.fd[0], opts(4, 60.0));  // a minute: no cut by delay in this test
  std::vector<std::size_t> sizes;
  for (live_batch b; r.next(b);) sizes.push_back(b.insert_lines);
  CHECK(sizes == std::vector<std::size_t>{4, 4, 2});
}

TEST_CASE("live_reader: a bad line ends the input after the batches before its batch (fail)") {
  pipe_pair p;
  p.write("1 2\n2 3\n3 4\n4 5\n5 6\n6 x\n7 8\n");
  p.close_write();
  live_reader r(p.fd[0], opts(2, 60.0));
  live_batch b;
  REQUIRE(r.next(b));
  CHECK(b.last_line == 2);
  REQUIRE(r.next(b));
  CHECK(b.last_line == 4);
  // Lines 5 and 6 share a batch: line 5 is dropped with it, never applied halfway.
  try {
    r.next(b);
    FAIL("no error for line 6");
  } catch (const input_error& e) {
    CHECK(e.line() == 6);
    CHECK(std::string(e.what()) == "<stdin>:6: vertex id 'x' is not a non-negative integer");
  }
  CHECK_FALSE(r.next(b));
}

TEST_CASE("live_reader: skip goes on after bad lines and counts them") {
  pipe_pair p;
  p.write("1 2\nbad\n2 3\n3 4 nan\n4 5\n");
  p.close_write();
  live_options o = opts(100, 60.0);
  o.skip_bad = true;
  std::vector<std::string> told;
  o.on_skip = [&](const std::string& m) { told.push_back(m); };
  live_reader r(p.fd[0], o);
  live_batch b;
  REQUIRE(r.next(b));
  CHECK(b.insert_lines == 3);
  CHECK_FALSE(r.next(b));
  CHECK(r.skipped() == 2);
  REQUIRE(told.size() == 2);
  CHECK(told[0].rfind("<stdin>:2: ", 0) == 0);
  CHECK(told[1] == "<stdin>:4: weight 'nan' is not finite");
}

TEST_CASE("live_reader: binary input; a trailing partial pair is an error naming its offset") {
  pipe_pair p;
  const std::int32_t ids[5] = {1, 2, 3, 4, 5};  // two pairs and half of a third
  p.write(std::string(reinterpret_cast<const char*>(ids), sizeof ids));
  p.close_write();
  live_options o = opts(1, 60.0);
  o.format = input_format::bin32;
  live_reader r(p.fd[0], o);
  live_batch b;
  REQUIRE(r.next(b));
  CHECK(b.new_ids == std::vector<std::int64_t>{1, 2});
  REQUIRE(r.next(b));
  CHECK_THROWS_WITH(r.next(b), "<stdin>: byte offset 16: trailing partial pair: 4 of 8 bytes");
}

TEST_CASE("live_reader: stopping a reader that waits for input that never comes") {
  pipe_pair p;
  const auto t = clock_type::now();
  {
    live_reader r(p.fd[0], opts(10, 0.01));
    p.write("1 2\n");
  }  // the write end is still open: the destructor must wake the thread
  CHECK(std::chrono::duration<double>(clock_type::now() - t).count() < 5.0);
}

}  // namespace

TEST_CASE("live_reader: many batches through both threads, buffers reused, every edge in order") {
  // 20,000 lines in batches of 13: the reader and the mapper hand buffers back and forth; a stale
  // or shared buffer would show up as a wrong edge. Every 10th line deletes the line 20 before it.
  pipe_pair p;
  std::vector<std::pair<std::int64_t, std::int64_t>> ins, del;
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    if (i % 10 == 9 && i >= 20) {
      del.push_back(ins[ins.size() - 18]);
      text += "- " + std::to_string(del.back().first) + " " + std::to_string(del.back().second) + "\n";
    } else {
      ins.emplace_back(std::int64_t(i % 997) * 1000003, std::int64_t(i * 7 % 1009));
      text += std::to_string(ins.back().first) + " " + std::to_string(ins.back().second) + "\n";
    }
  }
  std::thread writer([&] {
    p.write(text);
    p.close_write();
  });
  live_reader r(p.fd[0], opts(13, 60.0));
  std::vector<std::int64_t> id;
  std::vector<std::pair<std::int64_t, std::int64_t>> got_ins, got_del;
  std::int64_t batches = 0;
  for (live_batch b; r.next(b);) {
    CHECK(b.number == ++batches);
    id.insert(id.end(), b.new_ids.begin(), b.new_ids.end());
    REQUIRE(b.vertices == vertex_t(id.size()));
    for (std::size_t k = 0; k < b.inserts.size(); ++k)
      got_ins.emplace_back(id[std::size_t(b.inserts.src[k])], id[std::size_t(b.inserts.dst[k])]);
    for (std::size_t k = 0; k < b.deletes.size(); ++k)
      got_del.emplace_back(id[std::size_t(b.deletes.src[k])], id[std::size_t(b.deletes.dst[k])]);
  }
  writer.join();
  CHECK(batches == (20000 + 12) / 13);
  CHECK(got_ins == ins);  // no delete names an edge of its own batch: nothing is cancelled
  CHECK(got_del == del);
  const live_reader_times t = r.times();
  CHECK(t.parse >= 0);
  CHECK(t.map > 0);
  CHECK(t.input_wait >= 0);
}
