// The job runner: priorities (the newest first within one), background jobs never take the
// last thread, interactive work's own threads, memory admission, a throwing job, queued jobs
// cancelled.
#include "model/results/job_runner.h"

#include "wait_until.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

using namespace tracescope;
using tracescope::testing::waitUntil;

namespace {

// A gate jobs wait on until the test opens it.
struct Gate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    void wait() {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return open; });
    }
    void release() {
        {
            std::lock_guard lock(m);
            open = true;
        }
        cv.notify_all();
    }
};

}  // namespace

class JobRunnerTest : public QObject {
    Q_OBJECT
private slots:
    void threadCountFromTheMachine() {
        JobRunner runner;
        QCOMPARE(runner.threads(), size_t(std::max(1u, std::thread::hardware_concurrency())));
    }

    // One thread, held by a job: the queued ones start by priority, the newest of a priority first.
    void priorityThenNewest() {
        JobRunner runner(1);
        Gate gate;
        std::mutex m;
        std::vector<int> order;
        auto record = [&](int n) {
            return [&, n] {
                std::lock_guard lock(m);
                order.push_back(n);
            };
        };
        runner.submit(JobPriority::Interactive, 0, [&] { gate.wait(); });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        runner.submit(JobPriority::Background, 0, record(1));
        runner.submit(JobPriority::Page, 0, record(2));
        runner.submit(JobPriority::Page, 0, record(3));
        runner.submit(JobPriority::Interactive, 0, record(4));
        gate.release();
        QVERIFY(waitUntil([&] { return runner.running() == 0 && runner.queued() == 0; }));
        QCOMPARE(order, (std::vector<int>{4, 3, 2, 1}));
    }

    // Two threads, one busy: a background job waits (the last thread stays free); a page job
    // starts at once.
    void backgroundLeavesTheLastThread() {
        JobRunner runner(2);
        Gate gate;
        std::atomic<bool> background{false}, page{false};
        runner.submit(JobPriority::Page, 0, [&] { gate.wait(); });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        runner.submit(JobPriority::Background, 0, [&] { background = true; });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!background);
        runner.submit(JobPriority::Page, 0, [&] { page = true; });
        QVERIFY(waitUntil([&] { return page.load(); }));
        QVERIFY(!background);
        gate.release();
        QVERIFY(waitUntil([&] { return background.load(); }));
    }

    // One analysis thread and one for interactive work: with the analysis thread busy, a second
    // page waits, an interactive job (a file's import, a search) starts at once, and a page
    // never takes the interactive thread.
    void interactiveThreadsKeptForInteractiveWork() {
        JobRunner runner(1, 1);
        QCOMPARE(runner.threads(), size_t(1));
        Gate gate, interactiveGate;
        std::atomic<bool> page{false}, interactive{false};
        runner.submit(JobPriority::Page, 0, [&] { gate.wait(); });
        QVERIFY(waitUntil([&] { return runner.analysesRunning() == 1; }));
        runner.submit(JobPriority::Page, 0, [&] { page = true; });
        runner.submit(JobPriority::Interactive, 0, [&] {
            interactive = true;
            interactiveGate.wait();
        });
        QVERIFY(waitUntil([&] { return interactive.load(); }));
        QCOMPARE(runner.running(), size_t(2));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!page);
        gate.release();
        QVERIFY(waitUntil([&] { return page.load(); }));
        interactiveGate.release();
        QVERIFY(waitUntil([&] { return runner.running() == 0; }));
    }

    // Budget 100 bytes: a job reserving 80 runs; one reserving 50 waits for it; one reserving 10
    // fits beside it. With nothing reserved, a job larger than the budget still starts, unless
    // it is a background one: that waits, and does not hold up a smaller one behind it.
    void memoryAdmission() {
        JobRunner runner(3);
        runner.setMemoryBudget([] { return uint64_t(100); });
        Gate gate;
        std::atomic<bool> big{false}, small{false}, huge{false};
        runner.submit(JobPriority::Page, 80, [&] { gate.wait(); });
        QVERIFY(waitUntil([&] { return runner.reserved() == 80; }));
        runner.submit(JobPriority::Page, 50, [&] { big = true; });
        runner.submit(JobPriority::Page, 10, [&] { small = true; });
        QVERIFY(waitUntil([&] { return small.load(); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!big);
        gate.release();
        QVERIFY(waitUntil([&] { return big.load(); }));
        QVERIFY(waitUntil([&] { return runner.reserved() == 0; }));
        runner.submit(JobPriority::Page, 1000, [&] { huge = true; });
        QVERIFY(waitUntil([&] { return huge.load(); }));
        QVERIFY(waitUntil([&] { return runner.reserved() == 0; }));
        // Computed ahead of being asked for, a job that does not fit waits even with nothing
        // running, until it fits; a smaller one queued before it starts meanwhile.
        std::atomic<bool> ahead{false}, smaller{false};
        runner.holdBackground();
        runner.submit(JobPriority::Background, 10, [&] { smaller = true; });
        runner.submit(JobPriority::Background, 1000, [&] { ahead = true; });  // the newest: asked first
        runner.releaseBackground();
        QVERIFY(waitUntil([&] { return smaller.load(); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!ahead);
        runner.setMemoryBudget([] { return uint64_t(2000); });
        QVERIFY(waitUntil([&] { return ahead.load(); }));
        QVERIFY(waitUntil([&] { return runner.reserved() == 0; }));
        // Measured afresh, the budget can fall below what running jobs reserved (they took
        // the memory): a job reserving nothing (an import, a search) still starts at once.
        std::atomic<uint64_t> room{100};
        runner.setMemoryBudget([&] { return room.load(); });
        Gate holding;
        runner.submit(JobPriority::Page, 80, [&] { holding.wait(); });
        QVERIFY(waitUntil([&] { return runner.reserved() == 80; }));
        room = 30;
        std::atomic<bool> importing{false};
        runner.submit(JobPriority::Interactive, 0, [&] { importing = true; });
        QVERIFY(waitUntil([&] { return importing.load(); }));
        holding.release();
        QVERIFY(waitUntil([&] { return runner.reserved() == 0; }));
    }

    // Held (the timeline's first picture pending): background jobs wait, others run.
    void backgroundHeld() {
        JobRunner runner(4);
        std::atomic<bool> background{false}, page{false};
        runner.holdBackground();
        runner.submit(JobPriority::Background, 0, [&] { background = true; });
        runner.submit(JobPriority::Page, 0, [&] { page = true; });
        QVERIFY(waitUntil([&] { return page.load(); }));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QVERIFY(!background);
        runner.releaseBackground();
        QVERIFY(waitUntil([&] { return background.load(); }));
    }

    void throwingJobLeavesTheRunnerWorking() {
        JobRunner runner(1);
        std::atomic<bool> after{false};
        runner.submit(JobPriority::Page, 5, [] { throw std::runtime_error("broken"); });
        runner.submit(JobPriority::Page, 0, [&] { after = true; });
        QVERIFY(waitUntil([&] { return after.load(); }));
        QVERIFY(waitUntil([&] { return runner.reserved() == 0 && runner.running() == 0; }));
    }

    void queuedJobCancelled() {
        JobRunner runner(1);
        Gate gate;
        std::atomic<bool> ran{false};
        runner.submit(JobPriority::Page, 0, [&] { gate.wait(); });
        QVERIFY(waitUntil([&] { return runner.running() == 1; }));
        const JobRunner::JobId id = runner.submit(JobPriority::Page, 0, [&] { ran = true; });
        QVERIFY(runner.cancelQueued(id));
        QVERIFY(!runner.cancelQueued(id));
        gate.release();
        QVERIFY(waitUntil([&] { return runner.running() == 0; }));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY(!ran);
    }

    // Destroyed with jobs queued: they never run; the running one is waited for.
    void destroyedWithJobsQueued() {
        std::atomic<bool> ran{false}, finished{false};
        {
            JobRunner runner(1);
            runner.submit(JobPriority::Page, 0, [&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(30));
                finished = true;
            });
            QVERIFY(waitUntil([&] { return runner.running() == 1; }));
            runner.submit(JobPriority::Page, 0, [&] { ran = true; });
        }
        QVERIFY(finished);
        QVERIFY(!ran);
    }
};

QTEST_GUILESS_MAIN(JobRunnerTest)
#include "tst_job_runner.moc"
