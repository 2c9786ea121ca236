// A module named Foundation for Scripts/check-apple-floor.sh (step 3): the part of Apple's
// Foundation, Dispatch and Darwin that the tests and the package's samples use, declared with
// the availability Apple's SDK gives each on macOS. Declarations only; no bodies run.
//
// When a test or sample starts using another Foundation API, step 3 fails with "cannot find
// ... in scope": add the declaration here with its availability from Apple's documentation.
// Anything introduced after macOS 10.15 must carry its `@available`, or the check is void.

@_exported import Darwin

public typealias TimeInterval = Double

public struct UUID: Hashable, Sendable {
  public init() {}
  public var uuidString: String { "" }
}

public struct URL: Hashable, Sendable {
  public init(fileURLWithPath path: String) {}
  public var path: String { "" }
  public func appendingPathComponent(_ component: String) -> URL { self }
  public func appendingPathComponent(_ component: String, isDirectory: Bool) -> URL { self }
  public func deletingLastPathComponent() -> URL { self }
}

public struct Date: Comparable, Hashable, Sendable {
  public init() {}
  public static func < (lhs: Date, rhs: Date) -> Bool { false }
  public func addingTimeInterval(_ interval: TimeInterval) -> Date { self }
  public func timeIntervalSince(_ other: Date) -> Double { 0 }
  public var timeIntervalSinceNow: Double { 0 }
}

public struct Data: RandomAccessCollection, Hashable, Sendable {
  public init() {}
  public var startIndex: Int { 0 }
  public var endIndex: Int { 0 }
  public subscript(position: Int) -> UInt8 { 0 }
  public init<S: Sequence>(_ elements: S) where S.Element == UInt8 {}
  public init(contentsOf url: URL) throws {}
  public func write(to url: URL) throws {}
}

extension String {
  public struct Encoding: Hashable, Sendable {
    public static let utf8 = Encoding()
  }
  public init(contentsOf url: URL, encoding: Encoding) throws { self = "" }
  public func write(to url: URL, atomically: Bool, encoding: Encoding) throws {}
  public init?(data: Data, encoding: Encoding) { nil }
  public func data(using encoding: Encoding) -> Data? { nil }
}

extension StringProtocol {
  public func contains<T: StringProtocol>(_ other: T) -> Bool { false }
  public func components<T: StringProtocol>(separatedBy separator: T) -> [String] { [] }
  public func range<T: StringProtocol>(of other: T) -> Range<Index>? { nil }
  public func replacingOccurrences<T: StringProtocol, R: StringProtocol>(
    of target: T, with replacement: R
  ) -> String { "" }
}

open class NSObject {
  public init() {}
}

open class NSLock: NSObject, @unchecked Sendable {
  public override init() {}
  open func lock() {}
  open func unlock() {}
  open func `try`() -> Bool { false }
  @available(macOS 10.5, *)
  open var name: String?
}

extension NSLock {
  // Swift overlay API, available wherever NSLock is.
  public func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}

open class NSCondition: NSLock, @unchecked Sendable {
  open func wait() {}
  open func signal() {}
  open func broadcast() {}
}

open class Thread: NSObject, @unchecked Sendable {
  open class var isMainThread: Bool { false }
  open var isMainThread: Bool { false }
  open class func sleep(forTimeInterval interval: Double) {}
  @available(macOS 10.12, *)
  public convenience init(block: @escaping @Sendable () -> Void) { self.init() }
  open func start() {}
  open var stackSize: Int {
    get { 0 }
    set {}
  }
  @available(macOS 10.5, *)
  open var name: String? {
    get { nil }
    set {}
  }
}

open class ProcessInfo: NSObject, @unchecked Sendable {
  open class var processInfo: ProcessInfo { ProcessInfo() }
  open var environment: [String: String] { [:] }
  open var arguments: [String] { [] }
  open var processIdentifier: Int32 { 0 }
  open var activeProcessorCount: Int { 0 }
}

open class FileHandle: NSObject, @unchecked Sendable {
  open func readDataToEndOfFile() -> Data { Data() }
  @available(macOS 10.15.4, *)
  open func readToEnd() throws -> Data? { nil }
  open class var standardError: FileHandle { FileHandle() }
  open func write(_ data: Data) {}
}

open class Pipe: NSObject, @unchecked Sendable {
  public override init() {}
  open var fileHandleForReading: FileHandle { FileHandle() }
  open var fileHandleForWriting: FileHandle { FileHandle() }
}

open class Process: NSObject, @unchecked Sendable {
  public override init() {}
  @available(macOS 10.13, *)
  open var executableURL: URL? {
    get { nil }
    set {}
  }
  open var arguments: [String]? {
    get { nil }
    set {}
  }
  open var environment: [String: String]? {
    get { nil }
    set {}
  }
  open var standardOutput: Any? {
    get { nil }
    set {}
  }
  open var standardError: Any? {
    get { nil }
    set {}
  }
  open var standardInput: Any? {
    get { nil }
    set {}
  }
  @available(macOS 10.13, *)
  open func run() throws {}
  open func waitUntilExit() {}
  open func terminate() {}
  open var terminationStatus: Int32 { 0 }
  open var isRunning: Bool { false }
}

open class FileManager: NSObject, @unchecked Sendable {
  open class var `default`: FileManager { FileManager() }
  @available(macOS 10.12, *)
  open var temporaryDirectory: URL { URL(fileURLWithPath: "") }
  open func fileExists(atPath path: String) -> Bool { false }
  open func createDirectory(
    at url: URL, withIntermediateDirectories: Bool, attributes: [String: Any]? = nil
  ) throws {}
  open func removeItem(at url: URL) throws {}
  open func removeItem(atPath path: String) throws {}
  open func contentsOfDirectory(atPath path: String) throws -> [String] { [] }
}

// Dispatch, which Foundation re-exports.
public struct DispatchTime: Sendable {
  public static func now() -> DispatchTime { DispatchTime() }
  public var uptimeNanoseconds: UInt64 { 0 }
}

public enum DispatchTimeoutResult: Sendable { case success, timedOut }

open class DispatchSemaphore: @unchecked Sendable {
  public init(value: Int) {}
  public func signal() -> Int { 0 }
  public func wait() {}
  public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { .success }
}

open class DispatchQueue: @unchecked Sendable {
  public static let main = DispatchQueue()
  public class func global() -> DispatchQueue { DispatchQueue() }
  public func async(execute work: @escaping @Sendable () -> Void) {}
  public func sync<T>(execute work: () throws -> T) rethrows -> T { try work() }
  public class func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {}
}
