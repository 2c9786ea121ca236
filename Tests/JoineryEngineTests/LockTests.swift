import Foundation
import Testing

@testable import JoineryEngine

@Suite("Locks")
struct LockTests {
  /// A counter only the lock protects.
  final class Guarded: @unchecked Sendable {
    let lock = _Lock.make()
    var count = 0
  }

  @Test("withLock makes increments from eight threads exact")
  func mutualExclusion() {
    let perThread = 2_000
    let totals = Race.run(threads: 8, rounds: Race.rounds(50)) { _ in
      Guarded()
    } work: {
      guarded, _ in
      for _ in 0..<perThread { guarded.lock.withLock { guarded.count += 1 } }
      return guarded
    }
    // Each round's state is shared by its eight threads: every thread sees the full count
    // once all of them are done.
    #expect(totals.allSatisfy { $0.count == 8 * perThread })
  }

  @Test("tryLock fails while another thread holds the lock, and succeeds once it is released")
  func tryLockSeesTheHolder() {
    let guarded = Guarded()
    guarded.lock.lock()
    let whileHeld = Race.onAnotherThread { guarded.lock.tryLock() }
    guarded.lock.unlock()
    let afterwards = Race.onAnotherThread {
      defer { guarded.lock.unlock() }
      return guarded.lock.tryLock()
    }
    #expect(!whileHeld)
    #expect(afterwards)
  }

  @Test(
    "A thread that finds the lock held waits until it is released, and sees what the holder wrote")
  func waiterSleepsUntilRelease() {
    let guarded = Guarded()
    guarded.lock.lock()
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let seen = UncheckedBox(-1)
    Thread {
      started.signal()
      guarded.lock.lock()  // held: waits (on Linux, asleep on the futex word)
      seen.value = guarded.count
      guarded.lock.unlock()
      finished.signal()
    }.start()
    started.wait()
    usleep(50_000)  // the other thread is waiting by now
    guarded.count = 7
    guarded.lock.unlock()
    finished.wait()
    #expect(seen.value == 7)
  }

  @Test("Threads that sleep on a contended lock are all woken, each in turn")
  func contendedHandOff() {
    let perThread = 100
    let totals = Race.run(threads: 8, rounds: 2) { _ in
      Guarded()
    } work: {
      guarded, _ in
      for _ in 0..<perThread {
        // Held long enough for the other threads to go to sleep on it.
        guarded.lock.withLock {
          guarded.count += 1
          usleep(50)
        }
      }
      return guarded
    }
    #expect(totals.allSatisfy { $0.count == 8 * perThread })
  }

  @Test("The owner word keeps what its holder records")
  func ownerWord() {
    let lock = _Lock.make()
    #expect(lock.owner == 0)
    lock.owner = 42
    #expect(lock.owner == 42)
  }
}
