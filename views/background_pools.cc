#include "views/background_pools.h"

#include "model/trace/threads.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace tracescope {

namespace {

// Owned by the application object, like the global pool: destroying it waits for
// running jobs, so none outlives the objects it reports to.
QThreadPool* pool(QPointer<QThreadPool>& slot, const char* name) {
    if (!slot) {
        slot = new QThreadPool(QCoreApplication::instance());
        slot->setObjectName(QString::fromLatin1(name));
        slot->setMaxThreadCount(int(std::max(2u, machineThreads())));
    }
    return slot;
}

}  // namespace

QThreadPool* interactivePool() {
    static QPointer<QThreadPool> slot;
    return pool(slot, "interactive");
}

}  // namespace tracescope
