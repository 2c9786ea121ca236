/// Stands in for a database pool: opened once per process, shared by every request, closed once
/// by the container's shutdown. Its journal records what happened, in order.
public actor Notebook {
  public private(set) var notes: [String] = []
  public private(set) var journal: [String] = ["open"]
  /// Drafts begun and not yet saved or discarded.
  public private(set) var openDrafts = 0
  private var isOpen = true

  public init() {}

  func begin() throws -> Int {
    guard isOpen else { throw NotebookClosed() }
    openDrafts += 1
    return openDrafts
  }

  func save(_ lines: [String]) throws {
    guard isOpen else { throw NotebookClosed() }
    notes += lines
    openDrafts -= 1
    journal.append("save")
  }

  func discard() {
    openDrafts -= 1
    journal.append("discard")
  }

  /// Closes the pool: every later draft fails.
  public func close() {
    isOpen = false
    journal.append("close")
  }
}

public struct NotebookClosed: Error, CustomStringConvertible {
  public var description: String { "the notebook is closed" }
}

/// One request's unit of work: lines written to it are saved together by ``save()``, or
/// discarded by the scope's disposer if the request never saved them.
public actor Draft {
  let notebook: Notebook
  private var lines: [String] = []
  private var isOpen = false

  public init(notebook: Notebook) {
    self.notebook = notebook
  }

  public func write(_ line: String) async throws {
    if !isOpen {
      _ = try await notebook.begin()
      isOpen = true
    }
    lines.append(line)
  }

  public func save() async throws {
    guard isOpen else { return }
    try await notebook.save(lines)
    isOpen = false
  }

  /// The scope's disposer: whatever was not saved is discarded.
  public func discardIfOpen() async {
    guard isOpen else { return }
    isOpen = false
    await notebook.discard()
  }
}
