#include "model/import/xspace_importer.h"

#include "model/import/mapped_file.h"
#include "model/import/memory_budget.h"
#include "model/import/xspace_layout.h"
#include "model/import/xspace_parse_pipeline.h"
#include "model/import/xspace_stats.h"
#include "model/import/xspace_tracks.h"
#include "model/proto/protobuf_wire.h"
#include "model/trace/trace_builder.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>

namespace tracescope {

using namespace xspace;
namespace pb = tensorflow::profiler;

namespace {

// The id and name of an event_metadata map entry (`entry`: the whole field) read from its wire
// bytes without its stats: what is known of an XLA program whose HLO is too large to parse.
XlaProgramBlob unreadProgram(const uint8_t* entry, size_t size) {
    XlaProgramBlob p;
    wire::Reader field(entry, size);
    wire::Field f;
    if (!field.next(f) || f.type != wire::LengthDelimited) return p;
    wire::Reader mapEntry(f.data, f.size);
    while (mapEntry.next(f)) {
        if (f.number == 1 && f.type == wire::Varint && p.programId == 0) p.programId = f.asInt64();
        if (f.number != 2 || f.type != wire::LengthDelimited) continue;
        wire::Reader metadata(f.data, f.size);  // XEventMetadata: id = 1, name = 2
        while (metadata.next(f)) {
            if (f.number == 1 && f.type == wire::Varint && f.value != 0) p.programId = f.asInt64();
            else if (f.number == 2 && f.type == wire::LengthDelimited) p.name = std::string(f.text());
        }
    }
    return p;
}

// ps -> ns, rounded to nearest (halves up), exact for negative values too.
int64_t psToNs(int64_t ps) {
    int64_t q = ps / 1000, r = ps % 1000;
    if (r < 0) {
        r += 1000;
        --q;
    }
    return r >= 500 ? q + 1 : q;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// One XSpace being imported.
struct Source {
    std::string host;
    MappedFile file;
    const uint8_t* data = nullptr;
    size_t size = 0;
    XSpaceLayout layout;
    std::optional<int64_t> startUnixNs;  // Task Environment profile_start_time
    int64_t shiftNs = 0;                 // added to every time to align hosts
};

// What a flow end needs: a slice by provisional id.
using End = TraceBuilder::FlowEnd;

struct ProducerConsumer {
    std::vector<End> producers;
    std::vector<End> consumers;
};

// Converts parsed pieces into the TraceBuilder, in file order.
class Converter {
public:
    Converter(TraceBuilder& b, bool multiHost) : b_(b), multiHost_(multiHost) {
        longNameKey_ = b_.intern("long_name");
        launchName_ = b_.intern("launch");
        contextCategory_ = b_.intern("producer_consumer");
        for (auto c : {category::kKernel, category::kMemcpy, category::kMemset, category::kGpuMemory,
                       category::kXlaModule, category::kXlaOp, category::kStep, category::kTfOp, category::kNameScope,
                       category::kSource, category::kLaunchStats, category::kDevice, category::kHost,
                       category::kPython, category::kMemory, category::kCudaRuntime, category::kCudaDriver,
                       category::kOther})
            categories_.emplace(c, b_.intern(c));
        kernelCategory_ = cat(category::kKernel);
        memcpyCategory_ = cat(category::kMemcpy);
        memsetCategory_ = cat(category::kMemset);
        gpuMemoryCategory_ = cat(category::kGpuMemory);
    }

    void beginSource(Source& s, uint32_t hostIndex) {
        source_ = &s;
        hostIndex_ = hostIndex;
        hostPlaneOrdinal_ = 0;
        otherPlaneOrdinal_ = 0;
        deviceEnds_.clear();
        launches_.clear();
        contexts_.clear();
    }

    void beginPlane(const XPlaneLayout& layout, const pb::XPlane& meta) {
        plane_ = &layout;
        kind_ = classifyPlane(layout.name);
        tables_.build(meta, b_.strings());
        process_ = kNoIndex;
        lines_.assign(layout.lines.size(), LineState{});
        rowTracks_.clear();
        rowSizes_.clear();
        counterTracks_.clear();
        if (kind_ == PlaneKind::Metadata) {
            readMetadataPlane(meta);
            return;
        }
        processName_ = multiHost_ ? source_->host + ": " + std::string(layout.name) : std::string(layout.name);
        pid_ = int64_t(hostIndex_) * 10000 +
               xprofPid(layout.name, layout.id, kind_ == PlaneKind::Host ? hostPlaneOrdinal_ : otherPlaneOrdinal_);
        if (kind_ == PlaneKind::Host) ++hostPlaneOrdinal_;
        if (kind_ == PlaneKind::Other) ++otherPlaneOrdinal_;
        if (kind_ == PlaneKind::Device) {
            for (const DecodedStat& s : tables_.planeStats())
                b_.addMetadata("device." + processName_ + "." + std::string(b_.strings().get(s.arg.key)), text(s.arg.value));
        }
        // Host threads are ordered by name, as XProf's capture sorts them.
        std::vector<uint32_t> order(layout.lines.size());
        for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t c) {
            return displayName(layout.lines[a]) < displayName(layout.lines[c]);
        });
        for (uint32_t rank = 0; rank < order.size(); ++rank) lines_[order[rank]].nameRank = rank;
        // Sizes known from the outline, to size each track's columns once (growing them
        // event by event costs more than filling them).
        for (const XLineLayout& l : layout.lines) {
            RowSize& r = rowSizes_[rowOf(l)];
            r.events += l.eventCount;
            for (const ByteRange& c : l.eventChunks) r.wireBytes += c.size();
        }
    }

    // The first `keep` events of the run.
    void convertEvents(uint32_t lineIndex, const pb::XLine& events, uint32_t keep) {
        const XLineLayout& line = plane_->lines[lineIndex];
        LineState& ls = lines_[lineIndex];
        if (!ls.ready) prepareLine(line, ls);
        if (ls.kind == LineKind::SkippedCounters) return;
        const int n = int(std::min<uint64_t>(keep, uint64_t(events.events_size())));
        for (int k = 0; k < n; ++k) convertEvent(line, ls, events.events(k));
    }

    // A preview leaves the XLA programs out: its trace is replaced by the whole one.
    void skipXlaPrograms() { skipXlaPrograms_ = true; }

    void endPlane() { plane_ = nullptr; }

    // Flows within one XSpace (correlation ids and context ids are per process).
    void endSource() {
        linkLaunches();
        for (auto& [key, pc] : contexts_) {
            if (pc.producers.empty() || pc.consumers.empty()) continue;
            // As XProf: a context id shared by many producers and many consumers is not a real link.
            if (pc.producers.size() >= 64 && pc.consumers.size() >= 64) continue;
            const StringId name = b_.intern(contextTypeName(key.first));
            for (const End& p : pc.producers)
                for (const End& c : pc.consumers)
                    if (!(p.track == c.track && p.slice == c.slice))
                        b_.addFlow(p, c, name, contextCategory_, nextFlowId_++);
        }
        deviceEnds_.clear();
        launches_.clear();
        contexts_.clear();
        source_ = nullptr;
    }

    uint64_t aggregatedEvents() const { return aggregated_; }

private:
    // Host API call -> device activity with the same correlation id. One launch may feed many
    // device events (a CUDA graph); when an id repeats on the host (ids reused, several
    // contexts), each device event goes to the latest launch that started before it.
    void linkLaunches() {
        std::sort(launches_.begin(), launches_.end(), [](const Launch& a, const Launch& b) {
            return a.correlationId != b.correlationId ? a.correlationId < b.correlationId : a.start < b.start;
        });
        for (size_t i = 0; i < launches_.size();) {
            size_t j = i;
            while (j < launches_.size() && launches_[j].correlationId == launches_[i].correlationId) ++j;
            auto it = deviceEnds_.find(launches_[i].correlationId);
            if (it != deviceEnds_.end()) {
                for (const DeviceEnd& d : it->second) {
                    // The last launch of the id that started at or before the device event
                    // (else the first): a binary search, since one id may repeat a million times.
                    const auto later = std::upper_bound(launches_.begin() + i, launches_.begin() + j, d.start,
                                                        [](int64_t t, const Launch& l) { return t < l.start; });
                    const size_t k = later == launches_.begin() + i ? i : size_t(later - launches_.begin()) - 1;
                    b_.addFlow(launches_[k].end, d.end, launchName_, launchName_, nextFlowId_++);
                }
            }
            i = j;
        }
    }

private:
    struct LineState {
        bool ready = false;
        LineKind kind = LineKind::Other;
        TrackIndex track = kNoIndex;
        StringId category = kEmptyString;  // fixed category, or empty when decided per event
        uint32_t nameRank = 0;
    };
    struct Launch {
        End end;
        uint64_t correlationId;
        int64_t start;
    };
    struct DeviceEnd {
        End end;
        int64_t start;
    };

    TraceBuilder& b_;
    bool multiHost_;
    bool skipXlaPrograms_ = false;
    Source* source_ = nullptr;
    uint32_t hostIndex_ = 0;
    int hostPlaneOrdinal_ = 0;
    int otherPlaneOrdinal_ = 0;
    const XPlaneLayout* plane_ = nullptr;
    PlaneKind kind_ = PlaneKind::Other;
    PlaneTables tables_;
    ProcessIndex process_ = kNoIndex;
    std::string processName_;
    int64_t pid_ = 0;
    std::vector<LineState> lines_;
    std::map<int64_t, TrackIndex> rowTracks_;  // display row id -> track (lines sharing a row share a track)
    struct RowSize {
        size_t events = 0;
        size_t wireBytes = 0;
    };
    std::unordered_map<int64_t, RowSize> rowSizes_;
    std::unordered_map<StringId, TrackIndex> counterTracks_;
    std::unordered_map<std::string_view, StringId> categories_;
    StringId longNameKey_, launchName_, contextCategory_;
    StringId kernelCategory_, memcpyCategory_, memsetCategory_, gpuMemoryCategory_;
    ArgsWriter args_;

    std::unordered_map<uint64_t, std::vector<DeviceEnd>> deviceEnds_;  // correlation id -> device slices
    std::vector<Launch> launches_;
    std::map<std::pair<uint64_t, uint64_t>, ProducerConsumer> contexts_;
    uint64_t nextFlowId_ = 1;
    uint64_t aggregated_ = 0;

    static std::string_view displayName(const XLineLayout& l) { return l.displayName.empty() ? l.name : l.displayName; }
    static int64_t rowOf(const XLineLayout& l) { return l.displayId != 0 ? l.displayId : l.id; }
    std::string text(const ArgValue& v) const { return v.toString(b_.strings()); }
    StringId cat(std::string_view c) const { return categories_.at(c); }

    // /host:metadata (framework versions, XLA programs) and Task Environment (profile
    // start/stop times) give trace metadata only.
    void readMetadataPlane(const pb::XPlane& meta) {
        const std::string prefix = multiHost_ ? source_->host + "." : "";
        for (const DecodedStat& s : tables_.planeStats()) {
            const std::string key(b_.strings().get(s.arg.key));
            if (!key.empty()) b_.addMetadata(prefix + key, text(s.arg.value));
        }
        // Each event metadata of /host:metadata describes one XLA program (with its HLO proto).
        if (plane_->name == "/host:metadata" && !skipXlaPrograms_) {
            b_.addMetadata(prefix + "xla.programs", std::to_string(tables_.eventTypeCount()));
            readXlaPrograms(meta);
        }
    }

    // XProf's hlo_proto_map: the program id is the metadata's id unless a program_id stat says
    // otherwise; the stat hlo_proto ("Hlo Proto" in recent profilers) holds the serialized xla.HloProto.
    void readXlaPrograms(const pb::XPlane& meta) {
        std::vector<XlaProgramBlob> programs;
        auto take = [&](int64_t id, pb::XEventMetadata& md) {
            XlaProgramBlob p;
            p.host = source_->host;  // as the processes of this XSpace
            p.programId = md.id() != 0 ? md.id() : id;
            p.name = md.name();
            for (pb::XStat& stat : *md.mutable_stats()) {
                const auto it = meta.stat_metadata().find(stat.metadata_id());
                if (it == meta.stat_metadata().end()) continue;
                if ((it->second.name() == "hlo_proto" || it->second.name() == "Hlo Proto") && stat.value_case() == pb::XStat::kBytesValue)
                    p.hloProto = std::move(*stat.mutable_bytes_value());
                else if (it->second.name() == "program_id" && stat.value_case() == pb::XStat::kInt64Value)
                    p.programId = stat.int64_value();
                else if (it->second.name() == "program_id" && stat.value_case() == pb::XStat::kUint64Value)
                    p.programId = int64_t(stat.uint64_value());
            }
            if (!p.hloProto.empty()) programs.push_back(std::move(p));
        };
        for (const auto& [id, md] : meta.event_metadata()) {
            pb::XEventMetadata copy = md;  // the plane's parse is read-only: one copy of the HLO, as ever
            take(id, copy);
        }
        // Large programs, one at a time (xspace_layout.h); one protobuf cannot read is named.
        for (const ByteRange& range : plane_->largeEventMetadata) {
            WorkItem item;
            item.data = source_->data;
            const std::vector<ByteRange> fields{range};
            item.metadataFields = &fields;
            ParsedPiece piece;
            parsePiece(item, piece);
            if (piece.ok) {
                for (auto& [id, md] : *piece.plane->mutable_event_metadata()) take(id, md);
                continue;
            }
            XlaProgramBlob p = unreadProgram(source_->data + range.begin, range.size());
            p.host = source_->host;
            p.problem = "its HLO (" + formatBytes(range.size()) +
                        (range.size() > size_t(INT_MAX) ? ") is larger than protobuf reads (2 GiB): not read"
                                                        : ") could not be decoded");
            programs.push_back(std::move(p));
        }
        // The map's order is unspecified: keep the programs in id order.
        std::sort(programs.begin(), programs.end(),
                  [](const XlaProgramBlob& a, const XlaProgramBlob& b) { return a.programId < b.programId; });
        for (XlaProgramBlob& p : programs) b_.addXlaProgram(std::move(p));
    }

    void ensureProcess() {
        if (process_ != kNoIndex) return;
        const ProcessKind pk = kind_ == PlaneKind::Device ? ProcessKind::Device
                               : kind_ == PlaneKind::Host ? ProcessKind::Host
                                                          : ProcessKind::Other;
        process_ = b_.addProcess(pk, pid_, processName_);
        Process& p = b_.process(process_);
        p.host = source_->host;
        p.sortIndex = pid_;
        for (const DecodedStat& s : tables_.planeStats())
            p.properties.emplace_back(std::string(b_.strings().get(s.arg.key)), text(s.arg.value));
    }

    void prepareLine(const XLineLayout& line, LineState& ls) {
        ls.ready = true;
        ls.kind = classifyLine(kind_, line.name, line.id);
        switch (ls.kind) {
        case LineKind::XlaModules: ls.category = cat(category::kXlaModule); break;
        case LineKind::XlaOps: ls.category = cat(category::kXlaOp); break;
        case LineKind::Steps: ls.category = cat(category::kStep); break;
        case LineKind::FrameworkOps: ls.category = cat(category::kTfOp); break;
        case LineKind::NameScope: ls.category = cat(category::kNameScope); break;
        case LineKind::Source: ls.category = cat(category::kSource); break;
        case LineKind::LaunchStats: ls.category = cat(category::kLaunchStats); break;
        case LineKind::OtherDerived: ls.category = cat(category::kDevice); break;
        case LineKind::Other: ls.category = cat(category::kOther); break;
        default: break;  // streams, host threads: per event
        }
        if (ls.kind == LineKind::Stream && !startsWith(plane_->name, "/device:GPU:")) {
            // TPU / custom device lines: no CUPTI activity kinds to tell apart.
            ls.category = cat(category::kDevice);
        }
    }

    TrackIndex trackFor(const XLineLayout& line, LineState& ls) {
        if (ls.track != kNoIndex) return ls.track;
        ensureProcess();
        const int64_t row = rowOf(line);
        auto it = rowTracks_.find(row);
        if (it != rowTracks_.end()) return ls.track = it->second;
        const TrackIndex t = b_.addTrack(process_, TrackKind::Thread, std::string(displayName(line)), row);
        Track& tr = b_.track(t);
        // Most events are slices; instants (memory events, markers) grow as needed. Encoded
        // args take well under the events' wire size.
        const RowSize& size = rowSizes_[row];
        SliceColumns& c = tr.slices;
        c.start.reserve(size.events);
        c.duration.reserve(size.events);
        c.name.reserve(size.events);
        c.category.reserve(size.events);
        c.args.reserve(size.events);
        c.depthAndFlags.reserve(size.events);
        tr.argBlob.reserve(size.wireBytes / 2);
        if (kind_ == PlaneKind::Device) tr.sortIndex = deviceLineSortIndex(ls.kind);
        else tr.sortIndex = ls.nameRank;
        rowTracks_.emplace(row, t);
        return ls.track = t;
    }

    TrackIndex counterTrack(StringId name) {
        auto it = counterTracks_.find(name);
        if (it != counterTracks_.end()) return it->second;
        ensureProcess();
        const TrackIndex t = b_.addTrack(process_, TrackKind::Counter, std::string(b_.strings().get(name)), 0);
        counterTracks_.emplace(name, t);
        return t;
    }

    struct Roles {
        bool hasCorrelation = false;
        uint64_t correlation = 0;
        bool hasProducer = false, hasConsumer = false;
        uint64_t producerType = 0, producerId = 0, consumerType = 0, consumerId = 0;
        bool producerTypeSet = false, consumerTypeSet = false;
        bool kernel = false, memcpy = false, memset = false, memalloc = false;
        StringId stepName = kEmptyString;
    };

    static void note(const DecodedStat& s, Roles& r) {
        switch (s.role) {
        case StatRole::None: break;
        case StatRole::CorrelationId:
            if (s.hasInteger) {
                r.hasCorrelation = true;
                r.correlation = s.integer;
            }
            break;
        case StatRole::ProducerType:
            if (s.hasInteger) { r.producerType = s.integer; r.producerTypeSet = true; }
            break;
        case StatRole::ProducerId:
            if (s.hasInteger) { r.producerId = s.integer; r.hasProducer = true; }
            break;
        case StatRole::ConsumerType:
            if (s.hasInteger) { r.consumerType = s.integer; r.consumerTypeSet = true; }
            break;
        case StatRole::ConsumerId:
            if (s.hasInteger) { r.consumerId = s.integer; r.hasConsumer = true; }
            break;
        case StatRole::KernelDetails: r.kernel = true; break;
        case StatRole::MemcpyDetails: r.memcpy = true; break;
        case StatRole::MemsetDetails: r.memset = true; break;
        case StatRole::MemallocDetails: r.memalloc = true; break;
        case StatRole::StepName:
            if (s.arg.value.type == ArgValue::Type::String) r.stepName = s.arg.value.s;
            break;
        }
    }

    StringId streamCategory(const EventType& t, const Roles& r) const {
        if (r.kernel) return kernelCategory_;
        if (r.memcpy || startsWith(t.fullName, "Memcpy")) return memcpyCategory_;
        if (r.memset || startsWith(t.fullName, "Memset")) return memsetCategory_;
        if (r.memalloc) return gpuMemoryCategory_;
        return kernelCategory_;
    }

    // Host categories depend only on the event type and whether it has a correlation id,
    // so they are worked out once per type.
    StringId hostCategory(const EventType& t, bool hasCorrelation) {
        StringId& cached = t.categoryCache[hasCorrelation ? 1 : 0];
        if (cached == kEmptyString) cached = cat(hostEventCategory(t.fullName, hasCorrelation));
        return cached;
    }

    void convertEvent(const XLineLayout& line, LineState& ls, const pb::XEvent& e) {
        if (e.data_case() == pb::XEvent::kNumOccurrences) {
            ++aggregated_;  // aggregated counts carry no time: counted, not drawn
            return;
        }
        const EventType* type = tables_.event(e.metadata_id());
        if (!type) type = &tables_.unknownEvent(e.metadata_id(), b_.strings());

        Roles roles;
        args_.clear();
        // Metadata stats first, then the event's own (as XProf lists them).
        for (const DecodedStat& s : type->stats) {
            args_.add(s.arg.key, s.arg.value);
            note(s, roles);
        }
        for (const pb::XStat& st : e.stats()) {
            const DecodedStat s = tables_.decode(st, b_.strings());
            args_.add(s.arg.key, s.arg.value);
            note(s, roles);
        }
        StringId name = type->name;
        if (type->longName != kEmptyString) args_.add(longNameKey_, ArgValue::string(type->longName));
        if (roles.stepName != kEmptyString) {
            if (type->longName == kEmptyString) args_.add(longNameKey_, ArgValue::string(type->name));
            name = roles.stepName;
        }

        // Start and end are each rounded to ns (rather than start and duration), so an event
        // nested in another in ps stays nested in ns.
        const int64_t base = plusSat(line.timestampNs, source_->shiftNs);
        const int64_t start = plusSat(base, psToNs(e.offset_ps()));
        const int64_t durationPs = e.duration_ps();

        if (ls.kind == LineKind::Counters) {
            // A counter sample: the value is the stat named like the counter, else the first number.
            double value = 0;
            bool found = false;
            for (const pb::XStat& st : e.stats()) {
                const DecodedStat s = tables_.decode(st, b_.strings());
                if (!s.arg.value.isNumber()) continue;
                if (!found || s.arg.key == type->name) value = s.arg.value.toDouble();
                found = true;
            }
            if (found) b_.addCounterSample(counterTrack(type->name), start, value);
            return;
        }

        StringId category = ls.category;
        if (category == kEmptyString) {
            if (ls.kind == LineKind::Stream) category = streamCategory(*type, roles);
            else category = hostCategory(*type, roles.hasCorrelation);
        }
        const TrackIndex t = trackFor(line, ls);
        if (durationPs <= 0) {
            b_.addInstant(t, start, name, category, args_);
            return;
        }
        const int64_t endNs = plusSat(base, psToNs(plusSat(e.offset_ps(), durationPs)));
        const uint32_t id = b_.addSlice(t, start, durationBetween(start, endNs), name, category, args_);
        const End end = End::ofSlice(t, id);
        if (roles.hasCorrelation) {
            if (ls.kind == LineKind::Stream) deviceEnds_[roles.correlation].push_back({end, start});
            else if (kind_ == PlaneKind::Host) launches_.push_back({end, roles.correlation, start});
        }
        if (roles.hasProducer && roles.producerTypeSet)
            contexts_[{roles.producerType, roles.producerId}].producers.push_back(end);
        if (roles.hasConsumer && roles.consumerTypeSet)
            contexts_[{roles.consumerType, roles.consumerId}].consumers.push_back(end);
    }
};

// Reads `profile_start_time` from a source's Task Environment plane (parsed up front:
// it usually comes last in the file but every time needs it).
std::optional<int64_t> profileStartTime(const Source& s) {
    for (uint32_t p = 0; p < s.layout.planes.size(); ++p) {
        const XPlaneLayout& plane = s.layout.planes[p];
        if (plane.name != "Task Environment") continue;
        WorkItem item;
        item.data = s.data;
        item.plane = p;
        item.metadataFields = &plane.metadataFields;
        ParsedPiece piece;
        parsePiece(item, piece);
        if (!piece.ok) return std::nullopt;
        int64_t statId = 0;
        bool found = false;
        for (const auto& [id, md] : piece.plane->stat_metadata())
            if (md.name() == "profile_start_time") {
                statId = id;
                found = true;
            }
        if (!found) return std::nullopt;
        for (const pb::XStat& st : piece.plane->stats()) {
            if (st.metadata_id() != statId) continue;
            if (st.value_case() == pb::XStat::kUint64Value) return int64_t(st.uint64_value());
            if (st.value_case() == pb::XStat::kInt64Value) return st.int64_value();
        }
    }
    return std::nullopt;
}

}  // namespace

std::string xspaceHostFromFileName(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    static constexpr std::string_view kSuffix = ".xplane.pb";
    if (name.size() > kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        return name.substr(0, name.size() - kSuffix.size());
    return {};
}

ImportResult importXSpaces(const std::vector<XSpaceSource>& inputs, const ImportOptions& options) {
    if (inputs.empty()) return ImportResult::failure("no XSpace to import");
    TraceBuilder builder("xspace");
    const bool multiHost = inputs.size() > 1;

    // 1. Map and outline every XSpace.
    std::vector<std::unique_ptr<Source>> sources;
    uint64_t totalBytes = 0;
    for (const XSpaceSource& in : inputs) {
        auto s = std::make_unique<Source>();
        s->host = in.host;
        std::string error;
        const std::string what = in.path.empty() ? (in.host.empty() ? "XSpace" : in.host) : in.path;
        if (in.bytes.empty() && !in.path.empty()) {
            if (!s->file.open(in.path, &error)) {
                if (!multiHost) return ImportResult::failure(error);
                builder.addWarning(ImportWarning::corrupted(std::nullopt, error + " (host skipped)"));
                continue;
            }
            s->data = s->file.data();
            s->size = s->file.size();
        } else {
            s->data = reinterpret_cast<const uint8_t*>(in.bytes.data());
            s->size = in.bytes.size();
        }
        if (s->size == 0) error = "empty file";
        else scanXSpace(s->data, s->size, s->layout, &error, kRunBytes);
        if (error.empty() && s->layout.planes.empty()) error = "the XSpace has no planes";
        if (!error.empty()) {
            if (!multiHost) return ImportResult::failure(what + ": " + error);
            builder.addWarning(ImportWarning::corrupted(std::nullopt, what + ": " + error + " (host skipped)"));
            continue;
        }
        if (s->host.empty()) {
            s->host = !s->layout.hostnames.empty() ? std::string(s->layout.hostnames.front())
                                                   : xspaceHostFromFileName(in.path);
        }
        for (ImportWarning& p : s->layout.problems) {
            if (multiHost) p.detail = s->host + ": " + p.detail;
            builder.addWarning(std::move(p));
        }
        for (auto e : s->layout.errors) builder.addWarning(ImportWarning::profiler("profiler error: " + std::string(e)));
        for (auto w : s->layout.warnings)
            builder.addWarning(ImportWarning::profiler("profiler warning: " + std::string(w)));
        totalBytes += s->size;
        sources.push_back(std::move(s));
    }
    if (sources.empty()) return ImportResult::failure("none of the XSpaces could be read");
    if (options.cancelled()) return ImportResult::cancel();

    // 2. Align hosts on their profile start times (Unix ns).
    std::optional<int64_t> earliest;
    size_t withStart = 0;
    for (auto& s : sources) {
        s->startUnixNs = profileStartTime(*s);
        if (s->startUnixNs) {
            ++withStart;
            earliest = earliest ? std::min(*earliest, *s->startUnixNs) : *s->startUnixNs;
        }
    }
    if (earliest) {
        for (auto& s : sources)
            if (s->startUnixNs) s->shiftNs = durationBetween(*earliest, *s->startUnixNs);
        builder.setOriginUnixNs(*earliest);
        if (withStart != sources.size())
            builder.addWarning(ImportWarning::events(WarningKind::AdjustedEvents, sources.size() - withStart,
                                                     "host(s) have no profile start time: their clocks are not "
                                                     "aligned with the others"));
    }

    // 3. The pieces to parse, in conversion order. A preview (textLimit) takes the same share of
    // every line's events, the first in the file's order (profilers write a line's events in time order).
    double previewShare = 1;
    if (options.textLimit) {
        uint64_t eventBytes = 0;
        for (const auto& s : sources)
            for (const XPlaneLayout& plane : s->layout.planes)
                for (const XLineLayout& line : plane.lines)
                    for (const ByteRange& r : line.eventChunks) eventBytes += r.size();
        previewShare = eventBytes ? std::min(1.0, double(options.textLimit) / double(eventBytes)) : 1.0;
    }
    std::vector<WorkItem> items;
    for (uint32_t si = 0; si < sources.size(); ++si) {
        const Source& s = *sources[si];
        builder.addHost(s.host);
        for (uint32_t p = 0; p < s.layout.planes.size(); ++p) {
            const XPlaneLayout& plane = s.layout.planes[p];
            WorkItem meta;
            meta.data = s.data;
            meta.source = si;
            meta.plane = p;
            meta.metadataFields = &plane.metadataFields;
            items.push_back(meta);
            if (classifyPlane(plane.name) == PlaneKind::Metadata) continue;
            for (uint32_t l = 0; l < plane.lines.size(); ++l) {
                const XLineLayout& line = plane.lines[l];
                uint64_t left = uint64_t(std::ceil(previewShare * double(line.eventCount)));
                for (size_t c = 0; c < line.eventChunks.size() && left > 0; ++c) {
                    WorkItem run = meta;
                    run.line = int32_t(l);
                    run.range = line.eventChunks[c];
                    run.metadataFields = nullptr;
                    const uint32_t events = c < line.chunkEventCounts.size() ? line.chunkEventCounts[c] : UINT32_MAX;
                    if (left < events) run.keepEvents = uint32_t(left);
                    left -= std::min<uint64_t>(left, events);
                    items.push_back(run);
                }
            }
        }
    }

    // 4. Parse on workers, convert here, in order.
    Converter conv(builder, multiHost);
    if (options.textLimit) conv.skipXlaPrograms();
    // Small profiles are done before a second thread pays for itself.
    const unsigned workers = options.threads > 1 && totalBytes >= (16u << 20) ? options.threads - 1 : 0;
    ParsePipeline pipeline(items, workers, options.cancel);
    size_t metaItem = 0;
    bool planeOpen = false;
    int64_t currentSource = -1;
    uint64_t doneBytes = 0;
    size_t corruptRuns = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        if (options.cancelled()) return ImportResult::cancel();
        const WorkItem& it = items[i];
        if (int64_t(it.source) != currentSource) {
            if (planeOpen) {
                conv.endPlane();
                pipeline.release(metaItem);
                planeOpen = false;
            }
            if (currentSource >= 0) conv.endSource();
            currentSource = it.source;
            conv.beginSource(*sources[it.source], it.source);
        }
        Source& src = *sources[it.source];
        ParsedPiece& piece = pipeline.acquire(i);
        pipeline.advance(i + 1);
        if (it.line < 0) {
            if (planeOpen) {
                conv.endPlane();
                pipeline.release(metaItem);
            }
            const XPlaneLayout& plane = src.layout.planes[it.plane];
            if (!piece.ok) {
                builder.addWarning(ImportWarning::corrupted(
                    plane.metadataFields.empty() ? std::nullopt : std::optional<uint64_t>(plane.metadataFields.front().begin),
                    (multiHost ? src.host + ": " : "") + "plane " + std::string(plane.name) +
                        ": corrupt metadata; its events are shown without names"));
                piece.plane->Clear();
            }
            conv.beginPlane(plane, *piece.plane);
            metaItem = i;
            planeOpen = true;
        } else {
            if (piece.ok) conv.convertEvents(uint32_t(it.line), *piece.line, it.keepEvents);
            else ++corruptRuns;
            pipeline.release(i);
        }
        doneBytes += it.bytes();
        options.report(doneBytes, totalBytes);
    }
    if (planeOpen) {
        conv.endPlane();
        pipeline.release(metaItem);
    }
    if (currentSource >= 0) conv.endSource();
    if (corruptRuns)
        builder.addWarning(ImportWarning::corrupted(std::nullopt, "run(s) of events could not be decoded and were skipped",
                                                    corruptRuns));
    if (conv.aggregatedEvents()) {
        builder.addMetadata("xspace.aggregated_events", std::to_string(conv.aggregatedEvents()));
        builder.addWarning(ImportWarning::events(WarningKind::SkippedData, conv.aggregatedEvents(),
                                                 "aggregated event(s) (num_occurrences, no timestamp) counted but "
                                                 "not drawn"));
    }
    std::string hostList;
    for (auto& s : sources) hostList += (hostList.empty() ? "" : ",") + s->host;
    builder.addMetadata("xspace.hosts", hostList);

    auto trace = builder.finish(options.cancel, std::max(1u, options.threads));
    if (!trace) return ImportResult::cancel();
    ImportResult r;
    r.trace = std::move(trace);
    return r;
}

ImportResult importXSpace(const std::string& path, const ImportOptions& options) {
    return importXSpaces({XSpaceSource{{}, path, {}}}, options);
}

}  // namespace tracescope
