// Thread pools for the app's background work, kept apart from
// QThreadPool::globalInstance(): Qt's raster engine splits large fills across
// the global pool and waits for them, so a long analysis queued there stalls
// every repaint on the UI thread until it ends.
#pragma once

class QThreadPool;

namespace tracescope {

// Analysis pages: computations that may take seconds on big traces.
QThreadPool* analysisPool();
// Work a user waits on: loading, the timeline index, search, range aggregates.
// Separate from the analyses, so it never queues behind them.
QThreadPool* interactivePool();

}  // namespace tracescope
