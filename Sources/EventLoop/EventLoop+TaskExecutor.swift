/// The loop as a task executor: a task that prefers it (`Task.immediate(executorPreference:)`) runs each of its jobs
/// as a work item on the loop thread, so what it does after a suspension comes back to the loop instead of the
/// cooperative pool. For a viewer's first batch, started on its stream's loop: when its page is still being fetched,
/// the batch is delivered on the loop when the page lands (written at once, no hop), and the arrivals of a storm
/// are not left to wait behind the pool's threads on a core they share with the loop.
///
/// Thread rules: `enqueue` is thread-safe (the loop's work queue); the jobs run on the loop thread, one at a time,
/// after each pass's work items (a job and a work item queued from different threads keep no order between them). A
/// job must not block (it holds up the loop's connections). Jobs queued as the loop stops, and any enqueued after, go
/// to the global executor instead: a task is never left suspended.
extension EventLoop: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // A loop that has stopped runs no more jobs: the global executor runs it (not this thread, which may hold a lock
        // of the caller that resumed the task).
        if !queue.submit(job) { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Runs jobs the loop took from its queue. - Important: loop-confined.
    func runJobs(_ jobs: [UnownedJob]) {
        for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
