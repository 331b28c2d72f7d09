/* The framed record format of our CUPTI agent (libtracescope_cupti.so): what the agent
 * streams over its Unix socket and writes to its fallback file, and what the viewer's one
 * decoder (record_decoder.h) reads. Plain C-compatible structs with fixed-size fields and
 * no dependencies, so that the agent (CUPTI + libc only) and the model share this header.
 *
 * A stream is a sequence of frames. Each frame is a FrameHeader followed by `length`
 * payload bytes: the record's fixed part (`fixedSize` bytes, one of the structs below,
 * possibly shorter or longer than this version's struct: missing fields read as 0, extra
 * bytes are skipped) and then the record's strings, each a uint32 byte count followed by
 * the bytes (no terminator), in the order the struct's comment gives. The first frame is
 * a Hello. All integers are little-endian (the agent and the viewer run on one machine).
 * Times are CUPTI timestamps: Unix-epoch nanoseconds (CLOCK_REALTIME, see CUPTI's
 * cuptiActivityRegisterTimestampCallback documentation).
 *
 * The viewer may send control frames back on the same socket (ControlRecord, framed the
 * same way; read by control_decoder.h): Stop ends the capture window inside the agent, which
 * flushes, disables activity collection and answers with a Window frame; Start re-enables
 * it. The target keeps running either way.
 *
 * The enum values copied from CUPTI (copy kinds, memory kinds, synchronization types,
 * marker flags, memory operations) keep CUPTI's numbers from cupti_activity.h, so the
 * agent passes them on unchanged.
 */
#ifndef TRACESCOPE_AGENT_RECORDS_H
#define TRACESCOPE_AGENT_RECORDS_H

#include <stdint.h>

#ifdef __cplusplus
namespace tracescope::agent {
#endif

#define TS_AGENT_MAGIC 0x50435354u /* "TSCP" in a little-endian uint32 */
#define TS_AGENT_FORMAT_VERSION 1u
#define TS_AGENT_MAX_FRAME (1u << 20) /* no frame is larger; the decoder refuses larger ones */

/* Environment of the injected agent (set by the launcher). */
#define TS_AGENT_ENV_SOCKET "TRACESCOPE_AGENT_SOCKET"     /* Unix socket path of the viewer */
#define TS_AGENT_ENV_FALLBACK "TRACESCOPE_AGENT_FALLBACK" /* folder for <host>.<pid>.tscupti */
#define TS_AGENT_ENV_KINDS "TRACESCOPE_AGENT_KINDS"       /* comma list: kernel,memcpy,... */
#define TS_AGENT_ENV_FLUSH_MS "TRACESCOPE_AGENT_FLUSH_MS" /* flush period, 100-250 (default 200) */
#define TS_AGENT_ENV_BUDGET "TRACESCOPE_AGENT_BUDGET_MB"  /* pending-bytes budget (default 64) */
#define TS_AGENT_ENV_THREADS "TRACESCOPE_AGENT_MAX_THREADS" /* thread names sent (default 4096) */
#define TS_AGENT_FALLBACK_SUFFIX ".tscupti"

typedef struct FrameHeader {
    uint32_t length;    /* payload bytes after this header */
    uint16_t type;      /* RecordType */
    uint16_t fixedSize; /* bytes of the fixed part at the start of the payload */
} FrameHeader;

enum RecordType {
    kRecHello = 1,
    kRecBye = 2,
    kRecStatus = 3, /* an error or note from the agent (CUPTI failures, another profiler) */
    kRecDropped = 4,
    kRecDevice = 5,
    kRecKernel = 10,
    kRecMemcpy = 11,
    kRecMemset = 12,
    kRecApi = 13,
    kRecSync = 14,
    kRecMarker = 15,
    kRecMarkerData = 16,
    kRecMemory = 17,
    kRecOverhead = 18,
    kRecWindow = 19,     /* the agent's answer to a control frame */
    kRecThreadName = 20,
    kRecCudaEvent = 21,
    kRecStream = 22,
    kRecTypeCount = 23,
    kRecControl = 64     /* viewer -> agent only */
};

/* Viewer -> agent. No strings. */
enum ControlCommand { kControlStop = 1, kControlStart = 2 };
typedef struct ControlRecord {
    uint32_t command; /* ControlCommand */
    uint32_t pad;
    int64_t timestampNs; /* when the viewer asked (its CLOCK_REALTIME) */
} ControlRecord;

/* Agent -> viewer, after a control frame was carried out: every record before it belongs to
 * the closing window. No strings. */
enum WindowState { kWindowStopped = 1, kWindowStarted = 2 };
typedef struct WindowRecord {
    uint32_t state;       /* WindowState */
    uint32_t pad;
    int64_t timestampNs;  /* when collection was disabled / enabled */
    uint64_t recordsSent; /* records the agent had emitted by then (as ByeRecord counts them) */
} WindowRecord;

/* Strings: the thread's name (/proc/self/task/<tid>/comm, at most 15 bytes). */
typedef struct ThreadNameRecord {
    int64_t threadId; /* OS thread id, as ApiRecord.threadId */
} ThreadNameRecord;

/* Strings: hostname, executable path, command line (arguments joined by spaces). */
typedef struct HelloRecord {
    uint32_t magic; /* TS_AGENT_MAGIC */
    uint32_t formatVersion;
    int64_t pid;
    int64_t ppid;
    uint32_t cuptiVersion;      /* cuptiGetVersion() */
    uint32_t cuptiBuildVersion; /* CUPTI_API_VERSION the agent was built with */
    int32_t driverVersion;      /* cuDriverGetVersion(), 0 when unknown */
    uint32_t kinds;             /* KindMask bits enabled */
    int64_t startNs;            /* cuptiGetTimestamp() at injection */
} HelloRecord;

enum KindMask {
    kKindKernel = 1u << 0,
    kKindMemcpy = 1u << 1,
    kKindMemset = 1u << 2,
    kKindRuntime = 1u << 3,
    kKindDriver = 1u << 4,
    kKindSync = 1u << 5,
    kKindNvtx = 1u << 6,
    kKindMemory = 1u << 7,
    kKindOverhead = 1u << 8,
    kKindAll = (1u << 9) - 1
};

/* No strings. Sent at exit (atexit) after the last flush. */
typedef struct ByeRecord {
    int64_t endNs;
    uint64_t recordsSent;   /* records of all kinds the agent emitted, this one excluded */
    uint64_t droppedTotal;  /* sum of all Dropped records */
} ByeRecord;

enum StatusCode {
    kStatusNote = 0,
    kStatusCuptiError = 1,         /* a CUPTI call failed (code = CUptiResult) */
    kStatusOtherProfiler = 2,      /* CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: passive */
    kStatusVersionMismatch = 3,    /* the loaded libcupti is not the one we were built for */
    kStatusDriverTooOld = 4,       /* driverVersion older than CUDA 13 */
    kStatusCuptiUnavailable = 5    /* libcupti could not be used at all */
};

/* Strings: message, detail (e.g. the other subscriber's name). */
typedef struct StatusRecord {
    uint32_t code;       /* StatusCode */
    int32_t cuptiResult; /* the CUptiResult involved, 0 when none */
    int64_t timestampNs;
} StatusRecord;

enum DropReason {
    kDropCupti = 1,  /* cuptiActivityGetNumDroppedRecords: CUPTI ran out of buffers */
    kDropBudget = 2, /* the agent's pending-bytes budget was full (viewer too slow) */
    kDropIncomplete = 3 /* records CUPTI could not complete */
};

/* No strings. */
typedef struct DroppedRecord {
    uint32_t reason; /* DropReason */
    uint32_t pad;
    uint64_t count;
    int64_t timestampNs;
} DroppedRecord;

/* Strings: device name. Sizes in bytes, bandwidth in bytes/s, clock in kHz. */
typedef struct DeviceRecord {
    uint32_t id;
    uint32_t computeCapabilityMajor;
    uint32_t computeCapabilityMinor;
    uint32_t numMultiprocessors;
    uint64_t globalMemorySize;
    uint64_t globalMemoryBandwidth; /* bytes/s (CUPTI gives kB/s; the agent multiplies) */
    uint32_t coreClockRateKhz;
    uint32_t l2CacheSize;
    uint32_t maxThreadsPerBlock;
    uint32_t maxSharedMemoryPerBlock;
    uint32_t maxRegistersPerBlock;
    uint32_t numThreadsPerWarp;
} DeviceRecord;

/* Strings: kernel name as CUPTI gives it (mangled; the viewer demangles). */
typedef struct KernelRecord {
    int64_t startNs;
    int64_t endNs;
    uint32_t correlationId;
    uint32_t deviceId;
    uint32_t contextId;
    uint32_t streamId;
    int32_t gridX, gridY, gridZ;
    int32_t blockX, blockY, blockZ;
    int32_t staticSharedMemory;
    int32_t dynamicSharedMemory;
    uint32_t registersPerThread;
    uint32_t graphId;
    uint64_t graphNodeId;
    int64_t gridId;
    uint64_t localMemoryTotal;
    uint32_t launchType;
    uint32_t isDeviceLaunched;
} KernelRecord;

enum MemcpyFlags { kMemcpyAsync = 1u, kMemcpyPeer = 2u };

/* No strings. copyKind/srcKind/dstKind are CUPTI's CUpti_ActivityMemcpyKind / CUpti_ActivityMemoryKind. */
typedef struct MemcpyRecord {
    int64_t startNs;
    int64_t endNs;
    uint64_t bytes;
    uint32_t correlationId;
    uint32_t deviceId;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t srcDeviceId; /* peer copies only (else = deviceId) */
    uint32_t dstDeviceId;
    uint32_t graphId;
    uint32_t flags; /* MemcpyFlags */
    uint64_t graphNodeId;
    uint8_t copyKind;
    uint8_t srcKind;
    uint8_t dstKind;
    uint8_t pad[5];
} MemcpyRecord;

/* No strings. */
typedef struct MemsetRecord {
    int64_t startNs;
    int64_t endNs;
    uint64_t bytes;
    uint32_t correlationId;
    uint32_t deviceId;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t value;
    uint32_t memoryKind;
    uint32_t graphId;
    uint32_t flags; /* bit 0: async */
    uint64_t graphNodeId;
} MemsetRecord;

enum ApiDomain { kApiRuntime = 1, kApiDriver = 2 };

/* Strings: the API's name as cuptiGetCallbackName gives it (e.g. "cudaMalloc_v3020"). */
typedef struct ApiRecord {
    int64_t startNs;
    int64_t endNs;
    int64_t processId;
    int64_t threadId; /* OS thread id (cuptiSetThreadIdType SYSTEM) */
    uint32_t correlationId;
    uint32_t cbid;
    uint32_t domain; /* ApiDomain */
    int32_t returnValue;
} ApiRecord;

/* No strings. type is CUPTI's CUpti_ActivitySynchronizationType (1 event sync, 2 stream
 * wait event, 3 stream sync, 4 context sync). The thread comes from the API record with the
 * same correlation id. */
typedef struct SyncRecord {
    int64_t startNs;
    int64_t endNs;
    uint32_t correlationId;
    uint32_t type;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t cudaEventId;
    uint32_t pad;
} SyncRecord;

/* No strings. A cudaEventRecord as executed on its stream (CUpti_ActivityCudaEvent2);
 * deviceTimestampNs is 0 when CUPTI gave none. */
typedef struct CudaEventRecord {
    int64_t deviceTimestampNs;
    uint32_t correlationId;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t eventId; /* as SyncRecord.cudaEventId */
    uint32_t deviceId;
    uint32_t pad;
    uint64_t cudaEventSyncId;
} CudaEventRecord;

/* No strings. A stream's creation (CUpti_ActivityStream); flag is CUPTI's
 * CUpti_ActivityStreamFlag (1 default, 2 non-blocking, 3 the NULL stream). */
typedef struct StreamRecord {
    uint32_t contextId;
    uint32_t streamId;
    int32_t priority;
    uint32_t flag;
    uint32_t correlationId;
    uint32_t pad;
} StreamRecord;

/* Strings: name (empty on END), domain (empty = default domain).
 * flags are CUPTI's CUpti_ActivityFlag marker bits: 1 instantaneous, 2 start, 4 end. */
typedef struct MarkerRecord {
    int64_t timestampNs;
    int64_t processId;
    int64_t threadId;
    uint32_t id;
    uint32_t flags;
    uint32_t objectKind;
    uint32_t pad;
} MarkerRecord;

/* No strings. The NVTX payload of the marker with the same id. */
typedef struct MarkerDataRecord {
    uint32_t id;
    uint32_t payloadKind; /* 0 none, 1 uint64, 2 int64, 3 double, 4 uint32, 5 int32, 6 float */
    uint64_t payload;     /* the payload's bits */
    uint32_t color;       /* ARGB */
    uint32_t category;
} MarkerDataRecord;

/* Strings: name (symbol of a static allocation, may be empty).
 * memoryOperationType: 1 allocation, 2 release (CUpti_ActivityMemoryOperationType).
 * memoryKind: CUpti_ActivityMemoryKind. poolType: 0 none, 1 local, 2 imported. */
typedef struct MemoryRecord {
    int64_t timestampNs;
    uint64_t address;
    uint64_t bytes;
    int64_t processId;
    uint64_t poolAddress;
    uint32_t correlationId;
    uint32_t deviceId;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t memoryOperationType;
    uint32_t memoryKind;
    uint32_t isAsync;
    uint32_t poolType;
} MemoryRecord;

/* No strings. overheadKind is CUPTI's CUpti_ActivityOverheadKind. */
typedef struct OverheadRecord {
    int64_t startNs;
    int64_t endNs;
    int64_t threadId;
    uint32_t overheadKind;
    uint32_t correlationId;
} OverheadRecord;

#ifdef __cplusplus
static_assert(sizeof(FrameHeader) == 8);
static_assert(sizeof(HelloRecord) == 48);
static_assert(sizeof(KernelRecord) == 104);
static_assert(sizeof(MemcpyRecord) == 72);
static_assert(sizeof(MemoryRecord) == 72);
static_assert(sizeof(ControlRecord) == 16);
static_assert(sizeof(WindowRecord) == 24);
static_assert(sizeof(CudaEventRecord) == 40);
static_assert(sizeof(StreamRecord) == 24);
}  // namespace tracescope::agent
#endif

#endif /* TRACESCOPE_AGENT_RECORDS_H */
