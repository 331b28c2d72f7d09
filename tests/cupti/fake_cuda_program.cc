// A CUDA program without CUDA, for the agent's end-to-end tests: it does what the CUDA
// driver does with CUDA_INJECTION64_PATH during cuInit (dlopen the library, call its
// InitializeInjection), then plays the fake libcupti's part of a GPU program: it delivers
// the record batches of fake_scenario.h, one every 150 ms, through the agent's own
// callbacks. It links the fake libcupti.so.13, so the agent's libcupti.so.13 is that one.
//   fake_cuda_program run N [EXIT]   N batches, then exit(EXIT) (default 0)
//   fake_cuda_program crash N        N batches, a pause of two flush periods, one more
//                                    batch, and a crash (SIGSEGV) before the next flush
//   fake_cuda_program nocuda [EXIT]  never initializes CUDA (no GPU or driver): exit(EXIT)
//   fake_cuda_program spawn N        runs a child "run N" (which injects itself, as a CUDA
//                                    child process does), then N batches of its own
//   fake_cuda_program dropped N      N batches; CUPTI reports 5 dropped records once
//   fake_cuda_program flood N        batches 0..N-1 in one CUPTI buffer (more than a small
//                                    TRACESCOPE_AGENT_BUDGET_MB), then batch N on its own
//   fake_cuda_program early N [EXIT] NVTX before CUDA: nvtxRangePushA("early"),
//                                    nvtxMarkA("early mark"), nvtxRangePop(), then cuInit
//                                    and N batches (nvtx3 reads NVTX_INJECTION64_PATH)
//   fake_cuda_program threads        names its main thread "fake-main" and delivers batch 0
//                                    with its OS thread id, then batch 1 from a thread
//                                    named "worker-1" with that thread's id
// cuDriverGetVersion is exported here for the agent's driver check (FAKE_CUDA_DRIVER_VERSION,
// default 13000).
#include "tests/cupti/fake_scenario.h"

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern "C" bool fakecupti_deliver(const uint8_t* records, size_t size);
extern "C" void fakecupti_add_dropped(size_t n);
extern "C" CUptiResult cuptiGetTimestamp(uint64_t* timestamp);

extern "C" __attribute__((visibility("default"))) CUresult cuDriverGetVersion(int* version) {
    const char* v = std::getenv("FAKE_CUDA_DRIVER_VERSION");
    *version = v ? std::atoi(v) : 13000;
    return CUDA_SUCCESS;
}

namespace {

bool cuInit() {
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    if (!path || !*path) return true;
    void* agent = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!agent) {
        std::fprintf(stderr, "fake_cuda_program: %s\n", dlerror());
        return false;
    }
    using Init = int (*)();
    auto init = reinterpret_cast<Init>(dlsym(agent, "InitializeInjection"));
    if (!init) {
        std::fprintf(stderr, "fake_cuda_program: no InitializeInjection in %s\n", path);
        return false;
    }
    return init() == 1;
}

void batch(int index, uint32_t tid = fake::kTid) {
    uint64_t now = 0;
    cuptiGetTimestamp(&now);
    fake::BufferBuilder b;
    fake::buildBatch(b, index, now, tid);
    if (!fakecupti_deliver(b.bytes.data(), b.bytes.size())) std::fprintf(stderr, "fake_cuda_program: not delivered\n");
}

void pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "run";
    const int n = argc > 2 ? std::atoi(argv[2]) : 2;
    if (mode == "nocuda") return argc > 2 ? std::atoi(argv[2]) : 0;
    // FAKE_OUTPUT_LINES=N: N numbered lines on stdout (more than a pipe holds when N is large)
    // and one on stderr, for the launch's output capture.
    if (const char* lines = std::getenv("FAKE_OUTPUT_LINES")) {
        for (int i = 0, count = std::atoi(lines); i < count; ++i) std::printf("stdout line %d\n", i);
        std::fflush(stdout);
        std::fprintf(stderr, "stderr line\n");
    }
    if (mode == "early") {
        nvtxRangePushA("early");
        nvtxMarkA("early mark");
        nvtxRangePop();
    }
    if (!cuInit()) return 99;
    if (mode == "threads") {
        pthread_setname_np(pthread_self(), "fake-main");
        batch(0, uint32_t(syscall(SYS_gettid)));
        std::thread worker([] {
            pthread_setname_np(pthread_self(), "worker-1");
            batch(1, uint32_t(syscall(SYS_gettid)));
            pause(300);  // alive until the agent has flushed (and read its name)
        });
        worker.join();
        return 0;
    }
    if (mode == "spawn") {
        const pid_t child = fork();
        if (child == 0) {
            execl("/proc/self/exe", argv[0], "run", std::to_string(n).c_str(), static_cast<char*>(nullptr));
            _exit(98);
        }
        for (int i = 0; i < n; ++i, pause(150)) batch(i);
        int status = 0;
        waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 97;
    }
    if (mode == "dropped") fakecupti_add_dropped(5);
    if (mode == "flood") {
        uint64_t now = 0;
        cuptiGetTimestamp(&now);
        fake::BufferBuilder b;
        for (int i = 0; i < n; ++i) fake::buildBatch(b, i, now + uint64_t(i) * 1000);
        if (!fakecupti_deliver(b.bytes.data(), b.bytes.size())) std::fprintf(stderr, "fake_cuda_program: not delivered\n");
        pause(300);
        batch(n);
        return 0;
    }
    for (int i = 0; i < n; ++i, pause(150)) batch(i);
    if (mode == "crash") {
        pause(300);  // two flush periods of 100-250 ms: everything so far has been sent
        batch(n);
        rlimit none{0, 0};
        setrlimit(RLIMIT_CORE, &none);
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
    }
    return argc > 3 ? std::atoi(argv[3]) : 0;
}
