// A timeline of a CUDA program without nsys (the GPU machines have ncu only): a CUPTI injection
// library that records every runtime API call (host start/end), kernel, memcpy and memset (device
// start/end) on CUPTI's one clock, and writes them at exit as "kind,start_ns,end_ns,name" lines to
// $FG_TRACE_OUT (default fg-trace.csv). bench/trace/gaps.py reads them: where the GPU waits for the
// host between the kernels of a region, and which API calls fill those gaps.
//
// Build: g++ -O2 -shared -fPIC cupti_trace.cpp -I$CUDA/include -L$CUDA/lib64 -lcupti -o libfgtrace.so
// Use:   CUDA_INJECTION64_PATH=$PWD/libfgtrace.so FG_TRACE_OUT=t.csv ./program
// Not part of the library or its builds: a profiling aid that scripts/gpu-check.sh builds on the device.
#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct record {
  char kind;  // A (runtime API), K (kernel), C (memcpy), S (memset)
  std::uint64_t start, end;
  std::string name;
};

std::mutex lock;
std::vector<record> records;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void keep(CUpti_Activity* a) {
  switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
      const auto* r = reinterpret_cast<CUpti_ActivityAPI*>(a);
      const char* name = nullptr;
      cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, r->cbid, &name);
      records.push_back({'A', r->start, r->end, name != nullptr ? name : "?"});
      break;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      const auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(a);
      records.push_back({'K', k->start, k->end, k->name != nullptr ? k->name : "?"});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<CUpti_ActivityMemcpy6*>(a);
      records.push_back({'C', m->start, m->end, "memcpy " + std::to_string(m->bytes)});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(a);
      records.push_back({'S', m->start, m->end, "memset " + std::to_string(m->bytes)});
      break;
    }
    default:
      break;
  }
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  {
    const std::lock_guard<std::mutex> g(lock);
    CUpti_Activity* a = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) keep(a);
  }
  std::free(buffer);
}

void write_out() {
  cuptiActivityFlushAll(1);
  const char* path = std::getenv("FG_TRACE_OUT");
  FILE* f = std::fopen(path != nullptr ? path : "fg-trace.csv", "w");
  if (f == nullptr) return;
  const std::lock_guard<std::mutex> g(lock);
  for (const record& r : records)
    std::fprintf(f, "%c,%llu,%llu,%s\n", r.kind, static_cast<unsigned long long>(r.start),
                 static_cast<unsigned long long>(r.end), r.name.c_str());
  std::fclose(f);
}

}  // namespace

extern "C" int InitializeInjection() {
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) return 0;
  for (CUpti_ActivityKind k : {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                               CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET})
    cuptiActivityEnable(k);
  std::atexit(write_out);
  return 1;
}
