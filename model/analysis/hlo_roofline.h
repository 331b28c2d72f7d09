// The roofline model of an HLO op profile (as XProf's roofline_model): per op and per program,
// operational intensity (FLOPs per byte accessed) against the attained FLOP rate, under the
// device's two ceilings: its peak FLOP rate and its memory bandwidth x intensity. The ridge
// point (peak FLOP rate / bandwidth) splits the plane: an op left of it can at best be
// memory-bound, right of it compute-bound; its efficiency is the attained rate over the
// attainable one (the lower ceiling at its intensity). The share of time in each region tells
// where a program's time goes.
#pragma once

#include "model/analysis/hlo_op_profile.h"

#include <string>
#include <vector>

namespace tracescope {

enum class RooflineRegion : uint8_t { Unknown, Memory, Compute };
const char* rooflineRegionName(RooflineRegion r);  // "unknown", "memory", "compute"

struct RooflinePoint {
    std::string name;     // the op, or the program for program points
    std::string program;  // "<module>(<id>)"
    std::string category;
    TimeNs timeNs = 0;
    double intensity = 0;        // FLOPs per byte
    double flopsPerSecond = 0;   // attained
    double attainable = 0;       // min(peak FLOP rate, intensity x bandwidth); 0 without peaks
    double efficiency = 0;       // attained / attainable
    RooflineRegion region = RooflineRegion::Unknown;  // Unknown: no cost, or no peaks
};

struct RooflineResult {
    DevicePeaks peaks;
    std::vector<RooflinePoint> ops;       // the profile's ops, longest first
    std::vector<RooflinePoint> programs;  // programs with device time
    TimeNs memoryRegionNs = 0, computeRegionNs = 0, unknownNs = 0;  // op time by region
};

RooflineResult computeRoofline(const HloOpProfile& profile);

}  // namespace tracescope
