import Foundation
import MallocCounter

/// One way of doing a row's work: hand-written, Joinery or Swinject.
struct Variant {
  let name: String
  /// Runs the operation `iterations` times.
  let run: (Int) -> Void
}

/// One line of the table: the same work done by each variant.
struct Row {
  let title: String
  /// The variant the others are compared with ("floor"); `nil` when there is none.
  let floor: String?
  let variants: [Variant]
}

struct Measurement {
  var nanoseconds: [Double] = []
  var allocations: Double = 0
  var median: Double { nanoseconds.sorted()[nanoseconds.count / 2] }
}

/// Consumes a result so that the optimizer can neither remove it nor keep it on the stack.
@_optimize(none) @inline(never) func blackHole<T>(_ value: T) {}
@inline(never) func opaque<T>(_ value: T) -> T { value }

enum Harness {
  static let repetitions = Int(ProcessInfo.processInfo.environment["BENCH_REPETITIONS"] ?? "") ?? 5
  static let minimumSample = Duration.milliseconds(
    Int(ProcessInfo.processInfo.environment["BENCH_SAMPLE_MS"] ?? "") ?? 100)

  static func time(_ variant: Variant, _ iterations: Int) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    variant.run(iterations)
    return clock.now - start
  }

  /// Iterations that take at least the minimum sample time.
  static func calibrate(_ variant: Variant) -> Int {
    var iterations = 1
    while true {
      let elapsed = time(variant, iterations)
      if elapsed >= minimumSample { return iterations }
      if elapsed < minimumSample / 20 {
        iterations *= 10
      } else {
        let scale = minimumSample / elapsed
        return max(iterations + 1, Int((Double(iterations) * scale * 1.1).rounded(.up)))
      }
    }
  }

  /// Measures every variant of every row, interleaving rows and variants in each repetition.
  static func measure(_ rows: [Row]) -> [[Measurement]] {
    var results = rows.map { Array(repeating: Measurement(), count: $0.variants.count) }
    var iterations: [[Int]] = []
    for (r, row) in rows.enumerated() {
      iterations.append(row.variants.map { calibrate($0) })
      for (v, variant) in row.variants.enumerated() {
        let count = min(1_000, iterations[r][v])
        variant.run(count)  // warm
        malloc_counter_start()
        variant.run(count)
        results[r][v].allocations = Double(malloc_counter_stop()) / Double(count)
      }
      FileHandle.standardError.write(Data("calibrated \(row.title)\n".utf8))
    }
    for repetition in 0..<repetitions {
      for (r, row) in rows.enumerated() {
        for (v, variant) in row.variants.enumerated() {
          let elapsed = time(variant, iterations[r][v])
          let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
          results[r][v].nanoseconds.append(seconds * 1e9 / Double(iterations[r][v]))
        }
      }
      FileHandle.standardError.write(Data("repetition \(repetition + 1)/\(repetitions)\n".utf8))
    }
    return results
  }

  static func format(nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return String(format: "%.1f ns", nanoseconds)
    case ..<1_000_000: return String(format: "%.2f µs", nanoseconds / 1_000)
    default: return String(format: "%.2f ms", nanoseconds / 1_000_000)
    }
  }

  static func table(_ rows: [Row], _ results: [[Measurement]]) -> String {
    var lines = [
      "| case | variant | median | vs floor | vs Swinject | allocs/op |",
      "|---|---|---:|---:|---:|---:|",
    ]
    for (r, row) in rows.enumerated() {
      let byName = Dictionary(
        uniqueKeysWithValues: zip(row.variants.map(\.name), results[r].map(\.median)))
      for (v, variant) in row.variants.enumerated() {
        let median = results[r][v].median
        let floor =
          row.floor.flatMap { byName[$0] }.map { String(format: "%.2f×", median / $0) } ?? "—"
        let swinject = byName["Swinject"].map { String(format: "%.3f×", median / $0) } ?? "—"
        let allocations =
          malloc_counter_available() != 0
          ? String(format: "%.1f", results[r][v].allocations) : "n/a"
        lines.append(
          "| \(v == 0 ? row.title : "") | \(variant.name) | \(format(nanoseconds: median)) | "
            + "\(variant.name == row.floor ? "1.00×" : floor) | "
            + "\(variant.name == "Swinject" ? "1.000×" : swinject) | \(allocations) |")
      }
    }
    return lines.joined(separator: "\n")
  }

  static var machineLine: String {
    var system = utsname()
    uname(&system)
    let machine = withUnsafeBytes(of: &system.machine) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let swift =
      ProcessInfo.processInfo.environment["SWIFT_VERSION_LINE"] ?? "Swift (version not given)"
    return "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(machine), \(swift); "
      + "release build; each figure the median of \(repetitions) samples of ≥ \(minimumSample), "
      + "cases interleaved."
  }
}
