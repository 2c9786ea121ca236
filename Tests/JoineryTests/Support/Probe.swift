import Foundation

/// Runs a case of the `JoineryProbes` executable in a child process: for the main thread, and
/// for defects that would crash or hang the test run.
enum Probe {
  struct Run {
    /// The exit status; a crash shows as a signal's status, a hang as -1.
    let status: Int32
    let output: String
  }

  static func run(_ name: String, timeout: TimeInterval = 60) throws -> Run {
    // The test bundle and the probe executable are built into the same folder.
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let process = Process()
    process.executableURL = folder.appendingPathComponent("JoineryProbes")
    process.arguments = [name]
    // A probe that stops the program must end at once: Swift's backtracer, started in the
    // crashing process, would keep the output pipe open (and, under AddressSanitizer, hang).
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      return Run(status: -1, output: "timed out after \(timeout) s")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}

/// Facts about how the test binary was built.
enum BuildFacts {
  /// Whether ThreadSanitizer instruments this process. Its shadow call stack holds a fixed
  /// number of frames, so recursion a few thousand resolves deep crashes it whatever the
  /// thread's stack size: the deepest cases use a shallower chain under it.
  static let threadSanitizer = runtimeHas("__tsan_init")

  /// Whether AddressSanitizer instruments this process: a debug frame is then several times
  /// larger, and the stack guard keeps half the stack in reserve.
  static let addressSanitizer = runtimeHas("__asan_init")

  /// Whether `symbol` is loaded in this process (a sanitizer's runtime defines its own).
  private static func runtimeHas(_ symbol: String) -> Bool {
    #if canImport(Darwin)
      // RTLD_DEFAULT
      return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol) != nil
    #elseif canImport(Glibc)
      return dlsym(nil, symbol) != nil
    #else
      return false
    #endif
  }
}
