#include "model/analysis/hlo_roofline.h"

#include <algorithm>

namespace tracescope {

namespace {

RooflinePoint pointOf(const DevicePeaks& peaks, const HloOpMetrics& m, bool known) {
    RooflinePoint p;
    p.timeNs = m.timeNs;
    p.intensity = m.operationalIntensity();
    p.flopsPerSecond = m.flopsPerSecond();
    if (!known || m.bytesAccessed <= 0 || peaks.peakFlopsPerSecond <= 0 || peaks.peakHbmBytesPerSecond <= 0) return p;
    p.attainable = std::min(peaks.peakFlopsPerSecond, p.intensity * peaks.peakHbmBytesPerSecond);
    p.efficiency = p.attainable > 0 ? p.flopsPerSecond / p.attainable : 0;
    p.region = p.intensity < peaks.ridgePoint() ? RooflineRegion::Memory : RooflineRegion::Compute;
    return p;
}

}  // namespace

const char* rooflineRegionName(RooflineRegion r) {
    switch (r) {
    case RooflineRegion::Memory: return "memory";
    case RooflineRegion::Compute: return "compute";
    default: return "unknown";
    }
}

RooflineResult computeRoofline(const HloOpProfile& profile) {
    RooflineResult out;
    out.peaks = profile.peaks;
    for (const HloOpRow& r : profile.ops) {
        RooflinePoint p = pointOf(profile.peaks, r.metrics, r.costPerExecution.known());
        p.name = r.name;
        p.program = r.program->displayName();
        p.category = r.category;
        (p.region == RooflineRegion::Memory    ? out.memoryRegionNs
         : p.region == RooflineRegion::Compute ? out.computeRegionNs
                                                : out.unknownNs) += p.timeNs;
        out.ops.push_back(std::move(p));
    }
    for (const HloProgramRow& r : profile.programs) {
        if (r.metrics.timeNs <= 0) continue;
        // A program with ops of unknown cost is still placed, from what is known (its FLOPs are a
        // lower bound then; the CLI says how many such ops it ran).
        RooflinePoint p = pointOf(profile.peaks, r.metrics, true);
        p.name = p.program = r.name;
        p.category = "program";
        out.programs.push_back(std::move(p));
    }
    return out;
}

}  // namespace tracescope
