// The thread pool for the app's interactive background work (the analyses run on the
// model's job runner, model/results/job_runner.h), kept apart from
// QThreadPool::globalInstance(): Qt's raster engine splits large fills across the global
// pool and waits for them, so a long job queued there stalls every repaint on the UI
// thread until it ends.
#pragma once

class QThreadPool;

namespace tracescope {

// Work a user waits on: loading, the timeline index, search, range aggregates.
// Separate from the analyses, so it never queues behind them.
QThreadPool* interactivePool();

}  // namespace tracescope
