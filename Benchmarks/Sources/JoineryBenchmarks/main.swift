import Foundation

// Joinery against Swinject 2.10.0 and hand-written code, in one process, cases interleaved.
// Run with Benchmarks/run.sh (release build); see Benchmarks/README.md.
let arguments = CommandLine.arguments
// `--profile ROW VARIANT N` runs one variant N times and prints nothing: for valgrind.
if let at = arguments.firstIndex(of: "--profile"), arguments.count > at + 3 {
  let (title, name, count) = (arguments[at + 1], arguments[at + 2], Int(arguments[at + 3]) ?? 1)
  let all =
    resolutionRows() + wrapperRows() + depthRows() + coldStartRows() + scalingRows()
    + deepChainRows() + failureRows() + buildRows() + taggedBuildRows() + singletonsOverChainRows()
    + moduleBuildRows() + reportRows() + scopeRows()
  // The growth rows are built only when asked for: see `growthRows()`.
  guard
    let row = all.first(where: { $0.title == title })
      ?? growthRows().first(where: { $0.title == title }),
    let variant = row.variants.first(where: { $0.name == name })
  else {
    print("no variant '\(name)' in a row titled '\(title)'; rows: \(all.map(\.title))")
    exit(1)
  }
  measured(variant.run, count)
  exit(0)
}
// `--concurrency` prints only the two-thread table.
if arguments.contains("--concurrency") {
  print(concurrencyTable())
  exit(0)
}
// `--memory` prints only the memory table.
if arguments.contains("--memory") {
  print(memoryTable())
  exit(0)
}
let quick = arguments.contains("--quick")
var rows = resolutionRows() + wrapperRows() + depthRows() + coldStartRows() + scopeRows()
if !quick {
  rows +=
    scalingRows() + deepChainRows() + buildRows() + taggedBuildRows() + singletonsOverChainRows()
    + moduleBuildRows() + failureRows()
    + reportRows() + growthRows()
}
// `--only TEXT` keeps the rows whose title contains TEXT (and skips the other tables).
let only = arguments.firstIndex(of: "--only").flatMap { at in
  arguments.count > at + 1 ? arguments[at + 1] : nil
}
if let only {
  let every =
    resolutionRows() + wrapperRows() + depthRows() + coldStartRows() + scalingRows()
    + deepChainRows() + buildRows() + taggedBuildRows() + singletonsOverChainRows() + failureRows()
    + moduleBuildRows() + reportRows()
    + scopeRows() + growthRows()
  rows = every.filter {
    $0.title.contains(only)
  }
}
let results = Harness.measure(rows)
print(Harness.machineLine)
print("")
print(Harness.table(rows, results))
if !quick && only == nil {
  print("")
  print(concurrencyTable())
  print("")
  print(memoryTable())
}

/// Runs a variant's operations: the one function `instructions.sh` has callgrind count in
/// (`--toggle-collect`), so that the setup before it, whose count varies from run to run,
/// stays out of the figure.
@inline(never)
func measured(_ run: (Int) -> Void, _ count: Int) { run(count) }
