// A small CUDA program for checking Launch & Capture on a machine with a GPU (not run in CI):
// a templated kernel in a namespace with dynamic shared memory, pinned and pageable copies, a
// memset, cudaMallocAsync / cudaFreeAsync on a non-blocking stream, an event, stream / event /
// device synchronization, NVTX ranges (push/pop and a domain range with a payload) and a
// mark, a range "before-cuda" pushed and popped before the first CUDA call (recorded only in
// early-NVTX mode), and a captured CUDA graph of three kernels. With PROBE_BRACKET_FILE set it writes
// "<realtime ns before the first launch> <realtime ns after the last sync>" there, so that a
// test can check the GPU times against the host clock.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            std::fprintf(stderr, "capture_probe: %s: %s\n", #call, cudaGetErrorString(e_)); \
            return 2;                                                                       \
        }                                                                                   \
    } while (0)

namespace capx {

template <typename T, int N>
__global__ void scale(T* data, T factor, unsigned long n) {
    extern __shared__ unsigned char scratch[];
    const unsigned long i = static_cast<unsigned long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (threadIdx.x < 32) scratch[threadIdx.x] = static_cast<unsigned char>(N);
    __syncthreads();
    if (i < n) data[i] = data[i] * factor + T(scratch[threadIdx.x % 32] - N);
}

}  // namespace capx

static long long realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main() {
    nvtxRangePushA("before-cuda");
    nvtxRangePop();
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "capture_probe: no CUDA device\n");
        return 3;
    }
    const unsigned long n = 65536UL * 256UL;
    const size_t bytes = n * sizeof(float);
    nvtxRangePushA("probe");
    float* device = nullptr;
    float* pinned = nullptr;
    CHECK(cudaMalloc(&device, bytes));
    CHECK(cudaHostAlloc(&pinned, bytes, cudaHostAllocDefault));
    std::vector<float> pageable(n, 1.0f);
    for (unsigned long i = 0; i < n; ++i) pinned[i] = 1.0f;
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    const long long before = realtimeNs();
    CHECK(cudaMemcpy(device, pageable.data(), bytes, cudaMemcpyHostToDevice));       // pageable H2D
    CHECK(cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, stream));   // pinned H2D
    CHECK(cudaMemsetAsync(device, 0, bytes / 2, stream));
    capx::scale<float, 3><<<65536, 256, 128, stream>>>(device, 2.0f, n);
    CHECK(cudaGetLastError());
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    CHECK(cudaEventRecord(done, stream));
    CHECK(cudaEventSynchronize(done));

    // A domain range with a color and a payload around the async allocation.
    nvtxDomainHandle_t domain = nvtxDomainCreateA("capture_probe");
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = 0xff00ff00;
    attr.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    attr.payload.ullValue = 42;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "async-alloc";
    nvtxDomainRangePushEx(domain, &attr);
    float* scratch = nullptr;
    CHECK(cudaMallocAsync(&scratch, 1 << 20, stream));
    CHECK(cudaMemsetAsync(scratch, 0, 1 << 20, stream));
    CHECK(cudaFreeAsync(scratch, stream));
    CHECK(cudaStreamSynchronize(stream));
    nvtxDomainRangePop(domain);
    nvtxMarkA("tmark");

    // A graph of three kernels captured from the stream.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < 3; ++k) capx::scale<float, 3><<<256, 256, 128, stream>>>(device, 1.0f, 256UL * 256UL);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));

    CHECK(cudaMemcpy(pageable.data(), device, bytes, cudaMemcpyDeviceToHost));  // pageable D2H
    CHECK(cudaMemcpyAsync(pinned, device, bytes, cudaMemcpyDeviceToHost, stream));  // pinned D2H
    CHECK(cudaDeviceSynchronize());
    const long long after = realtimeNs();
    nvtxRangePop();

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(device));
    if (const char* path = std::getenv("PROBE_BRACKET_FILE")) {
        if (FILE* f = std::fopen(path, "w")) {
            std::fprintf(f, "%lld %lld\n", before, after);
            std::fclose(f);
        }
    }
    std::printf("capture_probe: ok (%f)\n", double(pageable[0]));
    return 0;
}
