import Testing

@testable import JoineryEngine

@Suite("Per-thread state")
struct ThreadStateTests {
  @Test("A running frame is the thread's while its body runs, nested or detached")
  func runningFrames() {
    var outer = 1
    var inner = 2
    withUnsafePointer(to: &outer) { outerFrame in
      withUnsafePointer(to: &inner) { innerFrame in
        #expect(_ThreadState.runningFrameAddress == nil)
        #expect(!_ThreadState.isResolving)
        _ThreadState.running(frameAt: outerFrame) {
          #expect(_ThreadState.runningFrameAddress == UnsafeRawPointer(outerFrame))
          _ThreadState.running(frameAt: innerFrame) {
            #expect(_ThreadState.runningFrameAddress == UnsafeRawPointer(innerFrame))
            _ThreadState.detached { #expect(_ThreadState.runningFrameAddress == nil) }
            #expect(_ThreadState.runningFrameAddress == UnsafeRawPointer(innerFrame))
          }
          #expect(_ThreadState.isResolving)
          // Another thread sees none of this thread's frames.
          #expect(Race.onAnotherThread { _ThreadState.runningFrameAddress == nil })
        }
        #expect(_ThreadState.runningFrameAddress == nil)
      }
    }
  }

  @Test("Shared creations are counted while they run, and the count survives a throw")
  func sharedCreations() {
    struct Failure: Error {}
    #expect(!_ThreadState.isCreatingShared)
    _ThreadState.creatingShared { #expect(_ThreadState.isCreatingShared) }
    #expect(throws: Failure.self) {
      try _ThreadState.creatingShared { () throws(Failure) in throw Failure() }
    }
    #expect(!_ThreadState.isCreatingShared)
  }

  @Test("The stack limit lies below the caller's position, leaving a reserve")
  func stackLimit() {
    let position = _ThreadState.stackPosition
    let limit = _ThreadState.stackLimit(from: position)
    #expect(limit < position)
    #expect(position - limit >= 16 << 10)
  }
}
