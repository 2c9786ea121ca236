/// One level of a resolution chain: kept on the stack of the thread that resolves it, linked to
/// its parent and to its resolution's root state, so the whole chain is at hand for cycle
/// detection and error paths without allocating anything.
///
/// `Owner` is what a level builds (a binding); `Level` the embedder's other per-level values;
/// `Root` its per-resolution state. Made and read only through a ``_ChainHandle``.
@unsafe
@frozen
@usableFromInline package struct _ChainFrame<Owner: AnyObject, Level, Root: ~Copyable> {
  /// The level's owner, depth and the cycle test's state.
  @usableFromInline let link: _ChainLink
  @usableFromInline let parent: UnsafePointer<_ChainFrame>?
  @usableFromInline let root: UnsafeMutablePointer<_ChainRoot<Root>>
  @usableFromInline let level: Level

  @inlinable @inline(__always)
  init(
    link: _ChainLink, level: Level, parent: UnsafePointer<_ChainFrame>?,
    root: UnsafeMutablePointer<_ChainRoot<Root>>
  ) {
    unsafe self.link = link
    unsafe self.level = level
    unsafe self.parent = parent
    unsafe self.root = root
  }
}

/// What one resolution keeps for as long as it runs: the embedder's state, and the lowest stack
/// address its levels may reach.
///
/// Non-copyable when the embedder's state is, as `Joinery`'s is (it owns objects it releases).
@frozen
@usableFromInline package struct _ChainRoot<Root: ~Copyable>: ~Copyable {
  /// The lowest stack address this resolution may reach (``_ThreadState/stackLimit(from:)``):
  /// 0 until read.
  ///
  /// First, at the root's own address: a level reaches it from the root's pointer
  /// (``stackLimit(at:)``) without a key path, which a non-copyable root has none of.
  @usableFromInline var stackLimit: UInt = 0
  @usableFromInline package var state: Root

  @inlinable @inline(__always)
  package init(_ state: consuming Root) { self.state = state }

  /// The ``stackLimit`` of the root at `root`: its first stored property.
  @inlinable @inline(__always)
  static func stackLimit(at root: UnsafeMutablePointer<_ChainRoot>) -> UnsafeMutablePointer<UInt> {
    unsafe UnsafeMutableRawPointer(root).assumingMemoryBound(to: UInt.self)
  }
}

/// A resolution's root state, lent to the call that runs the resolution.
///
/// Valid while that call runs, which is all the engine lends it for: ``lend(_:_:)`` makes it,
/// and it names the root only for the closure it is passed to. Non-copyable, so that the
/// closure can only borrow it: a handle cannot be kept past the resolution by accident (a
/// level's ``_ChainHandle/root`` makes a new one, for code below that level).
@safe
@frozen
@usableFromInline
package struct _ChainRootHandle<Owner: AnyObject, Level, Root: ~Copyable>:
  ~Copyable
{
  @usableFromInline let pointer: UnsafeMutablePointer<_ChainRoot<Root>>

  @inlinable @inline(__always)
  init(_ pointer: UnsafeMutablePointer<_ChainRoot<Root>>) { unsafe self.pointer = pointer }

  /// Runs `body` with a handle on `root`, kept where it is (on the caller's stack).
  @_transparent @usableFromInline
  package static func lend<R, E: Error>(
    _ root: inout _ChainRoot<Root>, _ body: (borrowing _ChainRootHandle) throws(E) -> R
  ) throws(E) -> R {
    try unsafe _withUnprotectedUnsafeMutablePointer(to: &root) { pointer throws(E) -> R in
      #if JOINERY_INTERNAL_CHECKS
        unsafe _internalCheck(
          _withUnprotectedUnsafeMutablePointer(to: &pointer.pointee.stackLimit) {
            unsafe $0 == _ChainRoot.stackLimit(at: pointer)
          }, "a chain root's stack limit is not at its own address")
        let running = unsafe _ThreadState.runningFrameAddress
        defer {
          unsafe _internalCheck(
            _ThreadState.runningFrameAddress == running,
            "a resolution ended with another level running on its thread")
        }
      #endif
      return try body(unsafe _ChainRootHandle(pointer))
    }
  }

  /// The embedder's state for the resolution.
  @inlinable
  package var state: Root {
    @inline(__always) _read { yield unsafe pointer.pointee.state }
    @inline(__always) nonmutating _modify { yield unsafe &pointer.pointee.state }
  }

  /// Runs `body` with the first level of the resolution pushed: `owner` at `depth` (1, or 0 for
  /// a marker level that only says where a resolution started).
  @_transparent @usableFromInline
  package func first<R, E: Error>(
    _ owner: Owner, level: Level, depth: Int = 1,
    _ body: (borrowing _ChainHandle<Owner, Level, Root>) throws(E) -> R
  ) throws(E) -> R {
    var frame = unsafe _ChainFrame<Owner, Level, Root>(
      link: _ChainLink(first: _Owner(owner), depth: depth), level: level, parent: nil,
      root: pointer)
    return try unsafe _withUnprotectedUnsafePointer(to: &frame) { frame throws(E) -> R in
      try body(unsafe _ChainHandle(frame))
    }
  }
}

/// A level of a resolution chain, named while its frame is on its thread's stack.
///
/// One word, so that lending a resolver to a factory writes one word. The engine makes a handle
/// only for code that runs below its frame: the body of ``push(_:level:_:)`` and of
/// ``_ChainRootHandle/first(_:level:depth:_:)``, and ``running``, the frame of the factory the
/// calling thread runs. The embedder keeps it only in values lent for that long (a resolver,
/// a resolution context), never beyond. Non-copyable: a second handle on the level is taken
/// with ``duplicated()``, where the code says so.
@safe
@frozen
@usableFromInline
package struct _ChainHandle<Owner: AnyObject, Level, Root: ~Copyable>:
  ~Copyable
{
  @usableFromInline let frame: UnsafePointer<_ChainFrame<Owner, Level, Root>>

  @inlinable @inline(__always)
  init(_ frame: UnsafePointer<_ChainFrame<Owner, Level, Root>>) { unsafe self.frame = frame }

  /// The level's owner, depth and cycle-test state.
  @inlinable
  package var link: _ChainLink {
    @inline(__always) get { unsafe frame.pointee.link }
  }

  /// How many levels deep the chain is here (0 for a marker level).
  @inlinable
  package var depth: Int {
    @inline(__always) get { unsafe frame.pointee.link.depth }
  }

  /// What this level builds: the frame does not retain it (the caller that pushed it does).
  @inlinable
  package var owner: Owner {
    @inline(__always) get { unsafe frame.pointee.link.owner.object(as: Owner.self) }
  }

  /// Calls `body` with the level's owner, without retaining it (the caller that pushed the level
  /// keeps it).
  @inlinable @inline(__always)
  package func readOwner<R>(_ body: (Owner) -> R) -> R {
    unsafe Unmanaged<Owner>.fromOpaque(frame.pointee.link.owner.address)
      ._withUnsafeGuaranteedRef(body)
  }

  /// The embedder's values for this level.
  @inlinable
  package var level: Level {
    @inline(__always) _read { yield unsafe frame.pointee.level }
  }

  /// The level above, or `nil` at the first.
  @inlinable
  package var parent: _ChainHandle? {
    @inline(__always) get { unsafe frame.pointee.parent.map { unsafe _ChainHandle($0) } }
  }

  /// Another handle on this level, for code that runs while this one is valid: how a holder
  /// lends its level anew (a resolution context that joins the chain, a resolver's context),
  /// said where it happens instead of copied by accident.
  @inlinable @inline(__always)
  package func duplicated() -> _ChainHandle { unsafe _ChainHandle(frame) }

  /// Whether both handles name the same level.
  @inlinable @inline(__always)
  package func isIdentical(to other: borrowing _ChainHandle) -> Bool { unsafe frame == other.frame }

  /// The resolution's root state.
  @inlinable
  package var root: _ChainRootHandle<Owner, Level, Root> {
    @inline(__always) get { unsafe _ChainRootHandle(frame.pointee.root) }
  }

  /// The level of the factory running on the calling thread, if any.
  ///
  /// The thread keeps the level's address only (``_ThreadState/runningFrameAddress``): an
  /// embedder runs its chains with one `Owner`, `Level` and `Root`, as `Joinery` does.
  @inlinable
  package static var running: _ChainHandle? {
    @inline(__always) get {
      unsafe _ThreadState.runningFrameAddress.map {
        unsafe _ChainHandle($0.assumingMemoryBound(to: _ChainFrame<Owner, Level, Root>.self))
      }
    }
  }

  /// Runs `body` with this level as the calling thread's running one (``running``).
  @_transparent @usableFromInline
  package func running<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    try unsafe _ThreadState.running(frameAt: UnsafeRawPointer(frame), body)
  }

  /// Whether the chain from this level up has a level of `owner`.
  @_transparent @usableFromInline
  package func contains(_ owner: _Owner) -> Bool {
    _ChainLink.chain(
      from: self, contains: owner, link: { $0.link }, parent: { $0.parent })
  }

  /// Whether `owner` may be pushed below this level: not a cycle, within `maximumDepth` and
  /// within the thread's stack (``_ChainLink/admit(_:maximumDepth:stackLimit:contains:)``).
  @_transparent @usableFromInline
  package func admit(_ owner: Owner, maximumDepth: Int) -> _ChainLink.Verdict {
    unsafe frame.pointee.link.admit(
      _Owner(owner), maximumDepth: maximumDepth,
      stackLimit: _ChainRoot.stackLimit(at: frame.pointee.root)
    ) { owner in contains(owner) }
  }

  /// Runs `body` with a level for `owner` pushed below this one (its admission checked by the
  /// caller: ``admit(_:maximumDepth:)``).
  @_transparent @usableFromInline
  package func push<R, E: Error>(
    _ owner: Owner, level: Level, _ body: (borrowing _ChainHandle) throws(E) -> R
  ) throws(E) -> R {
    var frame = unsafe _ChainFrame<Owner, Level, Root>(
      link: _ChainLink(_Owner(owner), below: frame.pointee.link), level: level,
      parent: frame, root: frame.pointee.root)
    return try unsafe _withUnprotectedUnsafePointer(to: &frame) { frame throws(E) -> R in
      #if JOINERY_INTERNAL_CHECKS
        unsafe _ChainHandle(frame)._checkInvariants()
      #endif
      return try body(unsafe _ChainHandle(frame))
    }
  }

  #if JOINERY_INTERNAL_CHECKS
    /// Checks the contract (see ``_internalCheck(_:_:file:line:)``) of this level.
    ///
    /// Against its parent: both on one root. The link checks its own depth and filter
    /// (``_ChainLink``). (Not that the parent's frame is above this one on the stack: under
    /// AddressSanitizer, frames whose address escapes live on a fake stack, in any order.)
    ///
    /// Out of line, so that a debug build's stack per level does not grow.
    @usableFromInline @inline(never)
    package func _checkInvariants() {
      guard let parent = unsafe frame.pointee.parent else { return }
      _internalCheck(
        unsafe frame.pointee.root == parent.pointee.root, "a level on another root than its parent")
    }
  #endif
}

/// An object a resolution's root state keeps while the resolution runs: made on first use,
/// released when the state ends.
///
/// One word, `nil` until an object is kept: a resolution that never makes one (most) pays for
/// nothing but a test of that word when it ends. Non-copyable, so exactly one owner releases it.
@safe
@frozen
@usableFromInline package struct _Owned<Object: AnyObject>: ~Copyable {
  @usableFromInline var reference: Unmanaged<Object>?

  /// Keeps nothing.
  @inlinable @inline(__always)
  package init() { unsafe reference = nil }

  @inlinable
  deinit { unsafe reference?.release() }

  /// Whether no object is kept.
  @inlinable
  package var isEmpty: Bool {
    @inline(__always) get { unsafe reference == nil }
  }

  /// Calls `body` with the kept object, without retaining it; `nil` when none is kept.
  @inlinable @inline(__always)
  package func read<R>(_ body: (Object) -> R) -> R? {
    guard let reference = unsafe reference else { return nil }
    return unsafe reference._withUnsafeGuaranteedRef(body)
  }

  /// Calls `body` with the kept object, made by `make` and kept first if there is none.
  @inlinable @inline(__always)
  package mutating func readMaking<R>(_ make: () -> Object, _ body: (Object) -> R) -> R {
    if unsafe reference == nil { unsafe reference = Unmanaged.passRetained(make()) }
    return unsafe reference.unsafelyUnwrapped._withUnsafeGuaranteedRef(body)
  }

  /// Keeps `object`, releasing the object kept before, if any.
  @inlinable
  package mutating func replace(with object: Object) {
    let old = unsafe reference
    unsafe reference = Unmanaged.passRetained(object)
    unsafe old?.release()
  }

  /// Hands over the kept object, if any, and keeps none.
  @inlinable
  package mutating func take() -> Object? {
    guard let reference = unsafe reference else { return nil }
    unsafe self.reference = nil
    return unsafe reference.takeRetainedValue()
  }
}
